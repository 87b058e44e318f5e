package report

import (
	"strings"
	"testing"
)

// A file not read whole is never ok: the part not read may install a
// GPU-code package (review ten: corpus 171 and 172, invalid YAML, and 168,
// a dependencies: mapping, read ok on every target; so did pytorch='2.1'
// and a pip torch=2.1.0, whose framework was dropped). Where conda or pip
// refuses the file itself (invalid YAML, a key of a shape conda refuses, a
// pip line pip stops at), every target fails on it (review fifty-four
// F42); an item conda may read otherwise (EG103) leaves the targets
// unknown. What the part read fails still fails.
func TestUnreadFileIsNotOK(t *testing.T) {
	hosts := targetHosts(t, "targets:\n  - name: h100\n    driver: \"570.124.06\"\n    compute_capabilities: [\"9.0\"]\n  - name: k80\n    driver: \"470.82.01\"\n    compute_capabilities: [\"3.7\"]\n")
	for _, tt := range []struct {
		name, src, why string
		refused        bool
		verdicts       map[string]string
	}{
		{"invalid YAML", "name: x\ndependencies:\n  - pytorch=2.1\n  torch\n", "the file is not valid YAML (EG100, line", true, map[string]string{"h100": "fail", "k80": "fail"}},
		{"dependencies a mapping", "name: x\ndependencies:\n  pip:\n    - torch==2.1.0\n", "part of the file has a shape conda refuses (EG101, line 3)", true, map[string]string{"h100": "fail", "k80": "fail"}},
		{"conda spec with quotes", "name: x\nchannels: [pytorch, nvidia]\ndependencies:\n  - python=3.10\n  - pytorch='2.1'\n", "the item on line 5 is not a valid conda spec (EG103)", false, map[string]string{"h100": "unknown", "k80": "unknown"}},
		// the CUDA 12.1 runtime the file does read still fails the K80
		{"conda spec with quotes beside pytorch-cuda", "name: x\nchannels: [pytorch, nvidia]\ndependencies:\n  - python=3.10\n  - pytorch='2.1'\n  - pytorch-cuda=12.1\n", "the item on line 5 is not a valid conda spec (EG103)", false, map[string]string{"h100": "unknown", "k80": "fail"}},
		{"pip torch=2.1.0", "name: x\ndependencies:\n  - python=3.10\n  - pip\n  - pip:\n    - torch=2.1.0\n", "the pip line on line 6 is not a valid requirement (EG104): pip stops there before installing anything of the pip section", true, map[string]string{"h100": "fail", "k80": "fail"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := Validate("environment.yml", []byte(tt.src), Options{Platform: "linux-64", Hosts: hosts})
			for _, tr := range r.Targets {
				if want := tt.verdicts[tr.Name]; string(tr.Verdict) != want {
					t.Errorf("target %s: %s, want %s", tr.Name, tr.Verdict, want)
				}
				found := strings.Contains(tr.Uninstallable, tt.why)
				if !tt.refused {
					found = false
					for _, u := range tr.Undecided {
						found = found || (u.Reason == "file-not-read" && strings.Contains(u.Why, tt.why))
					}
				}
				if !found {
					t.Errorf("target %s: uninstallable %q, undecided %+v: lacks %q", tr.Name, tr.Uninstallable, tr.Undecided, tt.why)
				}
			}
			n := 0
			for _, f := range r.Findings {
				if f.Code == "EG409" && strings.Contains(f.Message, "could not check everything the file installs against target") {
					n++
				}
			}
			if want := len(r.Targets); tt.refused {
				if n != 0 {
					t.Errorf("%d EG409 on a file conda or pip refuses, want none: the targets fail", n)
				}
			} else if n != want {
				t.Errorf("%d EG409 on the unread file, want one per target (%d)", n, want)
			}
		})
	}
	// a file read whole has no such finding
	r := Validate("environment.yml", []byte("name: x\ndependencies:\n  - python=3.10\n  - numpy\n"), Options{Platform: "linux-64", Hosts: hosts})
	for _, tr := range r.Targets {
		if tr.Verdict != "ok" || len(tr.Undecided) > 0 {
			t.Errorf("target %s of a file read whole: %s %+v", tr.Name, tr.Verdict, tr.Undecided)
		}
	}
}
