package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/internal/kbstore"
	"github.com/envguard/envguard/report"
	"github.com/envguard/envguard/resolver/kb"
)

// partialBundle signs files (a few tables, not the whole KB) as a bundle.
func (f *kbFixture) partialBundle(serial uint64, date string, files map[string]string) string {
	f.t.Helper()
	m := map[string][]byte{}
	for n, b := range files {
		m[n] = []byte(b)
	}
	data, err := kbstore.Build(m, serial, date, "test-1", f.priv)
	if err != nil {
		f.t.Fatal(err)
	}
	p := filepath.Join(f.t.TempDir(), "kb-bundle.tar.gz")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		f.t.Fatal(err)
	}
	return p
}

func writeFiles(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const testSources = "sources:\n  - {key: TEST_LAYER, title: a test layer}\n"

// TestKBLayers: the downloaded bundle, the learned facts and --kb DIR add
// rows to the embedded KB in that order; kb status, the JSON report, the
// verbose text line and EG206 name the layers; a stale newest layer is
// one warning line; bad layers are named.
func TestKBLayers(t *testing.T) {
	f := newKBFixture(t)
	bundle := f.partialBundle(3, "2026-12-05", map[string]string{
		"meta.yaml": "date: \"2026-12-05\"\n" + testSources,
		"gpus.yaml": "gpus:\n  - {name: \"Test Accelerator 9000\", cc: \"9.0\", arch: Hopper, source: TEST_LAYER}\n",
	})
	if code, out, errs := f.run("kb", "update", "--from", bundle); code != 0 {
		t.Fatalf("update of a partial bundle: %d %s %s", code, out, errs)
	}
	// learned cites the source the downloaded layer brought.
	learned := filepath.Join(f.data, "envguard", "learned")
	writeFiles(t, learned, map[string]string{"torch.yaml": `torch:
  - {version: "2.5.1", torchvision: "0.20.1", torchaudio: "2.5.1", python: ["3.9", "3.10", "3.11", "3.12"], python_experimental: ["3.13"], source: "TEST_LAYER", note: "learned row"}
`})
	dir := writeFiles(t, filepath.Join(t.TempDir(), "kb"), map[string]string{"meta.yaml": "date: \"2026-12-07\"\n"})

	code, out, errs := f.run("--kb", dir, "kb", "status", "--json")
	if code != 0 {
		t.Fatalf("status: %d %s", code, errs)
	}
	var st struct {
		Date    string
		Layers  []kbLayer
		Warning string
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range st.Layers {
		names = append(names, l.Name)
		if !l.InUse {
			t.Errorf("layer %s not in use", l.Name)
		}
	}
	if strings.Join(names, " ") != "embedded downloaded learned --kb" || st.Date != "2026-12-07" || st.Warning != "" {
		t.Fatalf("status: %s", out)
	}
	if c := st.Layers[1].Counts; c["gpus"] != 1 || c["sources"] != 1 || st.Layers[1].Serial != 3 {
		t.Errorf("downloaded layer: %+v", st.Layers[1])
	}
	if c := st.Layers[2].Counts; c["torch"] != 1 || st.Layers[2].Path != learned || st.Layers[0].Counts["torch"] != len(kb.Default().Torch)-1 {
		t.Errorf("learned layer: %+v; embedded torch %d", st.Layers[2], st.Layers[0].Counts["torch"])
	}

	envFile := filepath.Join(t.TempDir(), "environment.yml")
	os.WriteFile(envFile, []byte("name: x\ndependencies:\n  - python=3.12\n  - pip\n  - pip:\n      - torch==9.1.0\n"), 0o644)
	_, out, errs = f.run("--kb", dir, "validate", "--format", "json", envFile)
	var reps []report.Report
	if err := json.Unmarshal([]byte(out), &reps); err != nil || len(reps) != 1 {
		t.Fatalf("json: %v\n%s%s", err, out, errs)
	}
	var layerNames []string
	for _, l := range reps[0].KB.Layers {
		layerNames = append(layerNames, l.Name+" "+l.Date)
	}
	if got := strings.Join(layerNames, ", "); got != "embedded "+kb.Default().Date+", downloaded 2026-12-05, learned , --kb 2026-12-07" || reps[0].KB.Layers[1].Serial != 3 {
		t.Errorf("json kb layers: %s (%+v)", got, reps[0].KB)
	}
	eg206 := ""
	for _, fd := range reps[0].Findings {
		if fd.Code == "EG206" {
			eg206 = fd.Message
		}
	}
	if w := "(embedded " + kb.Default().Date + " + downloaded 2026-12-05 + learned undated + --kb 2026-12-07, newest pytorch"; !strings.Contains(eg206, w) {
		t.Errorf("EG206 %q lacks %q", eg206, w)
	}

	_, out, _ = f.run("--kb", dir, "validate", "--verbose", envFile)
	if !strings.Contains(out, "\nknowledge base dated 2026-12-07 (version ") || !strings.Contains(out, "; downloaded 2026-12-05 (serial 3, version ") || strings.Contains(out, "warning: the knowledge base") {
		t.Errorf("--verbose:\n%s", out)
	}
	_, out, _ = f.run("validate", envFile)
	if strings.Contains(out, "knowledge base dated") {
		t.Errorf("without --verbose:\n%s", out)
	}

	// 61 days after the newest layer: one warning line, from the clock.
	f.now = f.now.AddDate(0, 0, 58)
	if _, out, _ := f.run("--kb", dir, "validate", envFile); strings.Count(out, "warning: the knowledge base in use is 61 days old (newest layer: --kb, dated 2026-12-07, more than 60): run envguard kb update\n") != 1 {
		t.Errorf("stale:\n%s", out)
	}
	if _, out, _ := f.run("--kb", dir, "validate", "--format", "json", envFile); strings.Contains(out, "warning: the knowledge base") || !strings.HasPrefix(out, "[") {
		t.Errorf("the stale line in JSON:\n%s", out)
	}

	// A bad learned layer is named and left out; a bad --kb DIR is an error
	// at its file and line.
	writeFiles(t, learned, map[string]string{"bad.yaml": "gpus:\n  - {name: B, cc: \"nine\", arch: Hopper, source: TEST_LAYER}\n"})
	code, out, errs = f.run("validate", "--format", "json", envFile)
	if code != 0 || !strings.Contains(errs, "warning: ignoring the learned knowledge in "+learned) || !strings.Contains(errs, "bad.yaml:2: gpus[") || strings.Contains(out, `"learned"`) {
		t.Errorf("bad learned layer: %d\n%s%s", code, out, errs)
	}
	os.Remove(filepath.Join(learned, "bad.yaml"))
	writeFiles(t, dir, map[string]string{"x.yaml": "torch:\n  - {version: \"2.5.1\", colour: red}\n"})
	if code, _, errs := f.run("--kb", dir, "validate", envFile); code != ExitUsage || !strings.Contains(errs, "/x.yaml:2: field colour not found") {
		t.Errorf("bad --kb: %d %s", code, errs)
	}

	// A bundle whose rows do not validate on the embedded KB is refused.
	bad := f.partialBundle(4, "2026-12-08", map[string]string{"gpus.yaml": "gpus:\n  - {name: C, cc: \"9.0\", arch: Hopper, source: NOWHERE}\n"})
	if code, _, errs := f.run("kb", "update", "--from", bad); code != ExitUsage || !strings.Contains(errs, "cites no key") {
		t.Errorf("bad partial bundle: %d %s", code, errs)
	}

	// serve --kb-refresh stacks the new bundle under the learned layer.
	vars := map[string]string{"XDG_DATA_HOME": f.data}
	e := &env{stderr: &strings.Builder{}, getenv: func(k string) string { return vars[k] }, keys: &f.keys}
	k, err := e.refreshKB(context.Background(), f.partialBundle(5, "2026-12-09", map[string]string{"meta.yaml": "date: \"2026-12-09\"\n" + testSources}))
	if err != nil || k == nil {
		t.Fatalf("refresh: %v", err)
	}
	if ls := k.Layers(); len(ls) != 3 || ls[1].Serial != 5 || ls[2].Name != "learned" || k.Date != "2026-12-09" {
		t.Errorf("refreshed layers %+v", ls)
	}
	if r, _ := k.Release("2.5.1"); r.Note != "learned row" {
		t.Errorf("refreshed 2.5.1: %+v", r)
	}
}

// TestLearnedKBDir: the hook kb learn writes under, and the layer it reads.
func TestLearnedKBDir(t *testing.T) {
	data := t.TempDir()
	e := &env{getenv: func(k string) string { return map[string]string{"XDG_DATA_HOME": data}[k] }}
	want := filepath.Join(data, "envguard", "learned")
	if e.learnedKBPath() != want || e.learnedKBDir() != "" {
		t.Errorf("path %q dir %q before learning", e.learnedKBPath(), e.learnedKBDir())
	}
	writeFiles(t, want, map[string]string{"notes.txt": "x"})
	if e.learnedKBDir() != "" {
		t.Error("a directory without *.yaml is a layer")
	}
	writeFiles(t, want, map[string]string{"a.yaml": "date: \"2026-12-01\"\n"})
	if e.learnedKBDir() != want {
		t.Errorf("dir %q", e.learnedKBDir())
	}
	home := &env{getenv: func(k string) string { return map[string]string{"HOME": "/h"}[k] }}
	if home.learnedKBPath() != "/h/.local/share/envguard/learned" {
		t.Errorf("HOME: %q", home.learnedKBPath())
	}
	if (&env{getenv: func(string) string { return "" }}).learnedKBPath() != "" {
		t.Error("no HOME, no XDG_DATA_HOME: a path")
	}
}
