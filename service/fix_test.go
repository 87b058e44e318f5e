package service_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/internal/testshared"
)

// The seed environment fixed through POST /v1/fix: the CUDA pin and the
// name, comments kept, the diff beside it, EG302 left for --unsafe.
func TestFixEndpoint(t *testing.T) {
	ts := newServer(t)
	seed, err := os.ReadFile("../fixer/testdata/fix/seed/before.yml")
	if err != nil {
		t.Fatal(err)
	}
	fix := func(query string, body []byte) (int, api.FixResult, errorJSON) {
		t.Helper()
		resp, b := post(t, ts, "/v1/fix"+query, "application/yaml", body)
		var res api.FixResult
		var e errorJSON
		if resp.StatusCode == 200 {
			if err := json.Unmarshal(b, &res); err != nil {
				t.Fatal(err)
			}
		} else if err := json.Unmarshal(b, &e); err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, res, e
	}

	status, res, _ := fix("?platform=linux-64", seed)
	if status != 200 {
		t.Fatalf("status %d", status)
	}
	for _, want := range []string{"name: train   # picked by hand", "nvidia::cudatoolkit=11.6  # the driver on the old nodes", "# Training environment"} {
		if !strings.Contains(res.Fixed, want) {
			t.Errorf("fixed file lacks %q:\n%s", want, res.Fixed)
		}
	}
	if strings.Contains(res.Diff, "-name: train") || !strings.Contains(res.Diff, "+  - nvidia::cudatoolkit=11.6") {
		t.Errorf("diff:\n%s", res.Diff)
	}
	// the rename (EG501) is unsafe: it changes how people activate the environment
	if len(res.Applied) != 1 || res.Remaining != 1 || len(res.Skipped) != 2 || res.Skipped[0].Code != "EG501" || res.Skipped[1].Code != "EG302" {
		t.Errorf("applied %+v skipped %+v remaining %d", res.Applied, res.Skipped, res.Remaining)
	}

	if _, res, _ = fix("?platform=linux-64&unsafe=1", seed); res.Remaining != 0 || strings.Contains(res.Fixed, "cupy-cuda12x") {
		t.Errorf("unsafe: remaining %d\n%s", res.Remaining, res.Fixed)
	}
	if _, res, _ = fix("?platform=linux-64&unsafe=1&select=EG501", seed); len(res.Applied) != 1 || !strings.Contains(res.Fixed, "cudatoolkit=11.3") {
		t.Errorf("select=EG501 applied %+v", res.Applied)
	}
	if _, res, _ = fix("", []byte("name: tools\nchannels: [conda-forge]\ndependencies: [numpy]\n")); res.Diff != "" || len(res.Applied) != 0 {
		t.Errorf("nothing to fix, yet %+v", res)
	}
	if status, _, e := fix("?select=EG401", seed); status != 400 || !strings.Contains(e.Error.Message, "no automatic fix") {
		t.Errorf("select=EG401: %d %+v", status, e)
	}
	if status, _, e := fix("?format=uv-lock", []byte("version = 1\n")); status != 400 || e.Error.Code != "not_fixable" {
		t.Errorf("a lock file: %d %+v", status, e)
	}
	if status, _, e := fix("", []byte("name: [unclosed\n")); status != 400 || e.Error.Code != "bad_yaml" {
		t.Errorf("bad YAML: %d %+v", status, e)
	}
}

// Every real-world file through POST /v1/fix: a 200 (or a 4xx), never a
// 5xx, whose fixed text, applied to the file again, changes nothing.
func TestFixEndpointCorpus(t *testing.T) {
	ts := newServer(t)
	for _, f := range testshared.Corpus(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		resp, b := post(t, ts, "/v1/fix?unsafe=1&platform=linux-64&file="+name, "application/yaml", src)
		if resp.StatusCode >= 500 {
			t.Errorf("%s: %d %.300s", name, resp.StatusCode, b)
			continue
		}
		if resp.StatusCode != 200 {
			continue
		}
		var res api.FixResult
		if err := json.Unmarshal(b, &res); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if (res.Diff == "") != (res.Fixed == string(src)) {
			t.Errorf("%s: diff %q but the fixed text %s", name, res.Diff, map[bool]string{true: "is the file", false: "differs"}[res.Fixed == string(src)])
		}
		resp, b = post(t, ts, "/v1/fix?unsafe=1&platform=linux-64&file="+name, "application/yaml", []byte(res.Fixed))
		var again api.FixResult
		if err := json.Unmarshal(b, &again); err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s, fixed: %d %v", name, resp.StatusCode, err)
		}
		if again.Diff != "" || len(again.Applied) != 0 {
			t.Errorf("%s: a second fix changed the file again:\n%s", name, again.Diff)
		}
	}
}
