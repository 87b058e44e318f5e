package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/go-chi/chi/v5"
	"gopkg.in/yaml.v3"
)

// testServer is the real router behind httptest, with a client whose every
// response is checked against openapi.yaml.
type testServer struct {
	*httptest.Server
	t      testing.TB // swapped per iteration by fuzz targets
	client *http.Client
	logs   *syncBuffer
	checks *responseChecker
}

// newTestServer serves the router with v as the pipeline and defaults for
// the rest. The lead's integration test passes the real Validator here.
func newTestServer(t *testing.T, v Validator) *testServer {
	return newTestServerWith(t, Deps{Validator: v}, Config{})
}

func newTestServerWith(t testing.TB, deps Deps, cfg Config) *testServer {
	t.Helper()
	logs := &syncBuffer{}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	ts := httptest.NewServer(NewRouter(deps, cfg))
	t.Cleanup(ts.Close)
	rc := newResponseChecker(t, ts.URL)
	s := &testServer{Server: ts, t: t, logs: logs, checks: rc}
	s.client = &http.Client{Transport: &checkingTransport{ts: s, next: ts.Client().Transport, rc: rc}}
	return s
}

var (
	loopbackOnce sync.Once
	loopbackErr  error
)

// from returns ts with a client whose connections come from ip, an address
// of 127.0.0.0/8 other than 127.0.0.1: the service tells clients apart by
// their remote address (clientKey), and every test client would otherwise
// be the one client 127.0.0.1. Linux routes all of 127.0.0.0/8 to
// loopback; where a system does not, the test is skipped.
func (ts *testServer) from(ip string) *testServer {
	ts.t.Helper()
	loopbackOnce.Do(func() {
		var ln net.Listener
		if ln, loopbackErr = net.Listen("tcp", "127.0.0.2:0"); loopbackErr == nil {
			ln.Close()
		}
	})
	if loopbackErr != nil {
		ts.t.Skipf("needs 127.0.0.0/8 on loopback to tell clients apart: %v", loopbackErr)
	}
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	tr := &http.Transport{DialContext: d.DialContext}
	ts.t.Cleanup(tr.CloseIdleConnections)
	c := *ts
	c.client = &http.Client{Transport: &checkingTransport{ts: &c, next: tr, rc: ts.checks}}
	return &c
}

// do sends a request and returns the response with its body read.
func (ts *testServer) do(method, path, contentType string, body []byte, header ...string) (*http.Response, []byte) {
	ts.t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, bytes.NewReader(body))
	if err != nil {
		ts.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := ts.client.Do(req)
	if err != nil {
		ts.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		ts.t.Fatal(err)
	}
	return resp, b
}

// checkingTransport validates every response against the OpenAPI document.
type checkingTransport struct {
	ts   *testServer
	next http.RoundTripper
	rc   *responseChecker
}

func (ct *checkingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := ct.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(b))
	if err := ct.rc.check(req, resp, b); err != nil {
		ct.ts.t.Errorf("%s %s → %d does not match openapi.yaml: %v\nbody: %.400s", req.Method, req.URL.Path, resp.StatusCode, err, b)
	}
	ct.rc.count()
	return resp, nil
}

type responseChecker struct {
	doc    *openapi3.T
	router routers.Router
	mu     sync.Mutex
	n      int
}

func loadOpenAPI(t testing.TB) *openapi3.T {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(OpenAPI)
	if err != nil {
		t.Fatalf("openapi.yaml does not load: %v", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("openapi.yaml is not valid: %v", err)
	}
	return doc
}

func newResponseChecker(t testing.TB, serverURL string) *responseChecker {
	doc := loadOpenAPI(t)
	doc.Servers = openapi3.Servers{{URL: serverURL}}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return &responseChecker{doc: doc, router: router}
}

func (rc *responseChecker) count() { rc.mu.Lock(); rc.n++; rc.mu.Unlock() }

// check validates one response. Requests to paths or methods the document
// does not have (the 404 and 405 cases) must still answer the Error schema.
func (rc *responseChecker) check(req *http.Request, resp *http.Response, body []byte) error {
	route, params, err := rc.router.FindRoute(req)
	if err != nil {
		if resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusMethodNotAllowed {
			return fmt.Errorf("no route in the document and status %d: %v", resp.StatusCode, err)
		}
		if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
			return fmt.Errorf("Content-Type %q, want application/json", ct)
		}
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			return err
		}
		return rc.doc.Components.Schemas["Error"].Value.VisitJSON(v, openapi3.EnableJSONSchema2020())
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 resp.StatusCode,
		Header:                 resp.Header,
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	in.SetBodyBytes(body)
	return openapi3filter.ValidateResponse(context.Background(), in)
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }
func (s *syncBuffer) Reset()         { s.mu.Lock(); defer s.mu.Unlock(); s.b.Reset() }

// fakeValidator stands in for package report: it reads the file with
// yaml.v3 (so hostile YAML meets a real parser) and reports one finding per
// "# finding EGnnn" comment. Unreadable YAML is a 400 bad_yaml with the
// line yaml.v3 names; the target "nope" is unknown.
type fakeValidator struct {
	mu   sync.Mutex
	last ValidateRequest
	out  []byte // the last report returned
}

var yamlLineRE = regexp.MustCompile(`line (\d+)`)
var findingRE = regexp.MustCompile(`# finding (EG\d{3})`)

func (f *fakeValidator) read(req ValidateRequest) (string, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(req.Body, &doc); err != nil {
		e := &Error{Status: 400, Code: "bad_yaml", Message: err.Error()}
		if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
			e.Line, _ = strconv.Atoi(m[1])
		}
		return "", e
	}
	for _, t := range req.Targets {
		if t == "nope" {
			return "", &Error{Status: 400, Code: "unknown_target", Message: `unknown target "nope" (known: local, h100-pool)`}
		}
	}
	var declared string
	if len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode {
		m := doc.Content[0]
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == "name" && m.Content[i+1].Kind == yaml.ScalarNode {
				declared = m.Content[i+1].Value
			}
		}
	}
	return declared, nil
}

func (f *fakeValidator) Validate(ctx context.Context, req ValidateRequest) ([]byte, error) {
	declared, err := f.read(req)
	if err != nil {
		return nil, err
	}
	type finding struct {
		Code     string `json:"code"`
		Severity string `json:"severity"`
		Message  string `json:"message"`
		Line     int    `json:"line"`
		Column   int    `json:"column"`
	}
	findings := []finding{}
	for i, line := range strings.Split(string(req.Body), "\n") {
		if m := findingRE.FindStringSubmatch(line); m != nil {
			findings = append(findings, finding{m[1], "warning", "found " + m[1], i + 1, 1})
		}
	}
	targets := []map[string]any{}
	for _, t := range req.Targets {
		targets = append(targets, map[string]any{"name": t, "available": false, "reason": "described target", "gpus": []any{}, "verdict": "ok"})
	}
	rep := map[string]any{
		"file":     req.File,
		"name":     map[string]string{"declared": declared, "canonical": "pt21_cu121"},
		"stack":    map[string]any{"python": "3.10", "framework": map[string]string{"name": "pytorch", "version": "2.1.2", "variant": "cuda", "from": "conda"}},
		"targets":  targets,
		"findings": findings,
		"summary":  map[string]int{"errors": 0, "warnings": len(findings), "info": 0},
		"kb":       map[string]any{"date": "2026-11-30", "version": "v", "layers": []map[string]string{{"name": "embedded", "version": "v"}}},
		"platform": req.Platform,
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return nil, err
	}
	b = append(b, '\n')
	f.mu.Lock()
	f.last, f.out = req, b
	f.mu.Unlock()
	return b, nil
}

func (f *fakeValidator) Name(ctx context.Context, req ValidateRequest) (NameResult, error) {
	declared, err := f.read(req)
	if err != nil {
		return NameResult{}, err
	}
	return NameResult{Name: "pt21_cu121", Declared: declared}, nil
}

func (f *fakeValidator) lastRequest() (ValidateRequest, []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.last, f.out
}

// decodeError decodes the one error shape and fails on anything else.
func decodeError(t testing.TB, b []byte) *Error {
	t.Helper()
	var body struct {
		Error *Error `json:"error"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil || body.Error == nil {
		t.Fatalf("not the error shape (%v): %s", err, b)
	}
	return body.Error
}

var errBoom = errors.New("database password is hunter2")

func newRouteContext() *chi.Context { return chi.NewRouteContext() }
