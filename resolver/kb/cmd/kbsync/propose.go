package main

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/envguard/envguard/resolver/kb"
	"gopkg.in/yaml.v3"
)

// config is where kbsync reads from and what.
type config struct {
	PyPI          string   // simple API root, ".../simple/"
	PyTorchIndex  string   // wheel index root, ".../whl/"
	Variants      []string // wheel index variants: cpu, cu126 …
	Conda         string   // channel root, ".../conda-forge/"
	Subdir        string   // linux-64
	Packages      []string // index projects
	CondaPackages []string
	// Newest is how many of each project's newest releases get rows.
	Newest int
}

// proposal is kbsync's output: rows shaped to the KB's tables, for a
// person to review and merge. Nothing here is written into data/.
type proposal struct {
	Read string `yaml:"read"`
	// IndexReleases are index_releases rows the KB lacks or holds with
	// other values.
	IndexReleases []kb.IndexRelease `yaml:"index_releases,omitempty"`
	// WheelPythonBuilds are torch_python_builds rows (dist: wheel) as the
	// wheel index lists them: the complete Python list per release and
	// CUDA variant.
	WheelPythonBuilds []kb.TorchPythonBuilds `yaml:"torch_python_builds,omitempty"`
	// CondaForge are conda-forge's builds of the conda packages, newest
	// releases only, with each record's CUDA constraints.
	CondaForge []condaRow `yaml:"conda_forge_builds,omitempty"`
	// Errors are what could not be read; the rows above stand without
	// them.
	Errors []string `yaml:"errors,omitempty"`
}

type condaRow struct {
	Name     string   `yaml:"name"`
	Version  string   `yaml:"version"`
	Build    string   `yaml:"build"`
	CUDA     []string `yaml:"cuda,omitempty"` // depends/constrains on cuda-version, cudatoolkit, cuda-*
	Uploaded string   `yaml:"uploaded,omitempty"`
	File     string   `yaml:"file"`
	SHA256   string   `yaml:"sha256,omitempty"` // the package file's, from the shard
	URL      string   `yaml:"url"`              // the shard's
	ShardSHA string   `yaml:"shard_sha256"`     // the shard response's
	Source   string   `yaml:"source"`
}

type syncer struct {
	f   *fetcher
	cfg config
	kb  *kb.KB // existing rows; nil proposes every row
}

func (s *syncer) run(ctx context.Context) *proposal {
	p := &proposal{Read: s.f.now().UTC().Format("2006-01-02")}
	for _, name := range s.cfg.Packages {
		rows, err := s.indexReleases(ctx, name, p.Read)
		if err != nil {
			p.Errors = append(p.Errors, err.Error())
		}
		p.IndexReleases = append(p.IndexReleases, rows...)
	}
	if s.cfg.PyTorchIndex != "" {
		rows, errs := s.wheelIndex(ctx, p.Read)
		p.WheelPythonBuilds = rows
		p.Errors = append(p.Errors, errs...)
	}
	if s.cfg.Conda != "" && len(s.cfg.CondaPackages) > 0 {
		rows, err := s.condaForge(ctx)
		if err != nil {
			p.Errors = append(p.Errors, err.Error())
		}
		p.CondaForge = rows
	}
	return p
}

func joinURL(base string, elem ...string) string {
	u := strings.TrimSuffix(base, "/")
	for _, e := range elem {
		u += "/" + strings.Trim(e, "/")
	}
	return u + "/"
}

// indexReleases reads one project's JSON page and, for its newest
// releases, the Linux x86_64 wheel's metadata.
func (s *syncer) indexReleases(ctx context.Context, name, read string) ([]kb.IndexRelease, error) {
	norm := normalize(name)
	url := joinURL(s.cfg.PyPI, norm)
	resp, err := s.f.get(ctx, url, simpleJSON)
	if err != nil {
		return nil, err
	}
	if mt := mediaType(resp.ContentType); mt != simpleJSON {
		return nil, fmt.Errorf("GET %s: content type %q, want %s (PEP 691)", url, resp.ContentType, simpleJSON)
	}
	proj, err := parseSimpleJSON(resp.Body, url)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", url, err)
	}
	byVer := map[string][]file{}
	for _, f := range proj.Files {
		if f.Yanked {
			continue
		}
		v, _, _, ok := wheelTags(f.Filename)
		if !ok {
			if v, ok = sdistVersion(f.Filename, norm); !ok {
				continue
			}
		}
		v, _, _ = strings.Cut(v, "+")
		byVer[v] = append(byVer[v], f)
	}
	versions := proj.Versions
	if versions == nil {
		for v := range byVer {
			versions = append(versions, v)
		}
	}
	versions = finalReleases(versions)
	if len(versions) > s.cfg.Newest {
		versions = versions[len(versions)-s.cfg.Newest:]
	}
	var out []kb.IndexRelease
	var errs []string
	for _, v := range versions {
		files := byVer[v]
		if len(files) == 0 {
			continue
		}
		r := kb.IndexRelease{Package: norm, Version: v, URL: url, SHA256: resp.SHA256, Read: read,
			Source: "KBSYNC_INDEX (PEP 691 project page; sha256 of the response)"}
		r.RequiresPython, r.Python, r.Platforms, r.Uploaded = summarize(files)
		if w := linuxWheel(files); w != nil && w.HasMetadata {
			pins, note, err := s.pins(ctx, norm, w)
			if err != nil {
				errs = append(errs, err.Error())
			} else {
				r.CUDAPins, r.Note = pins, note
			}
		}
		if s.kb != nil {
			if old, ok := s.kb.IndexRelease(norm, v); ok && sameRow(old, &r) {
				continue
			}
		}
		out = append(out, r)
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return out, nil
}

// pins reads a wheel's PEP 658 metadata, checks it against the hash the
// page gave, and returns the CUDA wheels it pins (and torch, for the
// extensions that pin it).
func (s *syncer) pins(ctx context.Context, norm string, w *file) ([]string, string, error) {
	murl := w.URL + ".metadata"
	resp, err := s.f.get(ctx, murl, "")
	if err != nil {
		return nil, "", err
	}
	if w.MetadataSHA256 != "" && resp.SHA256 != w.MetadataSHA256 {
		return nil, "", fmt.Errorf("GET %s: sha256 %s, the page says %s", murl, resp.SHA256, w.MetadataSHA256)
	}
	m, err := parseMetadata(resp.Body)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", murl, err)
	}
	pins := cudaPins(m.RequiresDist)
	if norm != "torch" {
		pins = append(pins, pinsOf(m.RequiresDist, "torch")...)
	}
	note := fmt.Sprintf("pins from %s (sha256 %s)", murl, resp.SHA256)
	return pins, note, nil
}

func sameRow(a, b *kb.IndexRelease) bool {
	return a.RequiresPython == b.RequiresPython && a.Uploaded == b.Uploaded &&
		strings.Join(a.Python, ",") == strings.Join(b.Python, ",") &&
		strings.Join(a.Platforms, ",") == strings.Join(b.Platforms, ",") &&
		strings.Join(a.CUDAPins, "\n") == strings.Join(b.CUDAPins, "\n")
}

var finalRe = regexp.MustCompile(`^\d+(\.\d+)*(\.post\d+)?$`)

// finalReleases keeps final releases (no a/b/rc/dev), oldest first.
func finalReleases(vs []string) []string {
	var out []string
	for _, v := range vs {
		if finalRe.MatchString(v) {
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		c, _ := kb.CompareDotted(strings.Split(out[i], ".post")[0], strings.Split(out[j], ".post")[0])
		if c == 0 {
			return out[i] < out[j]
		}
		return c < 0
	})
	return out
}

// summarize gives a release's Requires-Python (the wheels' value; "" when
// files disagree or none says), its tags and its earliest upload date.
func summarize(files []file) (reqPy string, python, platforms []string, uploaded string) {
	rp := map[string]bool{}
	py, plat := map[string]bool{}, map[string]bool{}
	for _, f := range files {
		if f.RequiresPython != "" {
			rp[f.RequiresPython] = true
		}
		if _, p, pl, ok := wheelTags(f.Filename); ok {
			for _, t := range p {
				py[t] = true
			}
			for _, t := range pl {
				plat[t] = true
			}
		}
		if t, err := time.Parse(time.RFC3339, f.UploadTime); err == nil {
			d := t.UTC().Format("2006-01-02")
			if uploaded == "" || d < uploaded {
				uploaded = d
			}
		}
	}
	if len(rp) == 1 {
		for k := range rp {
			reqPy = k
		}
	}
	return reqPy, sortedKeys(py), sortedKeys(plat), uploaded
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// linuxWheel picks the Linux x86_64 wheel whose metadata carries the CUDA
// pins (the newest CPython tag, so markers for it are in force).
func linuxWheel(files []file) *file {
	var best *file
	bestPy := ""
	for i := range files {
		_, py, plats, ok := wheelTags(files[i].Filename)
		if !ok {
			continue
		}
		linux := false
		for _, p := range plats {
			if strings.Contains(p, "linux") && strings.HasSuffix(p, "x86_64") {
				linux = true
			}
		}
		if !linux {
			continue
		}
		if best == nil || py[len(py)-1] > bestPy {
			best, bestPy = &files[i], py[len(py)-1]
		}
	}
	return best
}

var (
	cpTag     = regexp.MustCompile(`^cp(\d)(\d+)t?$`)
	cuVariant = regexp.MustCompile(`^cu(\d+?)(\d)$`)
)

// wheelIndex reads torch's page on each variant of the PyTorch wheel index
// (PEP 503 HTML) and proposes torch_python_builds rows: per release and
// CUDA variant, the complete list of CPython minors with a Linux wheel.
func (s *syncer) wheelIndex(ctx context.Context, read string) ([]kb.TorchPythonBuilds, []string) {
	var out []kb.TorchPythonBuilds
	var errs []string
	for _, variant := range s.cfg.Variants {
		cuda := ""
		if m := cuVariant.FindStringSubmatch(variant); m != nil {
			cuda = m[1] + "." + m[2]
		} else if variant != "cpu" {
			errs = append(errs, fmt.Sprintf("variant %q is neither cpu nor cuXYZ", variant))
			continue
		}
		url := joinURL(s.cfg.PyTorchIndex, variant, "torch")
		resp, err := s.f.get(ctx, url, "text/html")
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		proj, err := parseSimpleHTML(resp.Body, url, "torch")
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", url, err))
			continue
		}
		minors := map[string]map[string]bool{}
		for _, f := range proj.Files {
			v, py, plats, ok := wheelTags(f.Filename)
			// The KB's rows speak for Linux x86_64.
			if pl := strings.Join(plats, "."); !ok || !strings.Contains(pl, "linux") || !strings.Contains(pl, "x86_64") {
				continue
			}
			v, _, _ = strings.Cut(v, "+")
			if !finalRe.MatchString(v) {
				continue
			}
			for _, t := range py {
				if m := cpTag.FindStringSubmatch(t); m != nil {
					if minors[v] == nil {
						minors[v] = map[string]bool{}
					}
					minors[v][m[1]+"."+m[2]] = true
				}
			}
		}
		var vs []string
		for v := range minors {
			vs = append(vs, v)
		}
		vs = finalReleases(vs)
		if len(vs) > s.cfg.Newest {
			vs = vs[len(vs)-s.cfg.Newest:]
		}
		for _, v := range vs {
			py := sortedKeys(minors[v])
			sort.Slice(py, func(i, j int) bool { c, _ := kb.CompareDotted(py[i], py[j]); return c < 0 })
			row := kb.TorchPythonBuilds{Torch: v, Dist: kb.DistWheel, Python: py,
				Source: "KBSYNC_WHEEL_INDEX", Note: fmt.Sprintf("%s (sha256 %s, read %s)", url, resp.SHA256, read)}
			if cuda != "" {
				row.CUDA = []string{cuda}
			}
			out = append(out, row)
		}
	}
	return out, errs
}

// condaForge reads the channel's shard index and each package's shard,
// and proposes the newest releases' builds with their CUDA constraints.
func (s *syncer) condaForge(ctx context.Context) ([]condaRow, error) {
	iurl := strings.TrimSuffix(s.cfg.Conda, "/") + "/" + s.cfg.Subdir + "/repodata_shards.msgpack.zst"
	resp, err := s.f.get(ctx, iurl, "")
	if err != nil {
		return nil, err
	}
	idx, err := parseShardIndex(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", iurl, err)
	}
	var out []condaRow
	var errs []string
	for _, name := range s.cfg.CondaPackages {
		surl, ok, err := idx.shardURL(iurl, name)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		if !ok {
			errs = append(errs, fmt.Sprintf("%s: no shard for %s", iurl, name))
			continue
		}
		sresp, err := s.f.get(ctx, surl, "")
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		// The index names each shard by its sha256: a mismatch is a
		// corrupt or substituted shard.
		if want := fmt.Sprintf("%x", idx.Shards[name]); sresp.SHA256 != want {
			errs = append(errs, fmt.Sprintf("GET %s: sha256 %s, the shard index says %s", surl, sresp.SHA256, want))
			continue
		}
		recs, err := parseShard(sresp.Body)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", surl, err))
			continue
		}
		vers := map[string]bool{}
		for _, r := range recs {
			vers[r.Version] = true
		}
		keep := finalReleases(sortedKeys(vers))
		if len(keep) > s.cfg.Newest {
			keep = keep[len(keep)-s.cfg.Newest:]
		}
		for _, r := range recs {
			if !contains(keep, r.Version) {
				continue
			}
			row := condaRow{Name: r.Name, Version: r.Version, Build: r.Build, File: r.Filename, SHA256: r.sha256Hex(),
				URL: surl, ShardSHA: sresp.SHA256, Source: "KBSYNC_CONDA_SHARDS (CEP 16 shard)"}
			for _, d := range append(append([]string{}, r.Depends...), r.Constrains...) {
				n := strings.Fields(d)
				if len(n) > 0 && (n[0] == "cuda-version" || n[0] == "cudatoolkit" || strings.HasPrefix(n[0], "cuda-") || n[0] == "cudnn" || n[0] == "nccl") {
					row.CUDA = append(row.CUDA, d)
				}
			}
			if r.Timestamp > 0 {
				ts := r.Timestamp
				if ts < 1e11 { // seconds, as some old records have
					ts *= 1000
				}
				row.Uploaded = time.UnixMilli(ts).UTC().Format("2006-01-02")
			}
			out = append(out, row)
		}
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return out, nil
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// write prints the proposal as YAML, headed by what it is.
func (p *proposal) write(w io.Writer) error {
	fmt.Fprintf(w, "# kbsync proposal, read %s: rows for review, not yet in resolver/kb/data.\n", p.Read)
	fmt.Fprintf(w, "# Merge by hand: index_releases into data/index-releases.yaml, torch_python_builds into\n")
	fmt.Fprintf(w, "# data/torch-python-builds.yaml; conda_forge_builds are evidence for torch-conda-forge.yaml.\n")
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(p); err != nil {
		return err
	}
	return enc.Close()
}
