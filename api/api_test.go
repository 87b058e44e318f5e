package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/envguard/envguard/internal/timebound"
)

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestValidateBodies(t *testing.T) {
	env := readTestdata(t, "gpu-env.yml")
	jsonBody := func(v any) []byte { b, _ := json.Marshal(v); return b }
	tests := []struct {
		name        string
		path        string
		contentType string
		body        []byte
		wantFile    string
		wantTargets []string
		wantPlat    string
	}{
		{"application/yaml", "/v1/validate", "application/yaml", env, "environment.yml", nil, ""},
		{"text/yaml", "/v1/validate", "text/yaml; charset=utf-8", env, "environment.yml", nil, ""},
		{"application/x-yaml", "/v1/validate", "application/x-yaml", env, "environment.yml", nil, ""},
		{"text/plain", "/v1/validate", "text/plain", env, "environment.yml", nil, ""},
		{"no content type", "/v1/validate", "", env, "environment.yml", nil, ""},
		{"query targets", "/v1/validate?target=local&target=h100-pool&platform=linux-64&file=ci.yml", "application/yaml", env, "ci.yml", []string{"local", "h100-pool"}, "linux-64"},
		{"json", "/v1/validate", "application/json", jsonBody(map[string]any{"environment": string(env), "targets": []string{"h100-pool"}, "platform": "linux-aarch64", "file": "a.yml"}), "a.yml", []string{"h100-pool"}, "linux-aarch64"},
		{"json and query targets merge", "/v1/validate?target=local", "application/json", jsonBody(map[string]any{"environment": string(env), "targets": []string{"h100-pool"}}), "environment.yml", []string{"local", "h100-pool"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := &fakeValidator{}
			ts := newTestServer(t, v)
			resp, body := ts.do("POST", tt.path, tt.contentType, tt.body)
			if resp.StatusCode != 200 {
				t.Fatalf("status %d: %s", resp.StatusCode, body)
			}
			req, out := v.lastRequest()
			if !bytes.Equal(body, out) {
				t.Errorf("the response is not byte for byte the validator's report:\n got %q\nwant %q", body, out)
			}
			if !bytes.Equal(req.Body, env) {
				t.Errorf("validator got body %q, want the file unchanged", req.Body)
			}
			if req.File != tt.wantFile || req.Platform != tt.wantPlat || fmt.Sprint(req.Targets) != fmt.Sprint(tt.wantTargets) {
				t.Errorf("request = file %q platform %q targets %q; want %q %q %q", req.File, req.Platform, req.Targets, tt.wantFile, tt.wantPlat, tt.wantTargets)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type = %q", ct)
			}
			if resp.Header.Get("X-Request-Id") == "" {
				t.Error("no X-Request-Id")
			}
		})
	}
}

func TestFindingsAreNotHTTPErrors(t *testing.T) {
	ts := newTestServer(t, &fakeValidator{})
	body := []byte("name: x\ndependencies:\n  - pytorch  # finding EG207\n  - cudatoolkit=11.8  # finding EG201\n")
	resp, b := ts.do("POST", "/v1/validate", "application/yaml", body)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d, want 200 with findings: %s", resp.StatusCode, b)
	}
	var rep struct {
		Findings []struct{ Code string }
		Summary  struct{ Warnings int }
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 2 || rep.Summary.Warnings != 2 {
		t.Errorf("report = %s", b)
	}
	// The findings are counted by code.
	_, m := ts.do("GET", "/metrics", "", nil)
	for _, want := range []string{`envguard_findings_total{code="EG207"} 1`, `envguard_findings_total{code="EG201"} 1`} {
		if !strings.Contains(string(m), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

func TestName(t *testing.T) {
	ts := newTestServer(t, &fakeValidator{})
	resp, b := ts.do("POST", "/v1/name?file=train.yml", "application/yaml", readTestdata(t, "gpu-env.yml"))
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	var got NameResult
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := NameResult{File: "train.yml", Name: "pt21_cu121", Declared: "train-pt21"}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestBuild(t *testing.T) {
	req := `{"framework":"pytorch","version":"2.1","python":"3.10","cuda":"auto","targets":["local"],"via":"conda"}`
	t.Run("no builder", func(t *testing.T) {
		ts := newTestServer(t, &fakeValidator{})
		resp, b := ts.do("POST", "/v1/build", "application/json", []byte(req))
		if e := decodeError(t, b); resp.StatusCode != 501 || e.Code != "not_implemented" {
			t.Errorf("status %d %+v", resp.StatusCode, e)
		}
	})
	var got BuildRequest
	builder := BuilderFunc(func(ctx context.Context, r BuildRequest) ([]byte, error) {
		got = r
		if r.Framework == "caffe" {
			return nil, &Error{Status: 400, Code: "unknown_framework", Message: "unknown framework caffe"}
		}
		return []byte("name: pt21_cu121\nchannels: [pytorch, nvidia]\ndependencies:\n  - pytorch=2.1.2\n"), nil
	})
	ts := newTestServerWith(t, Deps{Builder: builder}, Config{})
	tests := []struct {
		name, ct, body string
		status         int
		code           string
	}{
		{"ok", "application/json", req, 200, ""},
		{"no content type", "", req, 200, ""},
		{"yaml body", "application/yaml", req, 415, "unsupported_media_type"},
		{"missing framework", "application/json", `{"version":"2.1"}`, 400, "bad_request"},
		{"unknown field", "application/json", `{"framework":"pytorch","cudaa":"12"}`, 400, "bad_json"},
		{"builder error", "application/json", `{"framework":"caffe"}`, 400, "unknown_framework"},
		{"empty", "application/json", ``, 400, "empty_body"},
		{"control char", "application/json", `{"framework":"py\u0007torch"}`, 400, "bad_request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, b := ts.do("POST", "/v1/build", tt.ct, []byte(tt.body))
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.status, b)
			}
			if tt.status == 200 {
				if ct := resp.Header.Get("Content-Type"); ct != "application/yaml" {
					t.Errorf("Content-Type %q", ct)
				}
				var n yaml.Node
				if err := yaml.Unmarshal(b, &n); err != nil {
					t.Errorf("not YAML: %v", err)
				}
				if got.Framework != "pytorch" || got.Version != "2.1" || got.Python != "3.10" || got.CUDA != "auto" || got.Via != "conda" || len(got.Targets) != 1 {
					t.Errorf("builder got %+v", got)
				}
				return
			}
			if e := decodeError(t, b); e.Code != tt.code || e.Status != tt.status {
				t.Errorf("error %+v, want code %s", e, tt.code)
			}
		})
	}
}

func TestGPU(t *testing.T) {
	type host struct {
		Available bool   `json:"available"`
		Driver    string `json:"driver,omitempty"`
		Reason    string `json:"reason,omitempty"`
		GPUs      []struct {
			Name string `json:"name"`
		} `json:"gpus,omitempty"`
	}
	tests := []struct {
		name          string
		probe         GPUProbe
		wantAvailable bool
		wantReason    string // regexp
		wantNVMLErrs  string
	}{
		{"no probe", nil, false, "not enabled", "0"},
		{"no driver", GPUProbeFunc(func(context.Context) (any, error) {
			return host{Reason: "no NVIDIA driver: libnvidia-ml.so.1 not found"}, nil
		}), false, "no NVIDIA driver", "0"},
		{"nvml error", GPUProbeFunc(func(context.Context) (any, error) {
			return nil, errors.New("ERROR_LIB_RM_VERSION_MISMATCH")
		}), false, "NVML: ERROR_LIB_RM_VERSION_MISMATCH", "1"},
		{"h200", GPUProbeFunc(func(context.Context) (any, error) {
			return json.RawMessage(`{"available": true, "driver": "580.159.04", "gpus": [{"name": "NVIDIA H200"}]}`), nil
		}), true, "^$", "0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTestServerWith(t, Deps{GPU: tt.probe}, Config{})
			for _, path := range []string{"/v1/gpu", "/readyz"} {
				resp, b := ts.do("GET", path, "", nil)
				if resp.StatusCode != 200 {
					t.Fatalf("%s: status %d: %s", path, resp.StatusCode, b)
				}
				var got struct {
					host
					GPU *host `json:"gpu"`
				}
				if err := json.Unmarshal(b, &got); err != nil {
					t.Fatal(err)
				}
				h := got.host
				if path == "/readyz" {
					h = *got.GPU
				}
				if h.Available != tt.wantAvailable || !regexp.MustCompile(tt.wantReason).MatchString(h.Reason) {
					t.Errorf("%s: got %s", path, b)
				}
			}
			_, m := ts.do("GET", "/metrics", "", nil)
			if want := "envguard_nvml_errors_total 2"; tt.wantNVMLErrs == "1" && !strings.Contains(string(m), want) {
				t.Errorf("metrics lack %q (one error per probe: /v1/gpu and /readyz)", want)
			}
		})
	}
}

func TestInfoEndpoints(t *testing.T) {
	deps := Deps{
		Targets: ListFunc(func() any {
			return []map[string]any{{"name": "h100-pool", "driver": "550.54.15", "gpus": []string{"H100"}}}
		}),
		Rules: ListFunc(func() any {
			return []map[string]string{{"code": "EG201", "name": "cuda-version-conflict", "severity": "error"}}
		}),
	}
	ts := newTestServerWith(t, deps, Config{})
	tests := []struct {
		path, want string
	}{
		{"/v1/targets", `{"targets":[{"driver":"550.54.15","gpus":["H100"],"name":"h100-pool"}]}` + "\n"},
		{"/v1/rules", `{"rules":[{"code":"EG201","name":"cuda-version-conflict","severity":"error"}]}` + "\n"},
		{"/healthz", `{"status":"ok"}` + "\n"},
		{"/readyz", `{"gpu":{"available":false,"reason":"GPU probing is not enabled on this server"},"status":"ready"}` + "\n"},
	}
	for _, tt := range tests {
		resp, b := ts.do("GET", tt.path, "", nil)
		if resp.StatusCode != 200 || string(b) != tt.want {
			t.Errorf("GET %s = %d %s, want %s", tt.path, resp.StatusCode, b, tt.want)
		}
	}
	// Nil lists are empty lists, not null.
	empty := newTestServer(t, nil)
	for path, want := range map[string]string{"/v1/targets": `{"targets":[]}` + "\n", "/v1/rules": `{"rules":[]}` + "\n"} {
		if _, b := empty.do("GET", path, "", nil); string(b) != want {
			t.Errorf("GET %s = %s, want %s", path, b, want)
		}
	}

	resp, b := ts.do("GET", "/openapi.yaml", "", nil)
	if resp.StatusCode != 200 || !bytes.Equal(b, OpenAPI) || resp.Header.Get("Content-Type") != "application/yaml" {
		t.Errorf("GET /openapi.yaml = %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	resp, b = ts.do("GET", "/metrics", "", nil)
	for _, want := range []string{"envguard_http_requests_total{method=\"GET\",route=\"/v1/targets\",status=\"200\"} 1", "envguard_http_request_duration_seconds_bucket{route=\"/healthz\"", "envguard_nvml_errors_total 0", "go_goroutines"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if resp.StatusCode != 200 {
		t.Errorf("metrics status %d", resp.StatusCode)
	}
}

func TestReadyzNotReady(t *testing.T) {
	ts := newTestServerWith(t, Deps{Readiness: ReadinessFunc(func() error { return errors.New("knowledge base not loaded: kb/torch.yml: line 3: bad row") })}, Config{})
	resp, b := ts.do("GET", "/readyz", "", nil)
	e := decodeError(t, b)
	if resp.StatusCode != 503 || e.Code != "not_ready" || !strings.Contains(e.Message, "knowledge base") || resp.Header.Get("Retry-After") == "" {
		t.Errorf("status %d %+v", resp.StatusCode, e)
	}
	if resp, _ := ts.do("GET", "/healthz", "", nil); resp.StatusCode != 200 {
		t.Errorf("healthz %d while not ready; it must stay alive", resp.StatusCode)
	}
}

func TestErrors(t *testing.T) {
	env := string(readTestdata(t, "gpu-env.yml"))
	big := strings.Repeat("# padding\n", 2000) // 20,000 bytes
	tests := []struct {
		name, method, path, ct, body string
		status                       int
		code                         string
		line                         int
		msg                          string // substring
	}{
		{"bad json", "POST", "/v1/validate", "application/json", "{\n  \"environment\": \"x\",\n  oops\n}", 400, "bad_json", 3, "invalid character"},
		{"json trailing", "POST", "/v1/validate", "application/json", `{"environment":"name: x"} {}`, 400, "bad_json", 0, "more than one"},
		{"json unknown field", "POST", "/v1/validate", "application/json", `{"environment":"name: x","target":["a"]}`, 400, "bad_json", 0, "unknown field"},
		{"environment number", "POST", "/v1/validate", "application/json", `{"environment": 42}`, 400, "bad_request", 0, "not a number"},
		{"environment object", "POST", "/v1/name", "application/json", `{"environment": {"name": "x"}}`, 400, "bad_request", 0, "not an object"},
		{"environment missing", "POST", "/v1/validate", "application/json", `{"targets": ["local"]}`, 400, "bad_request", 0, `needs "environment"`},
		{"environment null", "POST", "/v1/validate", "application/json", `{"environment": null}`, 400, "bad_request", 0, `needs "environment"`},
		{"environment empty", "POST", "/v1/validate", "application/json", `{"environment": "  \n"}`, 400, "empty_body", 0, "empty"},
		{"targets wrong type", "POST", "/v1/validate", "application/json", `{"environment": "a: 1", "targets": "local"}`, 400, "bad_json", 1, "cannot unmarshal"},
		{"empty body", "POST", "/v1/validate", "application/yaml", "", 400, "empty_body", 0, "empty"},
		{"blank body", "POST", "/v1/name", "text/plain", " \n\t\n", 400, "empty_body", 0, "empty"},
		{"empty json", "POST", "/v1/validate", "application/json", "", 400, "empty_body", 0, "empty"},
		{"platform conflict", "POST", "/v1/validate?platform=linux-64", "application/json", `{"environment": "a: 1", "platform": "osx-arm64"}`, 400, "bad_request", 0, "disagree"},
		{"empty target", "POST", "/v1/validate?target=", "application/yaml", env, 400, "bad_request", 0, "target name is empty"},
		{"long target", "POST", "/v1/validate?target=" + strings.Repeat("x", 200), "application/yaml", env, 400, "bad_request", 0, "longer than"},
		{"too many targets", "POST", "/v1/validate?" + strings.Repeat("target=a&", 65), "application/yaml", env, 400, "bad_request", 0, "too many targets"},
		{"control char in file", "POST", "/v1/validate?file=a%0Ab", "application/yaml", env, 400, "bad_request", 0, "control character"},
		{"bad yaml from pipeline", "POST", "/v1/validate", "application/yaml", "name: x\n\tbad: tab\n", 400, "bad_yaml", 2, "yaml: line 2"},
		{"unknown target from pipeline", "POST", "/v1/validate?target=nope", "application/yaml", env, 400, "unknown_target", 0, `"nope"`},
		{"too large", "POST", "/v1/validate", "application/yaml", env + big, 413, "body_too_large", 0, "10000 bytes"},
		{"too large json", "POST", "/v1/name", "application/json", `{"environment": "` + strings.Repeat("a", 20000) + `"}`, 413, "body_too_large", 0, "limit"},
		{"xml", "POST", "/v1/validate", "application/xml", env, 415, "unsupported_media_type", 0, "application/yaml"},
		{"form", "POST", "/v1/name", "application/x-www-form-urlencoded", env, 415, "unsupported_media_type", 0, "not accepted"},
		{"latin1", "POST", "/v1/validate", "text/yaml; charset=latin1", env, 415, "unsupported_media_type", 0, "UTF-8"},
		{"broken content type", "POST", "/v1/validate", "text/;;", env, 415, "unsupported_media_type", 0, "does not parse"},
		{"not found", "GET", "/v2/validate", "", "", 404, "not_found", 0, "/v2/validate"},
		{"no page here", "GET", "/index.html", "", "", 404, "not_found", 0, "openapi.yaml"},
		{"GET validate", "GET", "/v1/validate", "", "", 405, "method_not_allowed", 0, "allowed: POST"},
		{"POST gpu", "POST", "/v1/gpu", "application/json", "{}", 405, "method_not_allowed", 0, "allowed: GET"},
		{"DELETE healthz", "DELETE", "/healthz", "", "", 405, "method_not_allowed", 0, "GET"},
	}
	ts := newTestServerWith(t, Deps{Validator: &fakeValidator{}}, Config{MaxBody: 10000})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, b := ts.do(tt.method, tt.path, tt.ct, []byte(tt.body))
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.status, b)
			}
			e := decodeError(t, b)
			if e.Status != tt.status || e.Code != tt.code || e.Line != tt.line || !strings.Contains(e.Message, tt.msg) {
				t.Errorf("error = %+v, want status %d code %s line %d message containing %q", e, tt.status, tt.code, tt.line, tt.msg)
			}
			if resp.StatusCode == 405 && resp.Header.Get("Allow") == "" {
				t.Error("405 without an Allow header")
			}
			if resp.Header.Get("Content-Type") != "application/json" {
				t.Errorf("Content-Type %q", resp.Header.Get("Content-Type"))
			}
		})
	}
	// Allow lists exactly the methods the path has.
	resp, _ := ts.do("PUT", "/v1/name", "", nil)
	if got := resp.Header.Get("Allow"); got != "POST" {
		t.Errorf("Allow = %q, want POST", got)
	}
	// Unknown paths are counted under one label, not by path.
	_, m := ts.do("GET", "/metrics", "", nil)
	if !strings.Contains(string(m), `route="unmatched",status="404"} 2`) || strings.Contains(string(m), "/v2/validate") {
		t.Errorf("404s are not counted as unmatched:\n%s", grepLines(m, "envguard_http_requests_total"))
	}
}

func grepLines(b []byte, sub string) string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func TestPipelineErrors(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		status   int
		code     string
		leaks    bool
		wantLine int
	}{
		{"plain error is internal", errBoom, 500, "internal", false, 0},
		{"wrapped coded error", fmt.Errorf("validate: %w", &Error{Status: 400, Code: "bad_yaml", Message: "mapping values are not allowed", Line: 7}), 400, "bad_yaml", true, 7},
		{"status out of range", &Error{Status: 200, Code: "weird", Message: "weird"}, 500, "weird", true, 0},
		{"deadline", fmt.Errorf("resolve: %w", context.DeadlineExceeded), 504, "timeout", false, 0},
		{"custom coder", coded{}, 422, "custom", true, 9},
		{"coder without a code", &Error{Status: 413, Message: "too big"}, 413, "body_too_large", true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := ValidatorFuncs{ValidateFunc: func(context.Context, ValidateRequest) ([]byte, error) { return nil, tt.err }}
			ts := newTestServer(t, v)
			resp, b := ts.do("POST", "/v1/validate", "application/yaml", []byte("name: x\n"))
			e := decodeError(t, b)
			if resp.StatusCode != tt.status || e.Code != tt.code || e.Line != tt.wantLine {
				t.Errorf("got %d %+v, want %d %s line %d", resp.StatusCode, e, tt.status, tt.code, tt.wantLine)
			}
			if !tt.leaks && strings.Contains(string(b), "hunter2") {
				t.Errorf("internal error text sent to the client: %s", b)
			}
			if tt.status >= 500 && e.RequestID == "" {
				t.Errorf("5xx without request_id: %s", b)
			}
			if tt.err == errBoom && !strings.Contains(ts.logs.String(), "hunter2") {
				t.Errorf("internal error not logged: %s", ts.logs.String())
			}
		})
	}
	// A nil Validator answers 501 on both endpoints.
	ts := newTestServer(t, nil)
	for _, p := range []string{"/v1/validate", "/v1/name"} {
		resp, b := ts.do("POST", p, "application/yaml", []byte("name: x\n"))
		if e := decodeError(t, b); resp.StatusCode != 501 || e.Code != "not_implemented" {
			t.Errorf("%s: %d %+v", p, resp.StatusCode, e)
		}
	}
}

type coded struct{}

func (coded) Error() string     { return "custom failure" }
func (coded) StatusCode() int   { return 422 }
func (coded) ErrorCode() string { return "custom" }
func (coded) Line() int         { return 9 }

func TestPanicIsJSON500(t *testing.T) {
	v := ValidatorFuncs{ValidateFunc: func(context.Context, ValidateRequest) ([]byte, error) {
		var m map[string]int
		//lint:ignore SA5000 the nil map write is the bug this test needs
		m["boom"]++ // a nil map write: the kind of bug a parser has
		return nil, nil
	}}
	ts := newTestServer(t, v)
	resp, b := ts.do("POST", "/v1/validate", "application/yaml", []byte("name: x\n"))
	e := decodeError(t, b)
	if resp.StatusCode != 500 || e.Code != "internal" || e.RequestID == "" {
		t.Fatalf("got %d %s", resp.StatusCode, b)
	}
	logs := ts.logs.String()
	if !strings.Contains(logs, `"msg":"panic"`) || !strings.Contains(logs, "assignment to entry in nil map") || !strings.Contains(logs, "goroutine") || !strings.Contains(logs, e.RequestID) {
		t.Errorf("panic not logged with its stack and request id:\n%s", logs)
	}
	// The server goes on answering.
	if resp, _ := ts.do("GET", "/healthz", "", nil); resp.StatusCode != 200 {
		t.Errorf("healthz after panic: %d", resp.StatusCode)
	}
	_, m := ts.do("GET", "/metrics", "", nil)
	if !strings.Contains(string(m), "envguard_http_panics_total 1") || !strings.Contains(string(m), `route="/v1/validate",status="500"} 1`) {
		t.Errorf("panic not counted:\n%s", grepLines(m, "envguard_http"))
	}
}

func TestRequestTimeout(t *testing.T) {
	v := ValidatorFuncs{ValidateFunc: func(ctx context.Context, _ ValidateRequest) ([]byte, error) {
		<-ctx.Done() // a validator that honours its deadline
		return nil, ctx.Err()
	}}
	ts := newTestServerWith(t, Deps{Validator: v}, Config{RequestTimeout: 50 * time.Millisecond})
	start := time.Now()
	resp, b := ts.do("POST", "/v1/validate", "application/yaml", []byte("name: x\n"))
	if e := decodeError(t, b); resp.StatusCode != 504 || e.Code != "timeout" {
		t.Errorf("got %d %s", resp.StatusCode, b)
	}
	timebound.Within(t, "504 with a 50ms deadline", time.Since(start), 2*time.Second)
}

func TestOverload(t *testing.T) {
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	v := ValidatorFuncs{ValidateFunc: func(ctx context.Context, req ValidateRequest) ([]byte, error) {
		entered <- struct{}{}
		<-release
		return (&fakeValidator{}).Validate(ctx, req)
	}}
	ts := newTestServerWith(t, Deps{Validator: v}, Config{MaxConcurrent: 1, QueueWait: 20 * time.Millisecond})
	done := make(chan int)
	go func() {
		resp, _ := ts.do("POST", "/v1/validate", "application/yaml", []byte("name: first\n"))
		done <- resp.StatusCode
	}()
	<-entered
	// Another client finds the one slot busy: 503.
	resp, b := ts.from("127.0.0.2").do("POST", "/v1/name", "application/yaml", []byte("name: second\n"))
	e := decodeError(t, b)
	if resp.StatusCode != 503 || e.Code != "overloaded" || resp.Header.Get("Retry-After") != "1" {
		t.Errorf("got %d %s Retry-After %q", resp.StatusCode, b, resp.Header.Get("Retry-After"))
	}
	// The client that holds it is over its share: 429.
	resp, b = ts.do("POST", "/v1/name", "application/yaml", []byte("name: third\n"))
	if e := decodeError(t, b); resp.StatusCode != 429 || e.Code != "too_many_requests" || resp.Header.Get("Retry-After") != "1" {
		t.Errorf("the same client: got %d %s Retry-After %q", resp.StatusCode, b, resp.Header.Get("Retry-After"))
	}
	// Cheap endpoints are not behind the validation slots.
	if resp, _ := ts.do("GET", "/healthz", "", nil); resp.StatusCode != 200 {
		t.Errorf("healthz while overloaded: %d", resp.StatusCode)
	}
	close(release)
	if s := <-done; s != 200 {
		t.Errorf("first request: %d", s)
	}
	// The slot is free again.
	if resp, b := ts.do("POST", "/v1/validate", "application/yaml", []byte("name: third\n")); resp.StatusCode != 200 {
		t.Errorf("after release: %d %s", resp.StatusCode, b)
	}
	_, m := ts.do("GET", "/metrics", "", nil)
	if !strings.Contains(string(m), "envguard_http_rejected_total 1") || !strings.Contains(string(m), "envguard_http_throttled_total 1") ||
		!strings.Contains(string(m), "envguard_validations_in_flight 0") {
		t.Errorf("overload not counted:\n%s", grepLines(m, "envguard_"))
	}
}

func TestConcurrentRequests(t *testing.T) {
	v := &fakeValidator{}
	ts := newTestServerWith(t, Deps{Validator: v}, Config{MaxConcurrent: 8, QueueWait: 5 * time.Second})
	const workers, each = 32, 8
	var wg sync.WaitGroup
	errs := make(chan string, workers*each)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			ts := ts.from(fmt.Sprintf("127.0.1.%d", w+1)) // one client each
			for i := 0; i < each; i++ {
				name := fmt.Sprintf("env-%d-%d", w, i)
				body := []byte("name: " + name + "\ndependencies:\n  - python=3.10  # finding EG207\n")
				path := "/v1/validate"
				if i%2 == 1 {
					path = "/v1/name"
				}
				resp, b := ts.do("POST", path, "application/yaml", body)
				if resp.StatusCode != 200 || !bytes.Contains(b, []byte(`"`+name+`"`)) {
					errs <- fmt.Sprintf("%s %s: %d %s", path, name, resp.StatusCode, b)
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	_, m := ts.do("GET", "/metrics", "", nil)
	for _, want := range []string{
		fmt.Sprintf(`envguard_http_requests_total{method="POST",route="/v1/validate",status="200"} %d`, workers*each/2),
		fmt.Sprintf(`envguard_http_requests_total{method="POST",route="/v1/name",status="200"} %d`, workers*each/2),
		fmt.Sprintf(`envguard_findings_total{code="EG207"} %d`, workers*each/2),
	} {
		if !strings.Contains(string(m), want) {
			t.Errorf("metrics lack %q:\n%s", want, grepLines(m, "envguard_"))
		}
	}
}

func TestAuth(t *testing.T) {
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte("s3cret-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ts := newTestServerWith(t, Deps{Validator: &fakeValidator{}}, Config{TokenFile: tokenFile})
	env := []byte("name: x\n")
	tests := []struct {
		method, path, auth string
		status             int
	}{
		{"POST", "/v1/validate", "", 401},
		{"POST", "/v1/validate", "Bearer wrong", 401},
		{"POST", "/v1/validate", "Bearer s3cret-token-and-more", 401},
		{"POST", "/v1/validate", "Basic czNjcmV0LXRva2Vu", 401},
		{"POST", "/v1/validate", "Bearer s3cret-token", 200},
		{"POST", "/v1/validate", "bearer s3cret-token", 200},
		{"POST", "/v1/name", "", 401},
		{"GET", "/v1/gpu", "", 401},
		{"GET", "/v1/rules", "Bearer s3cret-token", 200},
		{"GET", "/metrics", "", 401},
		{"GET", "/metrics", "Bearer s3cret-token", 200},
		{"GET", "/healthz", "", 200},
		{"GET", "/readyz", "", 200},
		{"GET", "/openapi.yaml", "", 200},
	}
	for _, tt := range tests {
		var h []string
		if tt.auth != "" {
			h = []string{"Authorization", tt.auth}
		}
		resp, b := ts.do(tt.method, tt.path, "application/yaml", env, h...)
		if resp.StatusCode != tt.status {
			t.Errorf("%s %s with %q: %d, want %d: %s", tt.method, tt.path, tt.auth, resp.StatusCode, tt.status, b)
		}
		if tt.status == 401 {
			if e := decodeError(t, b); e.Code != "unauthorized" || resp.Header.Get("WWW-Authenticate") == "" {
				t.Errorf("%s %s: %+v %v", tt.method, tt.path, e, resp.Header)
			}
		}
	}
	// An unreadable token file fails closed.
	closed := newTestServerWith(t, Deps{Validator: &fakeValidator{}}, Config{TokenFile: filepath.Join(dir, "missing")})
	if resp, _ := closed.do("POST", "/v1/validate", "application/yaml", env, "Authorization", "Bearer "); resp.StatusCode != 401 {
		t.Errorf("missing token file: %d, want 401", resp.StatusCode)
	}
	if !strings.Contains(closed.logs.String(), "refusing protected requests") {
		t.Errorf("missing token file not logged")
	}
}

func TestConfigValidate(t *testing.T) {
	dir := t.TempDir()
	tok := filepath.Join(dir, "token")
	empty := filepath.Join(dir, "empty")
	twoWords := filepath.Join(dir, "two")
	os.WriteFile(tok, []byte("abc\n"), 0o600)
	os.WriteFile(empty, []byte("\n"), 0o600)
	os.WriteFile(twoWords, []byte("abc def\n"), 0o600)
	tests := []struct {
		cfg     Config
		wantErr string
	}{
		{Config{}, ""},
		{Config{Addr: "127.0.0.1:0"}, ""},
		{Config{Addr: "localhost:9000"}, ""},
		{Config{Addr: "[::1]:8080"}, ""},
		{Config{Addr: "0.0.0.0:8080"}, "reachable from other machines"},
		{Config{Addr: ":8080"}, "reachable from other machines"},
		{Config{Addr: "10.1.2.3:8080"}, "token file"},
		{Config{Addr: "0.0.0.0:8080", Insecure: true}, ""},
		{Config{Addr: "0.0.0.0:8080", TokenFile: tok}, ""},
		{Config{Addr: "0.0.0.0:8080", TokenFile: filepath.Join(dir, "nope")}, "no such file"},
		{Config{Addr: "127.0.0.1:8080", TokenFile: empty}, "is empty"},
		{Config{TokenFile: twoWords}, "more than one word"},
		{Config{Addr: "8080"}, "want host:port"},
	}
	for _, tt := range tests {
		err := tt.cfg.Validate()
		if (err == nil) != (tt.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("%+v: Validate() = %v, want %q", tt.cfg, err, tt.wantErr)
		}
	}
	// Serve refuses what Validate refuses, before listening.
	if err := Serve(context.Background(), Config{Addr: "0.0.0.0:0"}, Deps{}); err == nil || !strings.Contains(err.Error(), "token") {
		t.Errorf("Serve on 0.0.0.0 without token: %v", err)
	}
}

func TestOpenAPIDocument(t *testing.T) {
	doc := loadOpenAPI(t)
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi %q", doc.OpenAPI)
	}
	// Every route the router serves is in the document, and the reverse.
	s := newServer(Deps{}, Config{})
	served := map[string]bool{}
	for _, m := range []string{"GET", "POST"} {
		for _, p := range []string{"/v1/validate", "/v1/name", "/v1/fix", "/v1/build", "/v1/gpu", "/v1/targets", "/v1/rules", "/healthz", "/readyz", "/metrics", "/openapi.yaml", "/", "/assets/{file}", "/rules/{code}"} {
			if s.mux.Match(newRouteContext(), m, p) {
				served[m+" "+p] = true
			}
		}
	}
	documented := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for m := range item.Operations() {
			documented[m+" "+path] = true
		}
	}
	if fmt.Sprint(served) != fmt.Sprint(documented) {
		t.Errorf("router serves %v\ndocument has %v", served, documented)
	}
}

// TestCheckerCatchesDrift proves the response check can fail: a report that
// breaks the schema is refused.
func TestCheckerCatchesDrift(t *testing.T) {
	bad := []string{
		`{"file":"a","name":{},"stack":null,"targets":[],"findings":[{"code":"XX1","severity":"warning","message":"m","line":1,"column":1}],"summary":{"errors":0,"warnings":1,"info":0}}`,
		`{"file":"a","name":{},"stack":null,"targets":[],"findings":[],"summary":{"errors":0,"warnings":0}}`,
		`{"file":"a","name":{},"stack":null,"targets":[{"name":"x"}],"findings":null,"summary":{"errors":0,"warnings":0,"info":0}}`,
		`{"file":"a","name":{},"stack":null,"targets":[],"findings":[{"code":"EG201","severity":"fatal","message":"m","line":1,"column":1}],"summary":{"errors":0,"warnings":1,"info":0}}`,
	}
	const kbOK = `"kb":{"date":"2026-11-30","version":"v","layers":[{"name":"embedded","version":"v"}]}`
	for i := range bad {
		bad[i] = strings.TrimSuffix(bad[i], "}") + "," + kbOK + "}"
	}
	bad = append(bad,
		`{"file":"a","name":{},"stack":null,"targets":[],"findings":[],"summary":{"errors":0,"warnings":0,"info":0}}`,
		`{"file":"a","name":{},"stack":null,"targets":[],"findings":[],"summary":{"errors":0,"warnings":0,"info":0},"kb":{"date":"2026-11-30","version":"v","layers":[]}}`,
		`{"file":"a","name":{},"stack":null,"targets":[],"findings":[],"summary":{"errors":0,"warnings":0,"info":0},"kb":{"date":"today","version":"v","layers":[{"name":"embedded","version":"v"}]}}`,
	)
	good := `{"file":"a","name":{"declared":"x"},"stack":null,"targets":null,"findings":null,"summary":{"errors":0,"warnings":0,"info":0},` + kbOK + `}`
	ts := newTestServer(t, nil)
	req, _ := http.NewRequest("POST", ts.URL+"/v1/validate", nil)
	check := func(body string) error {
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}}
		return ts.checks.check(req, resp, []byte(body))
	}
	for _, b := range bad {
		if check(b) == nil {
			t.Errorf("the checker accepted %s", b)
		}
	}
	if err := check(good); err != nil {
		t.Errorf("the checker refused a valid report: %v", err)
	}
}

func TestFindingCodeLabels(t *testing.T) {
	m := newMetrics()
	m.observeReport([]byte(`{"findings":[{"code":"EG201"},{"code":"EG201"},{"code":"eg201"},{"code":"EG2010"},{"code":"<script>"}]}`))
	m.observeReport([]byte(`not json`))
	var b bytes.Buffer
	m.write(&b)
	got := map[string]float64{}
	for _, l := range strings.Split(b.String(), "\n") {
		rest, ok := strings.CutPrefix(l, `envguard_findings_total{code="`)
		if !ok {
			continue
		}
		code, val, ok := strings.Cut(rest, `"} `)
		if !ok {
			t.Fatalf("malformed series %q", l)
		}
		n, err := strconv.ParseFloat(val, 64)
		if err != nil {
			t.Fatalf("series %q: %v", l, err)
		}
		got[code] = n
	}
	if want := map[string]float64{"EG201": 2, "other": 3}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("findings_total = %v, want %v", got, want)
	}
}

func TestUnencodableListIsJSON500(t *testing.T) {
	ts := newTestServerWith(t, Deps{Targets: ListFunc(func() any { return make(chan int) })}, Config{})
	resp, b := ts.do("GET", "/v1/targets", "", nil)
	if e := decodeError(t, b); resp.StatusCode != 500 || e.Code != "internal" {
		t.Errorf("got %d %s", resp.StatusCode, b)
	}
}

// TestDeadlineWithUncooperativeValidator: a Validator that ignores its
// context still gets the client a 504 on time, and its slot goes back at
// the deadline, so the next client is served (issue 11: four slow requests
// once made every validation a 503 for 93 s). Work still running after its
// request ended is counted, and bounded: past MaxConcurrent such calls a
// timed-out one keeps its slot until it really ends, and the service sheds
// load with 503s rather than pile work up.
func TestDeadlineWithUncooperativeValidator(t *testing.T) {
	release := make(chan struct{})
	finished := make(chan struct{}, 100)
	v := ValidatorFuncs{ValidateFunc: func(ctx context.Context, req ValidateRequest) ([]byte, error) {
		if bytes.Contains(req.Body, []byte("slow")) {
			defer func() { finished <- struct{}{} }()
			<-release // ignores ctx, like a CPU-bound parse
		}
		return (&fakeValidator{}).Validate(context.Background(), req)
	}}
	ts := newTestServerWith(t, Deps{Validator: v}, Config{RequestTimeout: 100 * time.Millisecond, MaxConcurrent: 1, QueueWait: time.Millisecond})
	metric := func(name string) string {
		_, m := ts.do("GET", "/metrics", "", nil)
		for _, l := range strings.Split(string(m), "\n") {
			if strings.HasPrefix(l, name+" ") {
				return l
			}
		}
		return ""
	}
	other := ts.from("127.0.0.2")
	start := time.Now()
	resp, b := ts.do("POST", "/v1/validate", "application/yaml", []byte("name: slow\n"))
	if e := decodeError(t, b); resp.StatusCode != 504 || e.Code != "timeout" {
		t.Errorf("got %d %s", resp.StatusCode, b)
	}
	// The validator cannot end before release is closed below: the 504
	// came at the deadline, not with the end of the work.
	if len(finished) != 0 {
		t.Fatal("the uncooperative validator ended before its 504")
	}
	timebound.Within(t, "504 with a 100ms deadline", time.Since(start), 3*time.Second)
	// The slot went back at the deadline: the next request is served while
	// the first call still runs.
	if resp, b := ts.do("POST", "/v1/validate", "application/yaml", []byte("name: fast\n")); resp.StatusCode != 200 {
		t.Errorf("while the first still runs: %d %s", resp.StatusCode, b)
	}
	if got := metric("envguard_validations_abandoned"); got != "envguard_validations_abandoned 1" {
		t.Errorf("abandoned: %q", got)
	}
	if got := metric("envguard_validations_in_flight"); got != "envguard_validations_in_flight 0" {
		t.Errorf("in flight: %q", got)
	}
	// A second uncooperative call finds the abandoned work at its bound
	// (MaxConcurrent = 1): it keeps its slot past its 504.
	if resp, b := ts.do("POST", "/v1/validate", "application/yaml", []byte("name: slow\n")); resp.StatusCode != 504 {
		t.Errorf("second slow call: %d %s", resp.StatusCode, b)
	}
	if resp, b := other.do("POST", "/v1/validate", "application/yaml", []byte("name: fast\n")); resp.StatusCode != 503 {
		t.Errorf("another client, with abandoned work at its bound: %d %s, want 503", resp.StatusCode, b)
	}
	if resp, b := ts.do("POST", "/v1/validate", "application/yaml", []byte("name: fast\n")); resp.StatusCode != 429 {
		t.Errorf("the client whose call keeps the slot: %d %s, want 429", resp.StatusCode, b)
	}
	close(release)
	<-finished
	<-finished
	// Everything is back once the work has ended; the guard is there only
	// for a slot that never comes back.
	for deadline := time.Now().Add(30 * time.Second); ; {
		resp, b := ts.do("POST", "/v1/validate", "application/yaml", []byte("name: fast\n"))
		if resp.StatusCode == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("slot not released: %d %s", resp.StatusCode, b)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if a, f := metric("envguard_validations_abandoned"), metric("envguard_validations_in_flight"); a != "envguard_validations_abandoned 0" || f != "envguard_validations_in_flight 0" {
		t.Errorf("after the work ended: %q, %q", a, f)
	}
}

// TestPanicInBuilder: panics of the Builder are answered the same way.
func TestPanicInBuilder(t *testing.T) {
	ts := newTestServerWith(t, Deps{Builder: BuilderFunc(func(context.Context, BuildRequest) ([]byte, error) {
		panic("builder bug")
	})}, Config{})
	resp, b := ts.do("POST", "/v1/build", "application/json", []byte(`{"framework":"pytorch"}`))
	if e := decodeError(t, b); resp.StatusCode != 500 || e.Code != "internal" {
		t.Errorf("got %d %s", resp.StatusCode, b)
	}
	if logs := ts.logs.String(); !strings.Contains(logs, "builder bug") || !strings.Contains(logs, "TestPanicInBuilder") {
		t.Errorf("panic logged without the builder's stack:\n%s", logs)
	}
}

// frameworksBuilder is a Builder that says what it builds.
type frameworksBuilder struct {
	BuilderFunc
	fws []string
}

func (b frameworksBuilder) Frameworks() []string { return b.fws }

// GET /v1/build lists what POST /v1/build builds, for the page's form
// (issue 27, point 6): the builder's own list, or none.
func TestBuildInfo(t *testing.T) {
	build := BuilderFunc(func(ctx context.Context, r BuildRequest) ([]byte, error) { return []byte("name: x\n"), nil })
	for _, c := range []struct {
		name string
		b    Builder
		want string
	}{
		{"no builder", nil, `{"frameworks":[]}`},
		{"a builder that does not say", build, `{"frameworks":[]}`},
		{"pytorch only", frameworksBuilder{build, []string{"pytorch"}}, `{"frameworks":["pytorch"]}`},
		{"three", frameworksBuilder{build, []string{"pytorch", "tensorflow", "jax"}}, `{"frameworks":["pytorch","tensorflow","jax"]}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			ts := newTestServerWith(t, Deps{Builder: c.b}, Config{})
			resp, b := ts.do("GET", "/v1/build", "", nil)
			if resp.StatusCode != 200 || strings.TrimSpace(string(b)) != c.want {
				t.Errorf("status %d %s, want %s", resp.StatusCode, b, c.want)
			}
		})
	}
}
