package bare

import (
	"net/http/httptest"
	"strings"
	"testing"
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
