// Command bench measures envguard against its baselines and prints one
// table. Every row is a ratio of two timings taken in the same run,
// alternating, so that a shared machine's load hits both alike; each is
// repeated and reported as the median with its spread (min–max).
//
//	go run ./bench            # the table
//	go run ./bench --json     # the same rows for machines
//	go run ./bench --quick    # fewer rounds, files and requests (a smoke test)
//
// Rows and their baselines:
//   - parse, pipeline: envspec's reading and report.Validate over the
//     real-world corpus (../shared/corpus/realworld) against yaml.v3
//     decoding the same bytes into a yaml.Node;
//   - cli: `envguard validate` on a 15-line environment against
//     `actionlint` (installed at a fixed version by `go install`) on a
//     15-line workflow,
//     both as whole processes;
//   - files cold/warm: `envguard validate DIR` over the corpus copied until
//     it holds --files files, with an empty then a filled cache, against a
//     single-threaded yaml.v3 decode of the same files;
//   - service: `envguard serve` against a bare chi + yaml.v3 handler, both
//     separate processes on loopback, at concurrency 32 with the corpus's
//     bodies in turn; p99 and the service's RSS after --requests requests;
//   - memory per request: bytes allocated by report.Validate per corpus
//     file against the decode's;
//   - check: `envguard check` over a prefix (--prefix, else a synthetic
//     venv of 30 packages, 850 libraries and 30,000 .py files) with no
//     cache warm, cold (--drop-caches, as root), and a second run with the
//     cache filled; `envguard inspect` of one library; check's peak RSS.
//     The baseline is `python -m torch.utils.collect_env` where
//     --collect-env-python names a python with torch, else `find PREFIX
//     -type f` (one walk that stats every file); see docs/performance.md.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/internal/benchbase"
	"github.com/envguard/envguard/internal/cache"
	"github.com/envguard/envguard/lockfile"
	"github.com/envguard/envguard/report"
)

// Row is one line of the table.
type Row struct {
	Name     string  `json:"name"`
	Baseline string  `json:"baseline"`
	Goal     string  `json:"goal"`
	Median   float64 `json:"median"`
	Min      float64 `json:"min"`
	Max      float64 `json:"max"`
	Runs     int     `json:"runs"`
	Met      *bool   `json:"met,omitempty"`
	Detail   string  `json:"detail"`
	Skipped  string  `json:"skipped,omitempty"`
}

type config struct {
	rounds   int
	files    int
	requests int
	conc     int
	corpus   string
	only     string

	envguard, actionlint string

	prefix, library, collectEnvPython string
	dropCaches                        bool
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	asJSON := fs.Bool("json", false, "print the rows as JSON")
	jsonFile := fs.String("json-file", "", "also write the rows as JSON to `FILE`")
	quick := fs.Bool("quick", false, "3 rounds, 1,000 files, 10,000 requests: a smoke test, not a measurement")
	fs.IntVar(&c.rounds, "rounds", 5, "repetitions of each measurement")
	fs.IntVar(&c.files, "files", 10000, "files in the many-files rows")
	fs.IntVar(&c.requests, "requests", 100000, "requests to the service (the bare handler gets as many)")
	fs.IntVar(&c.conc, "c", 32, "concurrent clients in the service row")
	fs.StringVar(&c.corpus, "corpus", "", "directory of environment files (default ../shared/corpus/realworld beside the module)")
	fs.StringVar(&c.only, "only", "", "comma-separated rows to run (parse,pipeline,cli,files,service,memory,check)")
	fs.StringVar(&c.envguard, "envguard", "", "use this envguard `BINARY` rather than building ./cmd/envguard (a machine without Go)")
	fs.StringVar(&c.actionlint, "actionlint", "", "use this actionlint `BINARY` rather than installing actionlint "+actionlintVersion)
	fs.StringVar(&c.prefix, "prefix", "", "check rows: run `envguard check` over this prefix `DIR` (default: a synthetic venv generated in a temporary directory)")
	fs.StringVar(&c.library, "library", "", "check rows: the shared library `FILE` the inspect row reads (default: the prefix's largest library)")
	fs.StringVar(&c.collectEnvPython, "collect-env-python", "", "check rows: time `PYTHON` -m torch.utils.collect_env as the baseline (a python with torch)")
	fs.BoolVar(&c.dropCaches, "drop-caches", false, "check rows: add the cold row, emptying the page cache before each run (needs root: writes /proc/sys/vm/drop_caches)")
	bare := fs.String("serve-bare", "", "internal: serve the bare handler on `ADDR` (the service row's baseline process)")
	rssOf := fs.Bool("rss-of", false, "internal: run the command the other arguments give and print its peak RSS in KiB (the check row's, from a parent of its own)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *bare != "" {
		return serveBare(*bare, stderr)
	}
	if *rssOf {
		return rssChild(fs.Args(), stdout, stderr)
	}
	if *quick {
		c.rounds, c.files, c.requests = 3, 1000, 10000
	}
	if c.rounds < 1 || c.rounds > 100 || c.files < 1 || c.files > 200000 || c.requests < c.conc || c.requests > 10_000_000 || c.conc < 1 || c.conc > 1024 {
		fmt.Fprintln(stderr, "bench: want 1 <= --rounds <= 100, 1 <= --files <= 200000, --c <= --requests <= 10000000, 1 <= --c <= 1024")
		return 2
	}
	// The module root is needed to build envguard and to find the corpus;
	// with both given, Go need not be installed.
	root := ""
	if c.corpus == "" || c.envguard == "" {
		var err error
		if root, err = moduleRoot(); err != nil {
			fmt.Fprintf(stderr, "bench: %v\n", err)
			return 2
		}
	}
	if c.corpus == "" {
		c.corpus = filepath.Join(root, "..", "shared", "corpus", "realworld")
	}
	corpus, err := loadCorpus(c.corpus)
	if err != nil {
		fmt.Fprintf(stderr, "bench: corpus: %v\n", err)
		return 2
	}
	tmp, err := os.MkdirTemp("", "envguard-bench-")
	if err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return 2
	}
	defer os.RemoveAll(tmp)
	b := &bencher{cfg: c, root: root, tmp: tmp, corpus: corpus, log: stderr}
	for _, p := range []*string{&c.envguard, &c.actionlint} {
		if *p != "" {
			if *p, err = filepath.Abs(*p); err != nil {
				fmt.Fprintf(stderr, "bench: %v\n", err)
				return 2
			}
		}
	}
	b.envguard, b.actionlint = c.envguard, c.actionlint
	fmt.Fprintf(stderr, "bench: %d corpus files, %d rounds, GOMAXPROCS %d, %s\n", len(corpus), c.rounds, runtime.GOMAXPROCS(0), runtime.Version())

	steps := []struct {
		key string
		fn  func() []Row
	}{
		{"parse", b.parse},
		{"pipeline", b.pipeline},
		{"memory", b.memory},
		{"cli", b.cli},
		{"files", b.files},
		{"service", b.service},
		{"check", b.check},
	}
	var rows []Row
	for _, s := range steps {
		if c.only != "" && !slices.Contains(strings.Split(c.only, ","), s.key) {
			continue
		}
		fmt.Fprintf(stderr, "bench: %s ...\n", s.key)
		rows = append(rows, s.fn()...)
	}
	out, _ := json.MarshalIndent(struct {
		Machine string `json:"machine"`
		Rows    []Row  `json:"rows"`
	}{machine(), rows}, "", "  ")
	if *jsonFile != "" {
		if err := os.WriteFile(*jsonFile, append(out, '\n'), 0o644); err != nil {
			fmt.Fprintf(stderr, "bench: %v\n", err)
			return 1
		}
	}
	if *asJSON {
		fmt.Fprintf(stdout, "%s\n", out)
	} else {
		writeTable(stdout, rows)
	}
	return 0
}

type bencher struct {
	cfg    config
	root   string
	tmp    string
	corpus []file
	log    io.Writer

	envguard, actionlint string // built once
}

type file struct {
	name string
	src  []byte
}

func loadCorpus(dir string) ([]file, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var fs []file
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		fs = append(fs, file{e.Name(), src})
	}
	if len(fs) == 0 {
		return nil, fmt.Errorf("%s holds no files", dir)
	}
	return fs, nil
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("run from inside the envguard module")
	}
	return filepath.Dir(mod), nil
}

// ratios times a and b alternately, rounds times, and returns a/b each round.
func ratios(rounds int, a, b func() time.Duration) (rs []float64, as, bs []time.Duration) {
	for range rounds {
		tb := b()
		ta := a()
		rs = append(rs, float64(ta)/float64(tb))
		as = append(as, ta)
		bs = append(bs, tb)
	}
	return
}

func row(name, baseline, goal string, rs []float64, limit float64, detail string) Row {
	s := slices.Clone(rs)
	slices.Sort(s)
	r := Row{Name: name, Baseline: baseline, Goal: goal, Runs: len(s), Detail: detail,
		Median: median(s), Min: s[0], Max: s[len(s)-1]}
	if limit > 0 {
		met := r.Median <= limit
		r.Met = &met
	}
	return r
}

func median[T int64 | float64 | time.Duration](v []T) T {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// timeLoop runs f over the corpus until at least min has passed and
// returns the time for one pass.
func timeLoop(min time.Duration, f func()) time.Duration {
	n := 0
	start := time.Now()
	for n == 0 || time.Since(start) < min {
		f()
		n++
	}
	return time.Since(start) / time.Duration(n)
}

func (b *bencher) decodeAll() {
	for _, f := range b.corpus {
		var n yaml.Node
		_ = yaml.Unmarshal(f.src, &n)
	}
}

// parseOne reads one input as report.Validate does before judging it.
func parseOne(name string, src []byte) *envspec.Env {
	if k := lockfile.SniffFile(name, src); k != envspec.KindEnvFile && k != envspec.KindExplicit {
		return lockfile.Read(name, src, lockfile.Options{Platform: "linux-64"})
	}
	if lockfile.Sniff(src) == envspec.KindExplicit {
		return lockfile.ReadExplicitMax(name, src, 0)
	}
	return envspec.Parse(name, src, envspec.ParseOptions{Platform: "linux-64"})
}

func (b *bencher) parse() []Row {
	// Both sides warm up once (the knowledge base, the allocator).
	b.decodeAll()
	for _, f := range b.corpus {
		parseOne(f.name, f.src)
	}
	rs, as, bs := ratios(b.cfg.rounds,
		func() time.Duration {
			return timeLoop(300*time.Millisecond, func() {
				for _, f := range b.corpus {
					parseOne(f.name, f.src)
				}
			})
		},
		func() time.Duration { return timeLoop(300*time.Millisecond, b.decodeAll) })
	return []Row{row("parse (envspec)", "yaml.v3 decode", "≤ 2.0×", rs, 2.0,
		fmt.Sprintf("%v vs %v per corpus pass", median(as).Round(time.Microsecond), median(bs).Round(time.Microsecond)))}
}

func (b *bencher) pipeline() []Row {
	opt := report.Options{Platform: "linux-64"}
	for _, f := range b.corpus {
		report.Validate(f.name, f.src, opt)
	}
	rs, as, bs := ratios(b.cfg.rounds,
		func() time.Duration {
			return timeLoop(300*time.Millisecond, func() {
				for _, f := range b.corpus {
					report.Validate(f.name, f.src, opt)
				}
			})
		},
		func() time.Duration { return timeLoop(300*time.Millisecond, b.decodeAll) })
	return []Row{row("pipeline (report.Validate)", "yaml.v3 decode", "≤ 3.0×", rs, 3.0,
		fmt.Sprintf("%v vs %v per corpus pass", median(as).Round(time.Microsecond), median(bs).Round(time.Microsecond)))}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc
}

func (b *bencher) memory() []Row {
	opt := report.Options{Platform: "linux-64"}
	var rs []float64
	var va, da []float64
	for range b.cfg.rounds {
		v := allocated(func() {
			for _, f := range b.corpus {
				report.Validate(f.name, f.src, opt)
			}
		})
		d := allocated(b.decodeAll)
		rs = append(rs, float64(v)/float64(d))
		va = append(va, float64(v)/float64(len(b.corpus)))
		da = append(da, float64(d)/float64(len(b.corpus)))
	}
	return []Row{row("memory per request", "yaml.v3 decode", "report", rs, 0,
		fmt.Sprintf("%.0f KiB vs %.0f KiB allocated per file", median(va)/1024, median(da)/1024))}
}

func (b *bencher) build() error {
	if b.envguard == "" {
		eg := filepath.Join(b.tmp, "envguard")
		cmd := exec.Command("go", "build", "-o", eg, "./cmd/envguard")
		cmd.Dir, cmd.Stderr = b.root, b.log
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go build ./cmd/envguard: %v", err)
		}
		b.envguard = eg
	}
	if b.actionlint != "" {
		return nil
	}
	// actionlint is installed from its own module (its go.mod, not
	// envguard's: the two need different go.yaml.in/yaml/v4 versions), at
	// a fixed version, into the temporary directory.
	al := filepath.Join(b.tmp, "actionlint")
	cmd := exec.Command("go", "install", "github.com/rhysd/actionlint/cmd/actionlint@"+actionlintVersion)
	cmd.Dir, cmd.Stderr = b.tmp, b.log
	cmd.Env = append(os.Environ(), "GOBIN="+b.tmp, "GOFLAGS=")
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go install actionlint@%s: %v", actionlintVersion, err)
	}
	b.actionlint = al
	return nil
}

// actionlintVersion is the baseline of the cli row.
const actionlintVersion = "v1.7.12"

const env15 = `name: pt21
channels:
  - pytorch
  - nvidia
  - conda-forge
dependencies:
  - python=3.10
  - pytorch=2.1.0
  - pytorch-cuda=11.8
  - torchvision=0.16.0
  - numpy=1.26
  - pip
  - pip:
      - transformers==4.35.0
      - accelerate==0.24.1
`

const workflow15 = `name: ci
on:
  push:
    branches: [main]
  pull_request:
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
        with:
          go-version: "1.22"
      - run: go vet ./...
      - run: go test ./...
`

// runProc times one whole process; its exit status is not judged (findings
// exit 1) but it must have run.
func runProc(dir string, envv []string, name string, args ...string) (time.Duration, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = envv
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	t0 := time.Now()
	err := cmd.Run()
	d := time.Since(t0)
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 {
		err = nil
	}
	return d, err
}

func (b *bencher) cli() []Row {
	if err := b.build(); err != nil {
		return []Row{{Name: "cli, one 15-line file", Skipped: err.Error()}}
	}
	dir := filepath.Join(b.tmp, "cli")
	_ = os.MkdirAll(filepath.Join(dir, ".github", "workflows"), 0o755)
	_ = os.WriteFile(filepath.Join(dir, "environment.yml"), []byte(env15), 0o644)
	_ = os.WriteFile(filepath.Join(dir, ".github", "workflows", "ci.yml"), []byte(workflow15), 0o644)
	// A cache directory of its own, emptied before every run: one file
	// validated cold, as a first run on a CI machine.
	cache := filepath.Join(b.tmp, "cli-cache")
	envv := append(os.Environ(), "XDG_CACHE_HOME="+cache)
	const per = 15
	var failed error
	measure := func(name string, args ...string) func() time.Duration {
		return func() time.Duration {
			var ds []time.Duration
			for range per {
				_ = os.RemoveAll(cache)
				d, err := runProc(dir, envv, name, args...)
				if err != nil && failed == nil {
					failed = fmt.Errorf("%s: %v", filepath.Base(name), err)
				}
				ds = append(ds, d)
			}
			return median(ds)
		}
	}
	rs, as, bs := ratios(b.cfg.rounds,
		measure(b.envguard, "validate", "environment.yml"),
		measure(b.actionlint, "-no-color", ".github/workflows/ci.yml"))
	if failed != nil {
		return []Row{{Name: "cli, one 15-line file", Skipped: failed.Error()}}
	}
	r := row("cli, one 15-line file", "actionlint, 15-line workflow", "≤ 2.0× and ≤ 15 ms", rs, 2.0,
		fmt.Sprintf("%.1f ms vs %.1f ms per process (median of %d each round)", ms(median(as)), ms(median(bs)), per))
	if r.Met != nil && ms(median(as)) > 15 {
		f := false
		r.Met = &f
	}
	return []Row{r}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// files copies the corpus under a tree until it holds cfg.files files,
// each named as `envguard validate DIR` finds it.
func (b *bencher) files() []Row {
	if err := b.build(); err != nil {
		return []Row{{Name: "many files", Skipped: err.Error()}}
	}
	dir := filepath.Join(b.tmp, "mono")
	var paths []string
	for i := 0; len(paths) < b.cfg.files; i++ {
		f := b.corpus[i%len(b.corpus)]
		sub := filepath.Join(dir, fmt.Sprintf("proj%03d", i/len(b.corpus)), strings.TrimSuffix(f.name, filepath.Ext(f.name)))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return []Row{{Name: "many files", Skipped: err.Error()}}
		}
		p := filepath.Join(sub, "environment.yml")
		if err := os.WriteFile(p, f.src, 0o644); err != nil {
			return []Row{{Name: "many files", Skipped: err.Error()}}
		}
		paths = append(paths, p)
	}
	// A re-run over a checkout meets files written long before; envguard
	// trusts a time only once it is cache.RacyWindow older than its
	// manifest, so a tree written a moment before the first cold run
	// would have its files hashed again by the warm one. Let the times
	// settle, as a checkout's have.
	time.Sleep(cache.RacyWindow)
	decode := func() time.Duration {
		t0 := time.Now()
		for _, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			var n yaml.Node
			_ = yaml.Unmarshal(src, &n)
		}
		return time.Since(t0)
	}
	cacheHome := filepath.Join(b.tmp, "files-cache")
	envv := append(os.Environ(), "XDG_CACHE_HOME="+cacheHome)
	var cold, warm, base []time.Duration
	var rc, rw []float64
	var failed error
	for range b.cfg.rounds {
		d := decode()
		_ = os.RemoveAll(cacheHome)
		c, err := runProc(b.tmp, envv, b.envguard, "validate", dir)
		if err != nil {
			failed = err
		}
		w, err := runProc(b.tmp, envv, b.envguard, "validate", dir)
		if err != nil {
			failed = err
		}
		cold, warm, base = append(cold, c), append(warm, w), append(base, d)
		rc, rw = append(rc, float64(c)/float64(d)), append(rw, float64(w)/float64(d))
	}
	if failed != nil {
		return []Row{{Name: "many files", Skipped: "envguard validate DIR: " + failed.Error()}}
	}
	n := len(paths)
	return []Row{
		row(fmt.Sprintf("%d files, cold cache", n), "yaml.v3 decode, 1 thread", "≤ 1.5×", rc, 1.5,
			fmt.Sprintf("%.0f ms vs %.0f ms; %d CPUs", ms(median(cold)), ms(median(base)), runtime.NumCPU())),
		row(fmt.Sprintf("%d files, warm cache", n), "yaml.v3 decode, 1 thread", "≤ 0.15×", rw, 0.15,
			fmt.Sprintf("%.0f ms vs %.0f ms", ms(median(warm)), ms(median(base)))),
	}
}

// serveBare is the service row's baseline process: chi and a yaml.v3
// decode of the body, the least a YAML service does.
func serveBare(addr string, stderr io.Writer) int {
	srv := &http.Server{Addr: addr, Handler: benchbase.Handler(), ReadHeaderTimeout: 5 * time.Second}
	if err := srv.ListenAndServe(); err != nil {
		fmt.Fprintf(stderr, "bench: bare server: %v\n", err)
		return 1
	}
	return 0
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// server is a process answering on addr.
type server struct {
	name string
	addr string
	cmd  *exec.Cmd
}

func startServer(name string, cmd *exec.Cmd, addr string) (*server, error) {
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{name: name, addr: addr, cmd: cmd}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return s, nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.stop()
	return nil, fmt.Errorf("%s did not answer /healthz on %s within 30 s", name, addr)
}

func (s *server) stop() {
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
}

// rss reads the server's resident set from /proc.
func (s *server) rss() (int64, error) {
	st, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(st), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb * 1024, err
		}
	}
	return 0, errors.New("no VmRSS")
}

// hammer sends n requests from c clients, the corpus's bodies in turn. A
// body that is not YAML at all is a 400 from both servers alike: an answer,
// not an error of the run.
func (b *bencher) hammer(client *http.Client, addr string, n, c int) benchbase.Load {
	return benchbase.Hammer(client, "http://"+addr+"/v1/validate", c, n, time.Time{},
		func(i int) []byte { return b.corpus[i%len(b.corpus)].src },
		func(status int) bool { return status == 200 || status == 400 })
}

func (b *bencher) service() []Row {
	if err := b.build(); err != nil {
		return []Row{{Name: "service", Skipped: err.Error()}}
	}
	self, err := os.Executable()
	if err != nil {
		return []Row{{Name: "service", Skipped: err.Error()}}
	}
	ea, err1 := freeAddr()
	ba, err2 := freeAddr()
	if err := errors.Join(err1, err2); err != nil {
		return []Row{{Name: "service", Skipped: err.Error()}}
	}
	conc := strconv.Itoa(b.cfg.conc)
	// Every client here is 127.0.0.1: one client, as behind a proxy, which
	// may have every slot.
	eg, err := startServer("envguard serve", exec.Command(b.envguard, "serve", "--addr", ea, "--max-concurrent", conc, "--client-share", conc), ea)
	if err != nil {
		return []Row{{Name: "service", Skipped: err.Error()}}
	}
	defer eg.stop()
	bare, err := startServer("bare handler", exec.Command(self, "--serve-bare", ba), ba)
	if err != nil {
		return []Row{{Name: "service", Skipped: err.Error()}}
	}
	defer bare.stop()
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		Proxy: nil, MaxIdleConns: b.cfg.conc, MaxIdleConnsPerHost: b.cfg.conc, DisableCompression: true}}
	// Warm-up, not measured.
	b.hammer(client, ea, min(2000, b.cfg.requests), b.cfg.conc)
	b.hammer(client, ba, min(2000, b.cfg.requests), b.cfg.conc)
	per := b.cfg.requests / b.cfg.rounds
	var rs []float64
	var lat []time.Duration
	var rates, bareRates []float64
	errs := 0
	kinds := map[string]int{}
	for range b.cfg.rounds {
		lb := b.hammer(client, ba, per, b.cfg.conc)
		le := b.hammer(client, ea, per, b.cfg.conc)
		re, rb := le.Rate(), lb.Rate()
		// Throughput ratio: higher is better, so the goal is a floor.
		rs = append(rs, re/rb)
		rates, bareRates = append(rates, re), append(bareRates, rb)
		lat = append(lat, le.Lat...)
		errs += le.ErrorCount() + lb.ErrorCount()
		for _, l := range []benchbase.Load{le, lb} {
			for k, v := range l.Errors {
				kinds[k] += v
			}
		}
	}
	slices.Sort(lat)
	p99 := lat[min(len(lat)-1, len(lat)*99/100)]
	rss, rerr := eg.rss()
	r := row(fmt.Sprintf("service, c=%d, varied bodies", b.cfg.conc), "bare chi + yaml.v3 handler", "≥ 0.6× throughput", rs, 0,
		fmt.Sprintf("%.0f vs %.0f req/s; p99 %.1f ms; %d errors%s", median(rates), median(bareRates), ms(p99), errs, kindText(kinds)))
	met := r.Median >= 0.6 && errs == 0
	r.Met = &met
	rssRow := Row{Name: fmt.Sprintf("service RSS after %d requests", per*b.cfg.rounds+min(2000, b.cfg.requests)), Goal: "≤ 50 MiB", Runs: 1}
	if rerr != nil {
		rssRow.Skipped = "no /proc: " + rerr.Error()
	} else {
		mib := float64(rss) / (1 << 20)
		rssRow.Median, rssRow.Min, rssRow.Max = mib, mib, mib
		rssRow.Detail = fmt.Sprintf("%.1f MiB resident (a value, not a ratio)", mib)
		m := mib <= 50
		rssRow.Met = &m
	}
	return []Row{r, rssRow}
}

func machine() string {
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "model name"); ok {
				cpu = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				break
			}
		}
	}
	return fmt.Sprintf("%d CPUs (%s), %s %s/%s", runtime.NumCPU(), cpu, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func writeTable(w io.Writer, rows []Row) {
	fmt.Fprintf(w, "machine: %s\n\n", machine())
	fmt.Fprintf(w, "| %-34s | %-30s | %-20s | %-8s | %-15s | %-4s | %s\n", "row", "baseline", "goal", "median", "spread", "met", "detail")
	fmt.Fprintf(w, "|%s|%s|%s|%s|%s|%s|%s\n", strings.Repeat("-", 36), strings.Repeat("-", 32), strings.Repeat("-", 22), strings.Repeat("-", 10), strings.Repeat("-", 17), strings.Repeat("-", 6), "---")
	for _, r := range rows {
		if r.Skipped != "" {
			fmt.Fprintf(w, "| %-34s | %-30s | %-20s | %-8s | %-15s | %-4s | skipped: %s\n", r.Name, r.Baseline, r.Goal, "-", "-", "-", r.Skipped)
			continue
		}
		met := "-"
		if r.Met != nil {
			met = map[bool]string{true: "yes", false: "no"}[*r.Met]
		}
		unit := "×"
		switch {
		case strings.Contains(r.Name, "RSS"):
			unit = " MiB"
		case strings.HasSuffix(r.Name, "(ms)"):
			unit = " ms"
		}
		fmt.Fprintf(w, "| %-34s | %-30s | %-20s | %-8s | %-15s | %-4s | %s (%d runs)\n", r.Name, r.Baseline, r.Goal,
			fmt.Sprintf("%.2f%s", r.Median, unit), fmt.Sprintf("%.2f–%.2f", r.Min, r.Max), met, r.Detail, r.Runs)
	}
}

func kindText(kinds map[string]int) string {
	var parts []string
	for k, v := range kinds {
		parts = append(parts, fmt.Sprintf("%s×%d", k, v))
	}
	slices.Sort(parts)
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
