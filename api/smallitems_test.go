package api

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A compressed body is refused: it would be judged as the compressed bytes.
func TestContentEncoding(t *testing.T) {
	ts := newTestServer(t, &fakeValidator{})
	for _, tt := range []struct {
		enc    string
		status int
	}{
		{"", 200}, {"identity", 200}, {"gzip", 415}, {"identity, br", 415},
	} {
		var hdr []string
		if tt.enc != "" {
			hdr = []string{"Content-Encoding", tt.enc}
		}
		resp, b := ts.do("POST", "/v1/validate", "application/yaml", []byte("name: x\n"), hdr...)
		if resp.StatusCode != tt.status {
			t.Errorf("Content-Encoding %q: %d %s", tt.enc, resp.StatusCode, b)
		}
		if tt.status == 415 && decodeError(t, b).Code != "unsupported_media_type" {
			t.Errorf("Content-Encoding %q: %s", tt.enc, b)
		}
	}
}

// A client's request id is kept when it is well formed and replaced
// otherwise; generated ids do not carry the host name.
func TestRequestIDs(t *testing.T) {
	ts := newTestServer(t, &fakeValidator{})
	host, _ := os.Hostname()
	for _, tt := range []struct {
		sent string
		kept bool
	}{
		{"abc-123_x.y:z", true},
		{strings.Repeat("a", 64), true},
		{strings.Repeat("a", 65), false},
		{"has space", false},
		{"semi;colon", false},
		{"", false},
	} {
		var hdr []string
		if tt.sent != "" {
			hdr = []string{"X-Request-Id", tt.sent}
		}
		resp, _ := ts.do("GET", "/healthz", "", nil, hdr...)
		got := resp.Header.Get("X-Request-Id")
		if (got == tt.sent) != tt.kept || got == "" || len(got) > maxRequestIDLen || !validRequestID(got) {
			t.Errorf("sent %q, got back %q", tt.sent, got)
		}
		if !tt.kept && host != "" && strings.Contains(got, host) {
			t.Errorf("generated id %q names the host", got)
		}
	}
}

// HEAD is answered on GET routes, without a body. (openapi.yaml lists no
// HEAD operations, so the checking client is not used here.)
func TestHead(t *testing.T) {
	ts := newTestServer(t, &fakeValidator{})
	for _, path := range []string{"/healthz", "/v1/targets", "/openapi.yaml"} {
		resp, err := ts.Client().Head(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || len(b) != 0 {
			t.Errorf("HEAD %s: %d with %d bytes", path, resp.StatusCode, len(b))
		}
	}
}

// Load shedding is logged as a warning, not an error.
func TestShedLoggedAsWarning(t *testing.T) {
	entered, release := make(chan struct{}, 1), make(chan struct{})
	v := ValidatorFuncs{ValidateFunc: func(ctx context.Context, req ValidateRequest) ([]byte, error) {
		entered <- struct{}{}
		<-release
		return (&fakeValidator{}).Validate(ctx, req)
	}}
	ts := newTestServerWith(t, Deps{Validator: v}, Config{MaxConcurrent: 1, QueueWait: time.Millisecond})
	done := make(chan struct{})
	go func() {
		defer close(done)
		ts.do("POST", "/v1/validate", "application/yaml", []byte("name: first\n"))
	}()
	<-entered
	if resp, _ := ts.do("POST", "/v1/validate", "application/yaml", []byte("name: second\n")); resp.StatusCode != 503 {
		t.Errorf("second request: %d", resp.StatusCode)
	}
	close(release)
	<-done
	for _, l := range strings.Split(ts.logs.String(), "\n") {
		if strings.Contains(l, `"msg":"request failed"`) && strings.Contains(l, `"status":503`) && !strings.Contains(l, `"level":"WARN"`) {
			t.Errorf("503 logged as %s", l)
		}
	}
	if !strings.Contains(ts.logs.String(), `"level":"WARN","msg":"request failed"`) {
		t.Errorf("no warning for the 503:\n%s", ts.logs.String())
	}
}

func TestConfigWarnings(t *testing.T) {
	dir := t.TempDir()
	open, closed := filepath.Join(dir, "open"), filepath.Join(dir, "closed")
	for p, mode := range map[string]os.FileMode{open: 0o644, closed: 0o600} {
		if err := os.WriteFile(p, []byte("tok\n"), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		name string
		cfg  Config
		says string
	}{
		{"loopback", Config{Addr: "127.0.0.1:8080"}, ""},
		{"public and insecure", Config{Addr: "0.0.0.0:8080", Insecure: true}, "without a token"},
		{"public with a private token", Config{Addr: "0.0.0.0:8080", TokenFile: closed}, ""},
		{"a world-readable token", Config{Addr: "0.0.0.0:8080", TokenFile: open}, "readable by every user"},
	} {
		got := strings.Join(configWarnings(tt.cfg), "; ")
		if (tt.says == "") != (got == "") || !strings.Contains(got, tt.says) {
			t.Errorf("%s: warnings %q, want %q", tt.name, got, tt.says)
		}
	}
}
