package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/resolver/kb"
)

// TestReportNamesKB: a report names the knowledge it rests on, layer by
// layer, in JSON (kb), in SARIF (the run property kb) and in one line of
// text; EG206 names the layers it consulted with their dates.
func TestReportNamesKB(t *testing.T) {
	dir := t.TempDir()
	overlay := "date: \"2026-12-01\"\nsources:\n  - {key: TEST_OVERLAY, title: a test overlay}\n" +
		"gpus:\n  - {name: \"Test Accelerator 9000\", cc: \"9.0\", arch: Hopper, source: TEST_OVERLAY}\n"
	if err := os.WriteFile(filepath.Join(dir, "x.yaml"), []byte(overlay), 0o644); err != nil {
		t.Fatal(err)
	}
	k, err := kb.Stack(kb.Default(), kb.Overlay{Name: "--kb", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("name: x\ndependencies:\n  - python=3.12\n  - pip\n  - pip:\n      - torch==9.1.0\n")
	r := Validate("environment.yml", src, Options{Platform: "linux-64", KB: k})

	var got struct {
		KB KBInfo `json:"kb"`
	}
	if err := json.Unmarshal(r.JSON(), &got); err != nil {
		t.Fatal(err)
	}
	want := KBInfo{Date: "2026-12-01", Version: k.Version(), Layers: []KBLayer{
		{Name: "embedded", Date: kb.Default().Date, Version: kb.Default().Version()},
		{Name: "--kb", Date: "2026-12-01", Version: k.Layers()[1].Version},
	}}
	if g, _ := json.Marshal(got.KB); string(g) != mustJSON(t, want) {
		t.Errorf("kb = %s\nwant %s", g, mustJSON(t, want))
	}
	if bytes.Contains(r.JSON(), []byte(dir)) {
		t.Error("the report shows the layer's path")
	}

	var sf bytes.Buffer
	if err := WriteSARIF(&sf, []*Report{r}, testRuleDocs(), "test"); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, sf.Bytes())
	var log struct {
		Runs []struct {
			Properties struct {
				KB KBInfo `json:"envguard/kb"`
			} `json:"properties"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(sf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 || mustJSON(t, log.Runs[0].Properties.KB) != mustJSON(t, want) {
		t.Errorf("SARIF kb = %+v", log.Runs)
	}

	line := r.KB.Text()
	for _, w := range []string{"knowledge base dated 2026-12-01 (version " + k.Version() + ")", "embedded " + kb.Default().Date + " (version ", "; --kb 2026-12-01 (version "} {
		if !strings.Contains(line, w) {
			t.Errorf("text %q lacks %q", line, w)
		}
	}

	found := false
	for _, f := range r.Findings {
		if f.Code == "EG206" {
			found = true
			if w := "newer than the knowledge base (embedded " + kb.Default().Date + " + --kb 2026-12-01, newest pytorch"; !strings.Contains(f.Message, w) {
				t.Errorf("EG206 %q lacks %q", f.Message, w)
			}
		}
	}
	if !found {
		t.Errorf("no EG206 in %+v", r.Findings)
	}
	if r.KB.Release != nil {
		t.Errorf("release row for an unknown release: %+v", r.KB.Release)
	}

	// The framework release's row names its layer: the overlay's for a
	// row it replaced, the embedded one's otherwise.
	if err := os.WriteFile(filepath.Join(dir, "torch.yaml"), []byte(`torch:
  - {version: "2.5.1", torchvision: "0.20.1", torchaudio: "2.5.1", python: ["3.9", "3.10", "3.11", "3.12"], python_experimental: ["3.13"], source: "TEST_OVERLAY", note: "overlay row"}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	k2, err := kb.Stack(kb.Default(), kb.Overlay{Name: "--kb", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for v, layer := range map[string]string{"2.5.1": "--kb", "2.5.0": "embedded"} {
		src := []byte("name: x\ndependencies:\n  - python=3.12\n  - pip\n  - pip:\n      - torch==" + v + "\n")
		r := Validate("environment.yml", src, Options{Platform: "linux-64", KB: k2})
		if want := (&KBRow{Table: "torch", Key: v, Layer: layer}); r.KB.Release == nil || *r.KB.Release != *want {
			t.Errorf("torch %s: release row %+v, want %+v", v, r.KB.Release, want)
		}
		if !bytes.Contains(r.JSON(), []byte(`"release": {`)) {
			t.Errorf("torch %s: no release in the JSON", v)
		}
	}
	if r := Validate("environment.yml", []byte("name: x\ndependencies:\n  - pytorch=2.5.1\n"), Options{Platform: "linux-64"}); r.KB.Release != nil {
		t.Errorf("one layer, yet a release row: %+v", r.KB.Release)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
