package report

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/finding"
)

// TestEG108HintHeldToKB checks review 4 #47 (corpus 008): EG108 proposes
// conda-forge alone only where the knowledge base's conda-forge rows do
// not say the file's pinned pytorch release is missing there; where they
// do, the hint names what can be done instead and the fix, which would
// drop the channel the release comes from, is not offered.
func TestEG108HintHeldToKB(t *testing.T) {
	file := func(pin string) []byte {
		return []byte("name: x\nchannels:\n  - conda-forge\n  - defaults\ndependencies:\n  - python=3.8\n  - " + pin + "\n")
	}
	tests := []struct {
		name     string
		pin      string
		has, not []string
		edits    bool
	}{
		{
			// conda-forge went from 1.1.0 to 1.6.0: no 1.3 on any branch
			name: "release conda-forge never built",
			pin:  "pytorch==1.3.1",
			has: []string{"conda-forge never built pytorch 1.3.1 (line 7)", "channel_priority strict",
				"the knowledge base lists it on the defaults channel, which the file already lists, and on the pytorch channel", "the nearest that fit the file: 1.6.0",
				// review thirty-four F39 (008): strict priority hides a
				// later channel's versions (conda-forge's python=3.6.11),
				// and whether defaults has the other pins is not known
				"so a version pinned that only a later channel has cannot be installed",
				"drop conda-forge instead, once you know that defaults has every other package and version the file pins"},
			not: []string{"use conda-forge alone and add", "where the file's other packages are on defaults too"},
		},
		{
			// review eleven #66 (corpus 008): with torchvision in the file,
			// 1.6.0 is no way out: conda-forge's torchvision goes from 0.2.1
			// to 0.8.2, so its 0.7.0 was never built there; 1.7.1's 0.8.2 was
			name: "release conda-forge never built, with torchvision",
			pin:  "pytorch==1.3.1\n  - torchvision=0.4.2",
			// and the torchvision that must move with it (review thirteen #66)
			has: []string{"conda-forge never built pytorch 1.3.1 (line 7)", "the nearest that fit the file: 1.7.1, with torchvision 0.8.2 for 1.7.1"},
			not: []string{"use conda-forge alone and add", "1.6.0"},
		},
		{
			// conda-forge skipped 2.0.1 (its 2.0 row lists 2.0.0 only)
			name: "release skipped within a series",
			pin:  "pytorch==2.0.1",
			has:  []string{"conda-forge never built pytorch 2.0.1", "2.0.0, 2.1.0"},
			not:  []string{"use conda-forge alone and add"},
		},
		{
			// review eleven #949 (corpus 116): conda-forge never built
			// tensorflow-gpu 1.13, which comes from defaults
			name: "tensorflow-gpu series conda-forge never built",
			pin:  "tensorflow-gpu=1.13",
			has:  []string{"conda-forge never built tensorflow-gpu =1.13 (1.13.1), so conda-forge alone cannot install the file: keep defaults in the channels for it"},
			not:  []string{"use conda-forge alone and add"},
		},
		{
			// review eleven #853 (corpus 104): conda-forge's cudnn went
			// from 8.9.7.29 to 9.2.1.18
			name: "cudnn release conda-forge never built",
			pin:  "cudnn=9.1",
			has:  []string{"conda-forge never built cudnn 9.1.* (its releases go from 8.9.7.29 to 9.2.1.18), so conda-forge alone cannot install the file"},
			not:  []string{"use conda-forge alone and add"},
		},
		{
			name:  "cudnn release conda-forge built",
			pin:   "cudnn=8.9",
			has:   []string{"use conda-forge alone"},
			not:   []string{"never built"},
			edits: true,
		},
		{
			name:  "release conda-forge built",
			pin:   "pytorch==1.13.1",
			has:   []string{"use conda-forge alone and add `nodefaults` to the channels"},
			not:   []string{"never built", "once you know"},
			edits: true,
		},
		{
			// no conda-forge row for the 2.14 series: unknown, not guessed
			name:  "series the knowledge base has no conda-forge row for",
			pin:   "pytorch==2.14.0",
			has:   []string{"once you know it has pytorch 2.14.0 (line 7)", "no conda-forge row for pytorch 2.14"},
			not:   []string{"never built"},
			edits: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Validate("environment.yml", file(tt.pin), Options{Platform: "linux-64"})
			var d *finding.Diagnostic
			for i, x := range r.Diagnostics() {
				if x.Code == "EG108" {
					d = &r.Diagnostics()[i]
				}
			}
			if d == nil {
				t.Fatal("no EG108")
			}
			for _, s := range tt.has {
				if !strings.Contains(d.Hint, s) {
					t.Errorf("hint %q lacks %q", d.Hint, s)
				}
			}
			for _, s := range tt.not {
				if strings.Contains(d.Hint, s) {
					t.Errorf("hint %q still says %q", d.Hint, s)
				}
			}
			if got := len(d.Edits) > 0; got != tt.edits {
				t.Errorf("EG108 has a fix: %v, want %v", got, tt.edits)
			}
		})
	}
}

// TestEG108HintChannelOrderAndExport: review twenty-one F45 (corpus 124).
// A file that already lists a channel that has the release before
// conda-forge is told only to set channel priority; a Windows export is
// not pointed at conda-forge releases, whose knowledge-base rows are
// linux-64's (conda-forge's 2.4.x skips Windows).
func TestEG108HintChannelOrderAndExport(t *testing.T) {
	eg108 := func(src string) *finding.Diagnostic {
		t.Helper()
		r := Validate("environment.yml", []byte(src), Options{Platform: "linux-64"})
		for i, x := range r.Diagnostics() {
			if x.Code == "EG108" {
				return &r.Diagnostics()[i]
			}
		}
		t.Fatalf("no EG108 in\n%s", src)
		return nil
	}
	d := eg108("name: x\nchannels:\n  - pytorch\n  - conda-forge\n  - defaults\ndependencies:\n  - python=3.9\n  - pytorch==2.0.1\n")
	if !strings.Contains(d.Hint, "the file already lists a channel that has it before conda-forge: set channel_priority strict") || strings.Contains(d.Hint, "list the channel that has it") {
		t.Errorf("pytorch listed first: hint %q", d.Hint)
	}
	if !strings.Contains(d.Hint, "the nearest that fit the file") {
		t.Errorf("linux-64 file: hint %q names no conda-forge release to move to", d.Hint)
	}
	// review thirty-one F43: strict priority orders the mix without
	// ending it; with conda-forge above defaults it takes from
	// conda-forge all it has (review forty-seven F33), so dropping either
	// ends it
	if !strings.Contains(d.Hint, "conda-forge is listed above defaults, so strict priority takes every package conda-forge has from it") || !strings.Contains(d.Hint, "drop one of the two, defaults (add `nodefaults`) or conda-forge") || strings.Contains(d.Hint, "what defaults lacks") {
		t.Errorf("conda-forge above defaults: hint %q", d.Hint)
	}
	d = eg108("name: x\nchannels:\n  - defaults\n  - conda-forge\ndependencies:\n  - python=3.9\n  - pytorch==2.0.1\n")
	if !strings.Contains(d.Hint, "strict priority still takes from conda-forge what defaults lacks, so to end the mixing drop conda-forge instead") {
		t.Errorf("defaults above conda-forge: hint %q does not say that dropping conda-forge ends the mixing", d.Hint)
	}
	d = eg108("name: x\nchannels:\n  - conda-forge\n  - defaults\ndependencies:\n  - python=3.9.16=h6244533_2\n  - pytorch==2.0.1\nprefix: C:\\Users\\me\\miniconda3\\envs\\x\n")
	if !strings.Contains(d.Hint, "list the channel that has it") {
		t.Errorf("conda-forge listed first: hint %q", d.Hint)
	}
	if strings.Contains(d.Hint, "the nearest that fit the file") || !strings.Contains(d.Hint, "names no conda-forge release to move to") {
		t.Errorf("Windows export: hint %q", d.Hint)
	}
}

// TestEG108HintPackageBesideFramework: review twenty-seven F34 (corpus
// 007). conda-forge never built tensorflow-gpu 1.13.1, which the file
// installs beside pytorch 1.1.0: conda-forge alone cannot install it,
// whatever the framework, and the hint says so instead of proposing it.
func TestEG108HintPackageBesideFramework(t *testing.T) {
	r := Validate("environment.yml", []byte("name: x\nchannels:\n  - pytorch\n  - conda-forge\n  - defaults\ndependencies:\n  - python=3.6\n  - pytorch=1.1.0\n  - tensorflow-gpu=1.13.1\n"), Options{Platform: "linux-64"})
	for _, d := range r.Diagnostics() {
		if d.Code != "EG108" {
			continue
		}
		// pytorch 1.1.0 was never a conda-forge pytorch either (only
		// pytorch-cpu): the framework leads, the package follows
		if !strings.Contains(d.Hint, "conda-forge never built pytorch 1.1.0 (line 8)") || !strings.Contains(d.Hint, "conda-forge never built tensorflow-gpu 1.13.1 (line 9) either") || strings.Contains(d.Hint, "use conda-forge alone and add") {
			t.Errorf("hint %q", d.Hint)
		}
		return
	}
	t.Fatal("no EG108")
}
