// Command kbsync proposes knowledge-base rows from primary data: the
// package index's JSON simple API (PEP 691/700) and core metadata (PEP
// 658/714), the PyTorch wheel index's HTML pages (PEP 503), and
// conda-forge's sharded repodata (CEP 16). It writes a YAML proposal for a
// person to review; it never edits resolver/kb/data.
//
//	go run ./resolver/kb/cmd/kbsync -out proposal.yaml
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/envguard/envguard/resolver/kb"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kbsync", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pypi := fs.String("pypi", "https://pypi.org/simple/", "root of the PEP 691 simple API")
	whl := fs.String("pytorch-index", "https://download.pytorch.org/whl/", "root of the PyTorch wheel index (\"\" skips it)")
	variants := fs.String("variants", "cpu,cu126,cu128,cu130", "wheel index variants to read")
	conda := fs.String("conda", "https://conda.anaconda.org/conda-forge/", "conda channel with CEP 16 shards (\"\" skips it)")
	subdir := fs.String("subdir", "linux-64", "conda subdir")
	pkgs := fs.String("packages", "torch,torchvision,torchaudio,triton,jax,jaxlib,jax-cuda12-plugin,jax-cuda13-plugin,tensorflow,flash-attn,xformers,vllm,bitsandbytes", "index projects")
	condaPkgs := fs.String("conda-packages", "pytorch,pytorch-gpu,libtorch,cuda-version,tensorflow,jaxlib,cudnn,nccl", "conda packages")
	newest := fs.Int("newest", 3, "rows for each project's newest N final releases")
	kbDir := fs.String("kb", "", "knowledge-base data directory whose rows are not proposed again (default: the embedded KB)")
	out := fs.String("out", "", "write the proposal here (default stdout)")
	cache := fs.String("cache", "", "cache directory for ETag revalidation (default none)")
	timeout := fs.Duration("timeout", 60*time.Second, "timeout of each request")
	maxBody := fs.Int64("max-body", 256<<20, "largest response body accepted, in bytes")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "kbsync: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *newest < 1 || *maxBody < 1 || *timeout <= 0 {
		fmt.Fprintln(stderr, "kbsync: -newest, -max-body and -timeout must be positive")
		return 2
	}
	k := kb.Default()
	if *kbDir != "" {
		var err error
		if k, err = kb.Load(*kbDir); err != nil {
			fmt.Fprintf(stderr, "kbsync: %v\n", err)
			return 2
		}
	}
	s := &syncer{
		f: &fetcher{client: &http.Client{Timeout: *timeout}, cache: *cache, maxBody: *maxBody,
			ua: "envguard-kbsync (maintainer tool)", now: time.Now},
		cfg: config{PyPI: *pypi, PyTorchIndex: *whl, Variants: split(*variants), Conda: *conda, Subdir: *subdir,
			Packages: split(*pkgs), CondaPackages: split(*condaPkgs), Newest: *newest},
		kb: k,
	}
	p := s.run(context.Background())
	w := stdout
	var f *os.File
	if *out != "" {
		var err error
		if f, err = os.Create(*out); err != nil {
			fmt.Fprintf(stderr, "kbsync: %v\n", err)
			return 2
		}
		w = f
	}
	err := p.write(w)
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "kbsync: writing the proposal: %v\n", err)
		return 1
	}
	for _, e := range p.Errors {
		fmt.Fprintf(stderr, "kbsync: %s\n", e)
	}
	if len(p.Errors) > 0 {
		return 1
	}
	return 0
}

func split(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
