package resolver

import (
	"strings"
	"testing"
)

// TestCondaDependencyByPyPIName: review twenty-two F15 (corpus 166, a pip
// freeze written as conda specs). conda-forge, the pytorch channel and
// defaults publish PyTorch as pytorch only, so a conda `torch` line finds
// no package; a channel the knowledge base does not speak for may have
// one, and a pip line is pip's name.
func TestCondaDependencyByPyPIName(t *testing.T) {
	for _, tt := range []struct {
		name, src, msg, hint string
	}{
		{"defaults", "channels:\n  - defaults\ndependencies:\n  - torch=2.0.1\n", "none of the channels the file lists (defaults) publishes a conda package called torch (its conda package is pytorch)", "write pytorch=2.0.1, or move the line under `- pip:` as torch==2.0.1"},
		{"range", "channels: [conda-forge, nodefaults]\ndependencies:\n  - torch>=2\n", "(conda-forge)", "write pytorch>=2, or move the line under `- pip:` as torch>=2"},
		{"channel written", "channels: [conda-forge]\ndependencies:\n  - pytorch::torch=2.1.0=py3*\n", "the channel it names (pytorch) publishes no conda package called torch", "write pytorch::pytorch=2.1.0=py3*, or move the line under `- pip:` as torch==2.1.0"},
		{"series", "channels: [conda-forge]\ndependencies:\n  - torch=2.0\n", "(conda-forge)", "write pytorch=2.0, or move the line under `- pip:` as torch==2.0.*"},
		{"glob and build", "channels: [conda-forge]\ndependencies:\n  - torch=*=*cuda*\n", "(conda-forge)", "write pytorch=*=*cuda*, or move the line under `- pip:` as torch"},
		{"unknown channel", "channels: [conda-forge, mychannel]\ndependencies:\n  - torch=2.0.1\n", "", ""},
		{"no channels", "dependencies:\n  - torch=2.0.1\n", "", ""},
		{"pip line", "channels: [conda-forge]\ndependencies:\n  - pip\n  - pip:\n    - torch==2.0.1\n", "", ""},
		{"conda name", "channels: [conda-forge]\ndependencies:\n  - pytorch=2.0.0\n", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := lintSrc(t, tt.src)
			var got []string
			for _, d := range findingsOf(ds, "EG205") {
				if strings.Contains(d.Message, "by its PyPI name") {
					got = append(got, d.Message+" | "+d.Hint)
					// the caret spans the item (line 4: "  - torch=2.0.1")
					if tt.name == "defaults" && (d.Pos.Col != 5 || d.EndCol != 16) {
						t.Errorf("columns %d…%d, want 5…16", d.Pos.Col, d.EndCol)
					}
				}
			}
			switch {
			case tt.msg == "" && len(got) > 0:
				t.Errorf("got %q, want no such EG205", got)
			case tt.msg != "" && (len(got) != 1 || !strings.Contains(got[0], tt.msg) || !strings.HasSuffix(got[0], " | "+tt.hint)):
				t.Errorf("got %q, want one EG205 with %q and hint %q", got, tt.msg, tt.hint)
			}
		})
	}
}

// TestCanonicalNameReviewTwentyThree: a conda-forge CUDA build of a series
// built for one CUDA alone is named by it (040: pytorch-gpu=2.9, whose
// builds are CUDA 12.9), and a release no channel the file lists built for
// its pinned CUDA gets no name (146: pytorch 2.7.1 with pytorch-cuda=11.8).
func TestCanonicalNameReviewTwentyThree(t *testing.T) {
	st, _ := lintSrc(t, "channels: [conda-forge, nodefaults]\ndependencies:\n  - python=3.12\n  - pytorch-gpu=2.9\n")
	if name, err := st.Canonical(); name != "pt29_cu129" {
		t.Errorf("pytorch-gpu=2.9: %q, %v; want pt29_cu129", name, err)
	}
	// a pin of another CUDA decides instead, or names none
	st, _ = lintSrc(t, "channels: [conda-forge, nodefaults]\ndependencies:\n  - python=3.12\n  - pytorch-gpu=2.9\n  - cuda-version=12.6\n")
	if name, _ := st.Canonical(); name == "pt29_cu129" {
		t.Errorf("pytorch-gpu=2.9 with cuda-version=12.6: %q, want no name from the only build", name)
	}
	st, _ = lintSrc(t, "channels: [pytorch, nvidia, conda-forge]\ndependencies:\n  - python=3.11\n  - pytorch=2.7.1\n  - pytorch-cuda=11.8\n")
	if name, err := st.Canonical(); name != "" || err == nil || !strings.Contains(err.Error(), "never published pytorch 2.7.1") {
		t.Errorf("pytorch 2.7.1 with pytorch-cuda=11.8: %q, %v; want no name, the release unpublished", name, err)
	}
}

// TestCanonicalNameReviewTwentyFive: conda's torchaudio built for CUDA
// 11.3 pulls pytorch 1.11.0 in before pip runs, so pip's torch==1.11.0
// finds it installed and does nothing (173: pt111_cu113, not PyPI's cu102
// wheel); and a Windows export known by conda's Visual C++ runtime, with
// no prefix, gets no name where PyPI's torch differs by platform (016).
func TestCanonicalNameReviewTwentyFive(t *testing.T) {
	st, ds := lintSrc(t, "channels: [pytorch, conda-forge]\ndependencies:\n  - python=3.10\n  - cudatoolkit=11.3.1\n  - pytorch-mutex=1.0=cuda\n  - torchaudio=0.11.0=py310_cu113\n  - pip\n  - pip:\n    - torch==1.11.0\n")
	if name, err := st.Canonical(); name != "pt111_cu113" {
		t.Errorf("173's shape: %q, %v; want pt111_cu113", name, err)
	}
	for _, code := range []string{"EG301", "EG302", "EG304"} {
		for _, d := range findingsOf(ds, code) {
			if strings.Contains(d.Message, "torch==1.11.0") {
				t.Errorf("%s on the pip torch line pip skips: %s", code, d.Message)
			}
		}
	}
	// another release under pip is a second install: conda's is not taken
	st, _ = lintSrc(t, "channels: [pytorch, conda-forge]\ndependencies:\n  - python=3.10\n  - cudatoolkit=11.3.1\n  - torchaudio=0.11.0=py310_cu113\n  - pip\n  - pip:\n    - torch==1.12.0\n")
	if name, _ := st.Canonical(); name == "pt111_cu113" {
		t.Errorf("pip torch==1.12.0 beside torchaudio 0.11.0: named %q from conda's", name)
	}
	st, _ = lintSrc(t, "channels: [pytorch, conda-forge]\ndependencies:\n  - python=3.10\n  - vc=14.42\n  - pip\n  - pip:\n    - torch==2.7.0\n")
	if name, err := st.Canonical(); name != "" || err == nil || !strings.Contains(err.Error(), "vc=14.42") {
		t.Errorf("016's shape: %q, %v; want no name, a Windows export", name, err)
	}
}

// TestCanonicalNameDefaultsBeforePytorchChannel: review twenty-six's 071.
// pytorch=1.9 with cudatoolkit=11.1 and defaults listed first stays
// unnamed (the defaults channel's 1.9 builds are not described), but the
// refusal says so and what the pytorch channel's build would be named.
func TestCanonicalNameDefaultsBeforePytorchChannel(t *testing.T) {
	st, _ := lintSrc(t, "channels: [defaults, pytorch]\ndependencies:\n  - python=3.9\n  - pytorch=1.9\n  - cudatoolkit=11.1\n")
	name, err := st.Canonical()
	if name != "" || err == nil || !strings.Contains(err.Error(), "comes from the defaults channel") || !strings.Contains(err.Error(), "pt19_cu111") {
		t.Errorf("%q, %v", name, err)
	}
	st, _ = lintSrc(t, "channels: [pytorch, defaults]\ndependencies:\n  - python=3.9\n  - pytorch=1.9\n  - cudatoolkit=11.1\n")
	if name, err := st.Canonical(); name != "pt19_cu111" {
		t.Errorf("pytorch channel first: %q, %v", name, err)
	}
}

// TestEG207DefaultsBeforeToolkitPin: review twenty-eight F1 (071). With
// defaults listed first and pytorch 1.9 unknown there, EG207 no longer
// says the build is picked per machine: on the pytorch channel the file's
// cudatoolkit selects the CUDA build everywhere, and the hint says how to
// get that channel's build.
func TestEG207DefaultsBeforeToolkitPin(t *testing.T) {
	_, ds := lintSrc(t, "channels: [defaults, pytorch]\ndependencies:\n  - python=3.9\n  - pytorch=1.9\n  - cudatoolkit=11.1\n")
	got := findingsOf(ds, "EG207")
	if len(got) != 1 || strings.Contains(got[0].Message, "on each machine") || !strings.Contains(got[0].Message, "cudatoolkit=11.1 (line 5) selects that channel's CUDA build, the same on every machine") || !strings.Contains(got[0].Hint, "list the pytorch channel before defaults") {
		t.Errorf("%+v", got)
	}
	// defaults' 2.x releases are known: the usual EG207
	_, ds = lintSrc(t, "channels: [defaults]\ndependencies:\n  - python=3.10\n  - pytorch=2.3.1\n")
	if got := findingsOf(ds, "EG207"); len(got) != 1 || !strings.Contains(got[0].Message, "on each machine") {
		t.Errorf("defaults 2.3.1: %+v", got)
	}
}
