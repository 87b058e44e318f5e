package api

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestFix(t *testing.T) {
	t.Run("no fixer", func(t *testing.T) {
		ts := newTestServer(t, &fakeValidator{})
		resp, b := ts.do("POST", "/v1/fix", "application/yaml", readTestdata(t, "gpu-env.yml"))
		if e := decodeError(t, b); resp.StatusCode != 501 || e.Code != "not_implemented" {
			t.Errorf("status %d %+v", resp.StatusCode, e)
		}
	})
	var got FixRequest
	fixer := FixerFunc(func(ctx context.Context, r FixRequest) (FixResult, error) {
		got = r
		return FixResult{
			Fixed: "name: pt21_cu121\n", Diff: "--- a/x\n+++ b/x\n",
			Applied: []FixApplied{{Code: "EG501", Line: 1, Column: 7, Message: "name"}}, Remaining: 2,
		}, nil
	})
	ts := newTestServerWith(t, Deps{Fixer: fixer}, Config{})
	tests := []struct {
		name, path, ct, body string
		status               int
		code                 string
		unsafe               bool
		sel                  []string
	}{
		{"yaml body", "/v1/fix?file=train.yml", "application/yaml", "name: x\n", 200, "", false, nil},
		{"unsafe and select", "/v1/fix?unsafe=1&select=eg201,EG501&select=EG105", "application/yaml", "name: x\n", 200, "", true, []string{"EG201", "EG501", "EG105"}},
		{"json body", "/v1/fix?unsafe=true", "application/json", `{"environment": "name: x\n", "file": "e.yml"}`, 200, "", true, nil},
		{"bad unsafe", "/v1/fix?unsafe=yes", "application/yaml", "name: x\n", 400, "bad_request", false, nil},
		{"empty body", "/v1/fix", "application/yaml", "", 400, "empty_body", false, nil},
		{"wrong type", "/v1/fix", "image/png", "x", 415, "unsupported_media_type", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got = FixRequest{}
			resp, b := ts.do("POST", tt.path, tt.ct, []byte(tt.body))
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.status, b)
			}
			if tt.status != 200 {
				if e := decodeError(t, b); e.Code != tt.code {
					t.Errorf("code %q, want %q", e.Code, tt.code)
				}
				return
			}
			var res FixResult
			if err := json.Unmarshal(b, &res); err != nil {
				t.Fatal(err)
			}
			if got.Unsafe != tt.unsafe || !reflect.DeepEqual(got.Select, tt.sel) {
				t.Errorf("request unsafe=%v select=%v, want %v %v", got.Unsafe, got.Select, tt.unsafe, tt.sel)
			}
			if res.File != got.File || res.Fixed != "name: pt21_cu121\n" || res.Remaining != 2 || len(res.Applied) != 1 || res.Skipped == nil {
				t.Errorf("response %+v (request file %q)", res, got.File)
			}
		})
	}
}

// /v1/fix sits behind /v1/validate's limits: the body limit, and a select
// list bounded in length and count before the body is read.
func TestFixLimits(t *testing.T) {
	called := false
	fixer := FixerFunc(func(ctx context.Context, r FixRequest) (FixResult, error) {
		called = true
		return FixResult{}, nil
	})
	ts := newTestServerWith(t, Deps{Fixer: fixer}, Config{MaxBody: 1000})
	tests := []struct {
		name, path, body string
		status           int
		code, msg        string
	}{
		{"too large", "/v1/fix", "name: x\n" + strings.Repeat("# pad\n", 400), 413, "body_too_large", "limit"},
		{"too many codes", "/v1/fix?select=" + strings.Repeat("EG201,", 65), "name: x\n", 400, "bad_request", "too many codes"},
		{"long code", "/v1/fix?select=" + strings.Repeat("E", 40), "name: x\n", 400, "bad_request", "longer than"},
		{"control character", "/v1/fix?select=EG%0A201", "name: x\n", 400, "bad_request", "control character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			called = false
			resp, b := ts.do("POST", tt.path, "application/yaml", []byte(tt.body))
			e := decodeError(t, b)
			if resp.StatusCode != tt.status || e.Code != tt.code || !strings.Contains(e.Message, tt.msg) {
				t.Errorf("status %d %+v, want %d %s %q", resp.StatusCode, e, tt.status, tt.code, tt.msg)
			}
			if called {
				t.Errorf("the fixer ran on a refused request")
			}
		})
	}
}
