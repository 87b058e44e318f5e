package service_test

import (
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/service"
)

// A maintainer pastes a bug report's collect_env output: the service
// judges the environment on the machine the output describes, with no
// target of its own (pytorch/pytorch#112553: torch 2.1.0+cu121 on a CUDA
// 11.4 driver), whether or not the client names the format.
func TestValidateCollectEnv(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "lockfile", "testdata", "collectenv", "pytorch-112553-warning-first.txt"))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(api.NewRouter(service.Deps(service.Options{}), api.Config{Logger: slog.New(slog.DiscardHandler)}))
	t.Cleanup(ts.Close)
	for _, path := range []string{"/v1/validate", "/v1/validate?format=collect-env"} {
		resp, b := post(t, ts, path, "text/plain", src)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: status %d: %s", path, resp.StatusCode, b)
		}
		var r struct {
			Name    struct{ Canonical string } `json:"name"`
			Targets []struct {
				Name, Verdict string
			} `json:"targets"`
			Findings []struct{ Code, Target string } `json:"findings"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		eg401 := false
		for _, f := range r.Findings {
			eg401 = eg401 || f.Code == "EG401" && f.Target == "reported"
		}
		if r.Name.Canonical != "pt21_cu121" || len(r.Targets) != 1 || r.Targets[0].Name != "reported" || r.Targets[0].Verdict != "fail" || !eg401 {
			t.Errorf("%s: %s", path, b)
		}
	}
	// A body that is not collect_env under ?format=collect-env is a clear
	// error, not an environment read some other way.
	resp, b := post(t, ts, "/v1/validate?format=collect-env", "text/plain", []byte("numpy==1.26\n"))
	if resp.StatusCode == 200 {
		var r struct{ Findings []struct{ Code string } }
		_ = json.Unmarshal(b, &r)
		if len(r.Findings) == 0 || r.Findings[0].Code != "EG100" {
			t.Errorf("not collect_env: %d %s", resp.StatusCode, b)
		}
	}
}
