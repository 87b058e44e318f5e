package api

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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

// The service's request id is always its own (issue 22, N12): a client's
// X-Request-Id is never sent back, and is logged, as client_request_id and
// never as request_id, only when it matches [A-Za-z0-9._-]{8,128}. The ids
// are sent both through net/http's client and raw, so that bytes the
// client refuses to send (control characters, a folded line) reach the
// server too.
func TestRequestIDs(t *testing.T) {
	ts := newTestServer(t, &fakeValidator{})
	host, _ := os.Hostname()
	own := regexp.MustCompile(`^[A-Z2-7]{10}-[0-9]{6,}$`)
	long := strings.Repeat("a", 128)
	for _, tt := range []struct {
		sent string
		raw  bool // sent on a raw connection
		kept bool // logged as client_request_id
	}{
		{"abcdefgh", false, true},
		{"ci-job_1234.5", false, true},
		{long, false, true},
		{long + "a", false, false},
		{"a", false, false},
		{"abcdefg", false, false},
		{"has space in it", false, false},
		{"semi;colon;here", false, false},
		{"colon:colon:colon", false, false},
		{"", false, false},
		{"abc\x01defghij", true, false},
		{"abcdefgh\x7f", true, false},
		{"abcdefgh\r\n injected", true, false},
		{"abcdefgh\r\n\tfolded-line", true, false},
	} {
		sent, _ := strconv.Unquote(`"` + tt.sent + `"`)
		ts.logs.Reset()
		var got string
		if tt.raw {
			got = rawRequestID(t, ts.Listener.Addr().String(), sent)
		} else {
			var hdr []string
			if sent != "" {
				hdr = []string{"X-Request-Id", sent}
			}
			resp, _ := ts.do("GET", "/healthz", "", nil, hdr...)
			got = resp.Header.Get("X-Request-Id")
		}
		if tt.raw && got == "" && !strings.Contains(ts.logs.String(), `"msg":"request"`) {
			// net/http refused the header itself, before any handler ran:
			// nothing of it was answered or logged.
			if strings.Contains(ts.logs.String(), strings.TrimSpace(sent)) {
				t.Errorf("sent %q: logged: %s", sent, ts.logs.String())
			}
			continue
		}
		if !own.MatchString(got) || (sent != "" && strings.Contains(got, sent)) {
			t.Errorf("sent %q, got back X-Request-Id %q, want the service's own", sent, got)
		}
		if host != "" && strings.Contains(got, host) {
			t.Errorf("generated id %q names the host", got)
		}
		var line struct {
			Msg       string `json:"msg"`
			RequestID string `json:"request_id"`
			ClientID  string `json:"client_request_id"`
		}
		found := false
		for _, l := range strings.Split(ts.logs.String(), "\n") {
			if json.Unmarshal([]byte(l), &line) == nil && line.Msg == "request" {
				found = true
				break
			}
		}
		switch {
		case !found:
			t.Errorf("sent %q: no request line logged:\n%s", sent, ts.logs.String())
		case line.RequestID != got:
			t.Errorf("sent %q: logged request_id %q, answered %q", sent, line.RequestID, got)
		case tt.kept && line.ClientID != sent, !tt.kept && line.ClientID != "":
			t.Errorf("sent %q: logged client_request_id %q", sent, line.ClientID)
		}
		if !tt.kept && sent != "" && len(sent) > 1 && strings.Contains(ts.logs.String(), sent) {
			t.Errorf("sent %q: it is in the logs:\n%s", sent, ts.logs.String())
		}
	}
}

// rawRequestID sends GET /healthz with the header line "X-Request-Id: id"
// as bytes and returns the X-Request-Id answered ("" if there is none).
func rawRequestID(t *testing.T, addr, id string) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Request-Id: %s\r\nConnection: close\r\n\r\n", id)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("X-Request-Id %q: %v", id, err)
	}
	resp.Body.Close()
	return resp.Header.Get("X-Request-Id")
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
	if resp, _ := ts.from("127.0.0.2").do("POST", "/v1/validate", "application/yaml", []byte("name: second\n")); resp.StatusCode != 503 {
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
