package resolver

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/resolver/kb"
)

// TestEG205IndexOtherProject: apex==0.1 (what `conda env export` writes for
// NVIDIA's apex built from git) is not a release of the package index's
// apex, an unrelated project: pip finds no matching distribution. Not
// where a find-links page may serve it, not for a git URL, not for a
// release the index's project has.
func TestEG205IndexOtherProject(t *testing.T) {
	for _, tt := range []struct {
		name, pip string
		want      bool
	}{
		{"pinned", "    - torch==2.5.1\n    - apex==0.1\n", true},
		{"torch index only", "    - --extra-index-url https://download.pytorch.org/whl/cu124\n    - apex==0.1\n", true},
		{"find-links", "    - -f https://example.org/apexwheels/download.html\n    - apex==0.1\n", false},
		{"git url", "    - apex @ git+https://github.com/NVIDIA/apex\n", false},
		{"index release", "    - apex==0.9.10.dev0\n", false},
		{"unpinned", "    - apex\n", false},
	} {
		src := "dependencies:\n  - python=3.10\n  - pip\n  - pip:\n" + tt.pip
		got := false
		for _, d := range lintWith(t, kb.Default(), src) {
			if d.Code == "EG205" && strings.Contains(d.Message, "apex") {
				got = true
				if !strings.Contains(d.Message, "0.9.10.dev0") || !strings.Contains(d.Message, "No matching distribution found for apex==0.1") || !strings.Contains(d.Hint, "NVIDIA/apex") {
					t.Errorf("%s: message/hint lacks the releases or the fix: %s / %s", tt.name, d.Message, d.Hint)
				}
			}
		}
		if got != tt.want {
			t.Errorf("%s: EG205 on apex %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestEG205NoIndexProject: the package index has no detectron2 project
// (its wheels are on the project's own pages only): detectron2==0.2 with no
// such page installs nothing (corpus 120), while a find-links page may
// serve it.
func TestEG205NoIndexProject(t *testing.T) {
	for _, tt := range []struct {
		name, pip string
		want      bool
	}{
		{"pinned", "    - detectron2==0.2\n", true},
		{"its own page", "    - -f https://dl.fbaipublicfiles.com/detectron2/wheels/cu101/torch1.5/index.html\n    - detectron2==0.2\n", false},
	} {
		src := "dependencies:\n  - python=3.7\n  - pip\n  - pip:\n" + tt.pip
		got := false
		for _, d := range lintWith(t, kb.Default(), src) {
			if d.Code == "EG205" && strings.Contains(d.Message, "detectron2") {
				got = strings.Contains(d.Message, "the package index has no detectron2 project") && strings.Contains(d.Hint, "with -f")
			}
		}
		if got != tt.want {
			t.Errorf("%s: EG205 on detectron2 %v, want %v", tt.name, got, tt.want)
		}
	}
}
