package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/vmihailenco/msgpack/v5"
	"gopkg.in/yaml.v3"
)

func hexSum(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func zstdBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	return enc.EncodeAll(b, nil)
}

func msgpackBytes(t testing.TB, v any) []byte {
	t.Helper()
	b, err := msgpack.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// condaShard is a CEP 16 shard for pytorch: two builds of 2.9.1 (one CUDA,
// one CPU) in packages.conda, with sha256 as raw bytes.
func condaShard(t testing.TB) []byte {
	sum, _ := hex.DecodeString(strings.Repeat("9a", 32))
	return zstdBytes(t, msgpackBytes(t, map[string]any{
		"packages": map[string]any{},
		"packages.conda": map[string]any{
			"pytorch-2.9.1-cuda129_mkl_py312_h1234567_300.conda": map[string]any{
				"name": "pytorch", "version": "2.9.1", "build": "cuda129_mkl_py312_h1234567_300", "build_number": 300,
				"depends":    []string{"python >=3.12,<3.13.0a0", "cuda-version >=12.9,<13", "libcudnn >=9.10,<10.0a0", "nccl >=2.27.7.1,<3.0a0"},
				"constrains": []string{"pytorch-gpu 2.9.1"}, "subdir": "linux-64", "timestamp": int64(1762300000000), "sha256": sum,
			},
			"pytorch-2.9.1-cpu_mkl_py312_h7654321_100.conda": map[string]any{
				"name": "pytorch", "version": "2.9.1", "build": "cpu_mkl_py312_h7654321_100", "build_number": 100,
				"depends": []string{"python >=3.12,<3.13.0a0"}, "subdir": "linux-64", "timestamp": int64(1762300000), "sha256": sum,
			},
		},
		"removed": []string{},
	}))
}

func shardIndexBytes(t testing.TB, shards map[string][]byte) []byte {
	return zstdBytes(t, msgpackBytes(t, map[string]any{
		"version": 1,
		"info":    map[string]any{"base_url": "./", "shards_base_url": "./shards/", "subdir": "linux-64"},
		"shards":  shards,
	}))
}

// server serves the fixtures as the real services do: content types,
// strong ETags answered with 304 on If-None-Match, gzip where asked.
type server struct {
	*httptest.Server
	mu       sync.Mutex
	notMod   int
	requests []string
	files    map[string]served
}

type served struct {
	ct   string
	body []byte
}

func newServer(t *testing.T) *server {
	s := &server{files: map[string]served{}}
	meta := readFixture(t, "torch-2.15.0.METADATA")
	page := strings.ReplaceAll(string(readFixture(t, "torch.json")), "{{META_SHA}}", hexSum(meta))
	s.files["/simple/torch/"] = served{simpleJSON, []byte(page)}
	s.files["/files/torch-2.15.0-cp314-cp314-manylinux_2_28_x86_64.whl.metadata"] = served{"binary/octet-stream", meta}
	s.files["/whl/cu128/torch/"] = served{"text/html; charset=utf-8", readFixture(t, "whl-cu128-torch.html")}
	shard := condaShard(t)
	sum := sha256.Sum256(shard)
	s.files["/conda-forge/linux-64/repodata_shards.msgpack.zst"] = served{"application/octet-stream", shardIndexBytes(t, map[string][]byte{"pytorch": sum[:]})}
	s.files["/conda-forge/linux-64/shards/"+hex.EncodeToString(sum[:])+".msgpack.zst"] = served{"application/octet-stream", shard}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r.URL.Path)
	f, ok := s.files[r.URL.Path]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	etag := `"` + hexSum(f.body)[:16] + `"`
	w.Header().Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		s.mu.Lock()
		s.notMod++
		s.mu.Unlock()
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", f.ct)
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") && strings.HasPrefix(f.ct, "application/vnd.pypi") {
		w.Header().Set("Content-Encoding", "gzip")
		gz := gzip.NewWriter(w)
		gz.Write(f.body)
		gz.Close()
		return
	}
	w.Write(f.body)
}

func testSyncer(s *server, cache string) *syncer {
	return &syncer{
		f: &fetcher{client: s.Client(), cache: cache, maxBody: 1 << 20,
			now: func() time.Time { return time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC) }},
		cfg: config{PyPI: s.URL + "/simple/", PyTorchIndex: s.URL + "/whl/", Variants: []string{"cu128"},
			Conda: s.URL + "/conda-forge/", Subdir: "linux-64", Packages: []string{"Torch"}, CondaPackages: []string{"pytorch"}, Newest: 1},
	}
}

func TestSyncProposesCitedRows(t *testing.T) {
	s := newServer(t)
	p := testSyncer(s, "").run(context.Background())
	if len(p.Errors) > 0 {
		t.Fatalf("errors: %q", p.Errors)
	}
	if len(p.IndexReleases) != 1 {
		t.Fatalf("want one index row (newest final release), got %+v", p.IndexReleases)
	}
	r := p.IndexReleases[0]
	page := s.files["/simple/torch/"].body
	if r.Package != "torch" || r.Version != "2.15.0" || r.RequiresPython != ">=3.10" || r.Uploaded != "2026-10-14" ||
		r.Read != "2026-12-02" || r.URL != s.URL+"/simple/torch/" || r.SHA256 != hexSum(page) {
		t.Errorf("row %+v", r)
	}
	if got := strings.Join(r.Python, ","); got != "cp310,cp314" {
		t.Errorf("python tags %q", got)
	}
	if got := strings.Join(r.Platforms, ","); got != "macosx_14_0_arm64,manylinux_2_28_x86_64" {
		t.Errorf("platforms %q", got)
	}
	wantPins := []string{`nvidia-cuda-runtime-cu12==12.8.90; platform_system == "Linux"`, `nvidia-cudnn-cu12==9.10.2.21; platform_system == "Linux"`,
		`nvidia-nccl-cu12==2.27.5; platform_system == "Linux"`}
	if strings.Join(r.CUDAPins, "|") != strings.Join(wantPins, "|") {
		t.Errorf("pins %q", r.CUDAPins)
	}
	if !strings.Contains(r.Note, hexSum(s.files["/files/torch-2.15.0-cp314-cp314-manylinux_2_28_x86_64.whl.metadata"].body)) {
		t.Errorf("note does not cite the metadata's sha256: %q", r.Note)
	}

	if len(p.WheelPythonBuilds) != 1 {
		t.Fatalf("wheel rows %+v", p.WheelPythonBuilds)
	}
	w := p.WheelPythonBuilds[0]
	if w.Torch != "2.15.0" || w.Dist != "wheel" || strings.Join(w.CUDA, ",") != "12.8" || strings.Join(w.Python, ",") != "3.10,3.14" {
		t.Errorf("wheel row %+v (Windows and aarch64 wheels do not count)", w)
	}

	if len(p.CondaForge) != 2 {
		t.Fatalf("conda rows %+v", p.CondaForge)
	}
	c := p.CondaForge[1] // sorted by filename: cpu first, cuda second
	if c.Build != "cuda129_mkl_py312_h1234567_300" || strings.Join(c.CUDA, "|") != "cuda-version >=12.9,<13|nccl >=2.27.7.1,<3.0a0" ||
		c.SHA256 != strings.Repeat("9a", 32) || c.Uploaded != "2025-11-04" || !strings.HasSuffix(c.URL, ".msgpack.zst") {
		t.Errorf("conda row %+v", c)
	}
	if p.CondaForge[0].Uploaded != "2025-11-04" {
		t.Errorf("a timestamp in seconds reads as the same day: %+v", p.CondaForge[0])
	}

	// The proposal is YAML that reads back to the same rows.
	var buf bytes.Buffer
	if err := p.write(&buf); err != nil {
		t.Fatal(err)
	}
	var back proposal
	if err := yaml.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if len(back.IndexReleases) != 1 || back.IndexReleases[0].SHA256 != r.SHA256 {
		t.Errorf("round trip lost rows:\n%s", buf.String())
	}
}

// A second run with the cache sends If-None-Match, every answer is 304,
// and the proposal is the same.
func TestSyncRevalidatesWithETags(t *testing.T) {
	s := newServer(t)
	cache := t.TempDir()
	first := testSyncer(s, cache).run(context.Background())
	n := len(s.requests)
	if s.notMod != 0 {
		t.Fatalf("first run got %d 304s", s.notMod)
	}
	second := testSyncer(s, cache).run(context.Background())
	if s.notMod != len(s.requests)-n {
		t.Errorf("second run: %d of %d requests answered 304", s.notMod, len(s.requests)-n)
	}
	a, _ := yaml.Marshal(first)
	b, _ := yaml.Marshal(second)
	if !bytes.Equal(a, b) {
		t.Errorf("proposals differ:\n%s\n---\n%s", a, b)
	}
}

func TestSyncErrorsNameTheURL(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(s *server, cfg *config, f *fetcher)
		wants []string
	}{
		{"missing page", func(s *server, cfg *config, f *fetcher) { cfg.Packages = []string{"vllm"} }, []string{"/simple/vllm/", "404"}},
		{"wrong content type", func(s *server, cfg *config, f *fetcher) {
			s.files["/simple/torch/"] = served{"text/html", s.files["/simple/torch/"].body}
		}, []string{"/simple/torch/", "content type", simpleJSON}},
		{"body too large", func(s *server, cfg *config, f *fetcher) { f.maxBody = 100 }, []string{"/simple/torch/", "100-byte limit"}},
		{"metadata hash", func(s *server, cfg *config, f *fetcher) {
			k := "/files/torch-2.15.0-cp314-cp314-manylinux_2_28_x86_64.whl.metadata"
			s.files[k] = served{"binary/octet-stream", append(s.files[k].body, '\n')}
		}, []string{".whl.metadata", "the page says"}},
		{"substituted shard", func(s *server, cfg *config, f *fetcher) {
			for k, v := range s.files {
				if strings.Contains(k, "/shards/") {
					s.files[k] = served{v.ct, zstdBytes(t, msgpackBytes(t, map[string]any{"packages": map[string]any{}}))}
				}
			}
		}, []string{"/shards/", "the shard index says"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t)
			sy := testSyncer(s, "")
			tc.edit(s, &sy.cfg, sy.f)
			p := sy.run(context.Background())
			all := strings.Join(p.Errors, "\n")
			for _, w := range tc.wants {
				if !strings.Contains(all, w) {
					t.Errorf("errors lack %q:\n%s", w, all)
				}
			}
		})
	}
}

func TestParseMetadata(t *testing.T) {
	m, err := parseMetadata(readFixture(t, "xformers-0.0.35.METADATA"))
	if err != nil {
		t.Fatal(err)
	}
	if got := pinsOf(m.RequiresDist, "torch"); len(got) != 1 || got[0] != "torch==2.10.0" {
		t.Errorf("xformers' torch pin: %q", got)
	}
	if _, err := parseMetadata([]byte(" continuation first\n")); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("want a line-numbered error, got %v", err)
	}
	tf := []byte("Name: tensorflow\nVersion: 2.21.0\nRequires-Dist: nvidia-cublas-cu12<13.0,>=12.5.3.2; extra == \"and-cuda\"\nRequires-Dist: numpy\n")
	m, err = parseMetadata(tf)
	if err != nil || len(cudaPins(m.RequiresDist)) != 1 {
		t.Errorf("tensorflow[and-cuda] pins: %v %v", m, err)
	}
}

func TestRunUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if rc := run([]string{"-newest", "0"}, &out, &errb); rc != 2 {
		t.Errorf("rc %d, want 2", rc)
	}
	if rc := run([]string{"extra"}, &out, &errb); rc != 2 || !strings.Contains(errb.String(), "unexpected argument") {
		t.Errorf("rc %d: %s", rc, errb.String())
	}
}

// A server that never answers gives an error naming the URL once the
// client's timeout passes; the handler waits for the request to be dropped.
func TestFetchTimeout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer srv.Close()
	c := srv.Client()
	c.Timeout = 20 * time.Millisecond
	f := &fetcher{client: c, maxBody: 1 << 10, now: time.Now}
	_, err := f.get(context.Background(), srv.URL+"/slow/", simpleJSON)
	if err == nil || !strings.Contains(err.Error(), srv.URL+"/slow/") || strings.Count(err.Error(), srv.URL) != 1 {
		t.Errorf("got %v", err)
	}
}

// A 304 to a request that sent no If-None-Match is the server's error,
// not an empty page.
func TestUnexpected304(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotModified) }))
	defer srv.Close()
	f := &fetcher{client: srv.Client(), cache: t.TempDir(), maxBody: 1 << 10, now: time.Now}
	if _, err := f.get(context.Background(), srv.URL+"/x/", ""); err == nil || !strings.Contains(err.Error(), "without If-None-Match") {
		t.Errorf("got %v", err)
	}
}
