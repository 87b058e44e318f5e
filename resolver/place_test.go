package resolver

import (
	"testing"

	"github.com/envguard/envguard/finding"
)

// Items of an installed prefix have no line: messages name their file.
func TestPlace(t *testing.T) {
	for _, tt := range []struct {
		p    finding.Pos
		want string
	}{
		{finding.Pos{File: "environment.yml", Line: 7, Col: 5}, "line 7"},
		{finding.Pos{File: "/opt/env/conda-meta/pytorch-2.1.2-py3.10_cuda12.1_0.json"}, "conda-meta/pytorch-2.1.2-py3.10_cuda12.1_0.json"},
		{finding.Pos{File: "/opt/env/lib/python3.10/site-packages/torch-2.1.2.dist-info/METADATA"}, "torch-2.1.2.dist-info/METADATA"},
		{finding.Pos{}, "no line"},
	} {
		if got := place(tt.p); got != tt.want {
			t.Errorf("place(%+v) = %q, want %q", tt.p, got, tt.want)
		}
	}
}

// There is no cudatoolkit 12: the fix for a CUDA 12 build is cuda-version.
func TestFixCUDACudatoolkit12(t *testing.T) {
	e := Evidence{Kind: EvidenceCudatoolkit, Package: "cudatoolkit", Says: "11.8"}
	if got := fixCUDA(e, "12.1"); got != "replace cudatoolkit with cuda-version=12.1 (cudatoolkit ends at 11.8)" {
		t.Errorf("fixCUDA for CUDA 12.1 = %q", got)
	}
	if got := fixCUDA(e, "11.6"); got != "use cudatoolkit=11.6" {
		t.Errorf("fixCUDA for CUDA 11.6 = %q", got)
	}
}

func TestExactConda(t *testing.T) {
	for in, want := range map[string]string{
		"2.0.1": "2.0.1", "=2.0.1": "2.0.1", "==2.0": "2.0.0", "=2.0": "", "2..1": "", ".2.0": "",
		"2.0.": "", "2.0.1+cu118": "2.0.1+cu118", "": "", "2": "", "==2": "", "+cu118": "", ">=2.0.1": "",
		// a bare version is conda's exact match: `pytorch 1.10` is 1.10.0
		// (envspec.VersionSpec.Exact; corpus-gpu 39)
		"1.10": "1.10.0", "2.0.*": "", "2.0*": "",
	} {
		if got := exactConda(in); got != want {
			t.Errorf("exactConda(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBareCondaVersionPins: `pytorch 1.10` is conda's exact match, a
// pinned release: no EG502 (GPU corpus 39 got one).
func TestBareCondaVersionPins(t *testing.T) {
	_, st, ds := lintFile(t, "env.yml", []byte("name: x\nchannels:\n  - pytorch\ndependencies:\n  - pytorch 1.10\n  - cudatoolkit=10.2\n"))
	if st.Framework == nil || st.Framework.Version != "1.10.0" {
		t.Fatalf("framework %+v, want pytorch 1.10.0", st.Framework)
	}
	for _, d := range ds {
		if d.Code == "EG502" {
			t.Errorf("EG502 on a pinned release: %s", d.Message)
		}
	}
}
