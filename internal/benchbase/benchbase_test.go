package benchbase

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestHandler(t *testing.T) {
	h := Handler()
	for _, tt := range []struct {
		method, path, body string
		want               int
	}{
		{"POST", "/v1/validate", "name: x\ndependencies: [python=3.11]\n", 200},
		{"POST", "/v1/validate", "a: [unclosed\n", 400},
		{"POST", "/v1/validate", strings.Repeat("x", 1<<20+1), 400},
		{"GET", "/healthz", "", 200},
		{"GET", "/v1/validate", "", 405},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tt.method, tt.path, strings.NewReader(tt.body)))
		if rec.Code != tt.want {
			t.Errorf("%s %s (%d bytes) → %d, want %d", tt.method, tt.path, len(tt.body), rec.Code, tt.want)
		}
		if tt.want == 200 && tt.path == "/v1/validate" && rec.Body.String() != "{}\n" {
			t.Errorf("body %q", rec.Body.String())
		}
	}
}

// Hammer sends exactly n requests over c clients and sorts what it got
// into answers and errors by the caller's rule.
func TestHammerCountsAnswersAndErrors(t *testing.T) {
	var seen atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if seen.Add(1)%4 == 0 {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	l := Hammer(srv.Client(), srv.URL, 3, 40, time.Time{}, func(int) []byte { return []byte("a: 1\n") },
		func(s int) bool { return s == http.StatusOK })
	if l.Requests() != 40 || seen.Load() != 40 {
		t.Fatalf("%d requests recorded, %d received, want 40", l.Requests(), seen.Load())
	}
	if l.Errors["status 503"] != 10 || l.ErrorCount() != 10 {
		t.Fatalf("errors %v, want 10 x status 503", l.Errors)
	}
	if past := Hammer(srv.Client(), srv.URL, 2, 40, time.Now().Add(-time.Second), func(int) []byte { return nil },
		func(int) bool { return true }); past.Requests() != 0 {
		t.Fatalf("%d requests sent after the deadline", past.Requests())
	}
}
