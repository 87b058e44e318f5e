package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestValidateDirectory: a directory argument is searched for every input
// envguard reads; hidden directories, node_modules and a pyproject.toml
// without [tool.pixi] are not taken. A requirements file's -r includes are
// read relative to it, and their items are judged on the -r line.
func TestValidateDirectory(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"environment.yml":                 cleanEnv,
		"train/requirements.txt":          "--extra-index-url https://download.pytorch.org/whl/cu118\n-r base.txt\n",
		"train/base.txt":                  "torch==2.0.1\n",
		"serve/uv.lock":                   "version = 1\n[[package]]\nname = \"torch\"\nversion = \"2.0.1+cu118\"\nsource = { registry = \"https://download.pytorch.org/whl/cu118\" }\n",
		"serve/pyproject.toml":            "[project]\nname = \"serve\"\n",
		"pixi/pyproject.toml":             "[tool.pixi.workspace]\nchannels = [\"conda-forge\"]\nplatforms = [\"linux-64\"]\n[tool.pixi.dependencies]\npython = \"3.11.*\"\n",
		".venv/requirements.txt":          "torch\n",
		"node_modules/x/requirements.txt": "torch\n",
		"notes.txt":                       "not an input\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, stderr := egRun(t, "", "validate", "--platform", "linux-64", "--format", "json", dir)
	if code != 0 {
		t.Fatalf("exit %d, stderr %s\n%s", code, stderr, out)
	}
	var reports []struct {
		File string `json:"file"`
		Name struct {
			Canonical string `json:"canonical"`
		} `json:"name"`
		Findings []struct {
			Code string `json:"code"`
			Line int    `json:"line"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &reports); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var got []string
	for _, r := range reports {
		rel, _ := filepath.Rel(dir, r.File)
		got = append(got, filepath.ToSlash(rel)+" "+r.Name.Canonical)
	}
	want := []string{
		"environment.yml pt20_cu118",
		"pixi/pyproject.toml ",
		"serve/uv.lock pt20_cu118",
		"train/requirements.txt pt20_cu118",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("reports:\n got %q\nwant %q", got, want)
	}
	empty := t.TempDir()
	if code, _, stderr := egRun(t, "", "validate", empty); code != 2 || !strings.Contains(stderr, "uv.lock") {
		t.Errorf("empty directory: exit %d, stderr %q (want 2 and the formats envguard reads)", code, stderr)
	}
}

// TestValidateRequirementsInclude: the include is read from disk by the
// CLI, and a finding on an included requirement points at the -r line.
func TestValidateRequirementsInclude(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "base.txt"), []byte("torch==2.1.2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	req := filepath.Join(dir, "requirements.txt")
	if err := os.WriteFile(req, []byte("numpy\n-r base.txt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, _ := egRun(t, "", "validate", "--platform", "linux-64", "--format", "json", req)
	if !strings.Contains(out, `"code": "EG304"`) || !strings.Contains(out, `"line": 2`) {
		t.Errorf("want EG304 on line 2 (the -r line):\n%s", out)
	}
}
