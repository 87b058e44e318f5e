package service_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/builder"
	"github.com/envguard/envguard/cli"
	"github.com/envguard/envguard/internal/testshared"
	"github.com/envguard/envguard/internal/timebound"
	"github.com/envguard/envguard/report"
	"github.com/envguard/envguard/service"
)

// newServer is the real router over the real pipeline, as `envguard serve`
// wires it (without NVML: "local" reports no driver).
func newServer(t *testing.T) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(api.NewRouter(service.Deps(service.Options{}), api.Config{Logger: slog.New(slog.DiscardHandler)}))
	t.Cleanup(ts.Close)
	return ts
}

func post(t *testing.T, ts *httptest.Server, path, ctype string, body []byte) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Post(ts.URL+path, ctype, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

type errorJSON struct {
	Error struct {
		Status  int    `json:"status"`
		Code    string `json:"code"`
		Message string `json:"message"`
		Line    int    `json:"line"`
	} `json:"error"`
}

// Hostile documents are refused with a JSON 400 (or 413 past the body
// limit) within 100 ms: the parser bounds aliases and depth before it builds
// anything. The 100 ms is held where .ci/run enforces bounds, without
// -race; elsewhere it is logged.
func TestHostileYAML(t *testing.T) {
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	// Block style nests a sequence per "- " on one line: 10,000 levels in
	// 20 KB (indented mappings would need 50 MB to go as deep).
	block := "dependencies:\n  " + strings.Repeat("- ", 10000) + "x\n"
	laughs := "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		laughs += n + ": &" + n + " [" + strings.TrimSuffix(strings.Repeat("*"+prev+",", 9), ",") + "]\n"
		prev = n
	}
	laughs += "dependencies: *i\n"
	bigScalar := "name: " + strings.Repeat("x", 1<<20) + "\n"
	for _, tt := range []struct {
		name   string
		body   string
		status int
		code   string
	}{
		{"billion laughs", laughs, 400, "bad_yaml"},
		{"10000-deep flow nesting", "dependencies: " + deep + "\n", 400, "bad_yaml"},
		{"10000-deep block nesting", block, 400, "bad_yaml"},
		{"1 MiB of one scalar", bigScalar, 413, "body_too_large"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ts := newServer(t)
			start := time.Now()
			resp, b := post(t, ts, "/v1/validate", "application/yaml", []byte(tt.body))
			took := time.Since(start)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %.300s", resp.StatusCode, tt.status, b)
			}
			var e errorJSON
			if err := json.Unmarshal(b, &e); err != nil || e.Error.Status != tt.status || e.Error.Message == "" {
				t.Fatalf("not the JSON error shape: %.300s", b)
			}
			if e.Error.Code != tt.code {
				t.Errorf("code %q, want %q", e.Error.Code, tt.code)
			}
			timebound.Within(t, "the answer", took, 100*time.Millisecond)
		})
	}
}

// A file that is not YAML is a 400 with the line; a YAML file with
// problems is a 200 report with findings.
func TestBadYAMLIsAnError(t *testing.T) {
	ts := newServer(t)
	resp, b := post(t, ts, "/v1/validate", "application/yaml", []byte("name: x\ndependencies:\n  - [python\n"))
	var e errorJSON
	if resp.StatusCode != 400 || json.Unmarshal(b, &e) != nil || e.Error.Code != "bad_yaml" || e.Error.Line == 0 {
		t.Fatalf("status %d body %.300s: want 400 bad_yaml with a line", resp.StatusCode, b)
	}
	resp, b = post(t, ts, "/v1/validate", "application/yaml", []byte("name: base\ndependencies:\n  - python=3.10\n"))
	if resp.StatusCode != 200 || !bytes.Contains(b, []byte(`"EG110"`)) {
		t.Fatalf("status %d body %.300s: want a 200 report with EG110", resp.StatusCode, b)
	}
}

// oneReport returns the one report of `envguard validate --format json`'s
// array, as the service writes a report (with its trailing newline); out
// unchanged where it is not an array of one.
func oneReport(out []byte) []byte {
	var reps []json.RawMessage
	if json.Unmarshal(out, &reps) != nil || len(reps) != 1 {
		return out
	}
	return append(append([]byte(nil), reps[0]...), '\n')
}

// The service answers byte for byte what `envguard validate --format json`
// prints, for every real-world file.
func TestCorpusSameAsCLI(t *testing.T) {
	files := testshared.Corpus(t)
	ts := newServer(t)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name, err := filepath.Rel(wd, f)
		if err != nil {
			t.Fatal(err)
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var out, errOut bytes.Buffer
		code := cli.Main([]string{"validate", "--format", "json", name}, strings.NewReader(""), &out, &errOut)
		resp, body := post(t, ts, "/v1/validate?pretty=1&file="+name, "application/yaml", src)
		switch {
		case resp.StatusCode == 400:
			// Not YAML at all: the CLI reports EG100 and fails.
			if !bytes.Contains(out.Bytes(), []byte(`"EG100"`)) || code != 1 {
				t.Errorf("%s: service says 400 (%s) but the CLI found no EG100 (exit %d)", name, body, code)
			}
		case resp.StatusCode != 200:
			t.Errorf("%s: status %d: %.300s", name, resp.StatusCode, body)
		case !bytes.Equal(body, oneReport(out.Bytes())):
			// The CLI prints an array of reports, one per file; the
			// service's body is that one element, byte for byte.
			t.Errorf("%s: the service's report differs from the CLI's", name)
		}
	}
}

func TestBuildEndpoint(t *testing.T) {
	ts := newServer(t)
	resp, b := post(t, ts, "/v1/build", "application/json", []byte(`{"framework":"pytorch","version":"2.1","python":"3.10"}`))
	if resp.StatusCode != 200 || !bytes.Contains(b, []byte("name: pt21_cu")) || !bytes.Contains(b, []byte("python=3.10")) {
		t.Fatalf("status %d: %.500s", resp.StatusCode, b)
	}
	resp, b = post(t, ts, "/v1/build", "application/json", []byte(`{"framework":"pytorch","version":"0.1"}`))
	var e errorJSON
	if resp.StatusCode != 400 || json.Unmarshal(b, &e) != nil || !strings.Contains(e.Error.Message, "not in the knowledge base") {
		t.Fatalf("unknown release: status %d: %.300s", resp.StatusCode, b)
	}
	resp, b = post(t, ts, "/v1/build", "application/json", []byte(`{"framework":"pytorch","version":"2.1","targets":["nope"]}`))
	if resp.StatusCode != 400 || !bytes.Contains(b, []byte("unknown_target")) {
		t.Fatalf("unknown target: status %d: %.300s", resp.StatusCode, b)
	}
}

func TestNameEndpoint(t *testing.T) {
	ts := newServer(t)
	env := "name: x\nchannels: [pytorch, nvidia]\ndependencies:\n  - python=3.10\n  - pytorch=2.0.1\n  - pytorch-cuda=11.8\n"
	resp, b := post(t, ts, "/v1/name", "application/yaml", []byte(env))
	var got api.NameResult
	if resp.StatusCode != 200 || json.Unmarshal(b, &got) != nil || got.Name != "pt20_cu118" || got.Declared != "x" {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
}

// The service counts findings by code from the pipeline's own list (no
// second decode of the report); /metrics must show them.
func TestFindingsMetric(t *testing.T) {
	ts := newServer(t)
	src, err := os.ReadFile("../testdata/demo/environment.yml")
	if err != nil {
		t.Fatal(err)
	}
	if resp, b := post(t, ts, "/v1/validate", "application/yaml", src); resp.StatusCode != 200 {
		t.Fatalf("status %d: %.300s", resp.StatusCode, b)
	}
	resp, err := http.Get(ts.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, want := range []string{`envguard_findings_total{code="EG201"} 1`, `envguard_findings_total{code="EG302"} 1`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// TestREADMEReport keeps the README's curl example true: the report it
// shows is what POST /v1/validate answers for the demo file today.
func TestREADMEReport(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	i := strings.Index(s, "```json\n")
	j := strings.Index(s[i+8:], "```\n")
	if i < 0 || j < 0 {
		t.Fatal("README.md lost its report example")
	}
	shown := s[i+8 : i+8+j]
	src, err := os.ReadFile("../testdata/demo/environment.yml")
	if err != nil {
		t.Fatal(err)
	}
	ts := newServer(t)
	resp, b := post(t, ts, "/v1/validate?pretty=1", "application/yaml", src)
	if resp.StatusCode != 200 || kbStable(string(b)) != kbStable(shown) {
		t.Errorf("README.md shows a report the service no longer sends (status %d); update it.\n--- now ---\n%s", resp.StatusCode, b)
	}
}

// kbStable blanks the dates and versions of a report's kb block, which
// change with every row added to the data, not with what the README shows.
func kbStable(s string) string {
	i := strings.Index(s, `"kb": {`)
	if i < 0 {
		return s
	}
	return s[:i] + regexp.MustCompile(`"(date|version)": "[^"]*"`).ReplaceAllString(s[i:], `"$1": "…"`)
}

// TestValidateUnknownVerdict: the service answers what the CLI answers: a
// target whose architecture check could not be decided is "unknown", with
// the EG409 finding and the summary count, never "ok".
func TestValidateUnknownVerdict(t *testing.T) {
	cfg, err := report.ParseConfig(".envguard.yml", []byte("targets:\n  - name: rtx5090\n    driver: \"570.124.06\"\n    gpus: [\"RTX 5090\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	deps := service.Deps(service.Options{Config: cfg, Machines: &report.Machines{Targets: cfg.Targets}})
	ts := httptest.NewServer(api.NewRouter(deps, api.Config{Logger: slog.New(slog.DiscardHandler)}))
	t.Cleanup(ts.Close)
	env := "name: pt215_cu126\nchannels: [conda-forge]\ndependencies:\n  - python=3.12\n  - pip\n  - pip:\n      - --index-url https://download.pytorch.org/whl/cu126\n      - torch==2.15.0+cu126\n"
	resp, b := post(t, ts, "/v1/validate?target=rtx5090", "application/yaml", []byte(env))
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	var r struct {
		Targets []struct {
			Name    string `json:"name"`
			Verdict string `json:"verdict"`
		} `json:"targets"`
		Findings []struct {
			Code   string `json:"code"`
			Target string `json:"target"`
		} `json:"findings"`
		Summary struct {
			Targets struct{ OK, Fail, Unknown int } `json:"targets"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Targets) != 1 || r.Targets[0].Verdict != "unknown" || r.Summary.Targets.Unknown != 1 || r.Summary.Targets.OK != 0 {
		t.Fatalf("targets %+v, summary %+v", r.Targets, r.Summary)
	}
	found := false
	for _, f := range r.Findings {
		found = found || (f.Code == "EG409" && f.Target == "rtx5090")
	}
	if !found {
		t.Errorf("no EG409 for rtx5090 in %s", b)
	}
}

// TestValidateUndecidedExtension: over HTTP as in the CLI, an environment
// whose torch is decided on an H100 but which holds a GPU extension the
// knowledge base does not know is unknown there, with an EG409 naming it.
func TestValidateUndecidedExtension(t *testing.T) {
	cfg, err := report.ParseConfig(".envguard.yml", []byte("targets:\n  - name: h100\n    driver: \"570.124.06\"\n    gpus: [\"H100\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	deps := service.Deps(service.Options{Config: cfg, Machines: &report.Machines{Targets: cfg.Targets}})
	ts := httptest.NewServer(api.NewRouter(deps, api.Config{Logger: slog.New(slog.DiscardHandler)}))
	t.Cleanup(ts.Close)
	env := "name: pt25_cu124\ndependencies:\n  - python=3.11\n  - pip\n  - pip:\n    - --extra-index-url https://download.pytorch.org/whl/cu124\n    - torch==2.5.1+cu124\n    - someonesext==1.0+cu124\n"
	resp, b := post(t, ts, "/v1/validate?target=h100", "application/yaml", []byte(env))
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	var r struct {
		Targets []struct {
			Verdict string `json:"verdict"`
		} `json:"targets"`
		Findings []struct {
			Code, Target, Message string
		} `json:"findings"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Targets) != 1 || r.Targets[0].Verdict != "unknown" {
		t.Fatalf("targets %+v", r.Targets)
	}
	found := false
	for _, f := range r.Findings {
		found = found || (f.Code == "EG409" && f.Target == "h100" && strings.Contains(f.Message, "someonesext"))
	}
	if !found {
		t.Errorf("no EG409 naming someonesext for h100 in %s", b)
	}
}

// The service's builder says what it builds: builder.Frameworks, which
// GET /v1/build serves to the page's form (issue 27, point 6).
func TestBuilderListsItsFrameworks(t *testing.T) {
	d := service.Deps(service.Options{})
	l, ok := d.Builder.(api.FrameworkLister)
	if !ok {
		t.Fatalf("the service's builder %T lists no frameworks", d.Builder)
	}
	if got, want := strings.Join(l.Frameworks(), ","), strings.Join(builder.Frameworks(), ","); got != want || got == "" {
		t.Errorf("Frameworks() = %q, want builder.Frameworks() %q", got, want)
	}
}
