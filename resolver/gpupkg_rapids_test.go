package resolver

import (
	"slices"
	"strings"
	"testing"
)

// RAPIDS's conda packages come from the rapidsai channel (before
// conda-forge, which the resolver takes to publish every name); a spec that
// pins a series (cudf==23.8.*, cudf=22.08) is decided by the rows that hold
// for every release of it; where the environment's CUDA is not known, the
// channel's rows of the release, which list every CUDA it was built for
// and agree on the code, still decide it; librmm has no device code.
func TestRAPIDSCondaRows(t *testing.T) {
	sass22 := []string{"6.0", "7.0", "7.5", "8.0", "8.6"}
	sass23 := []string{"6.0", "7.0", "7.5", "8.0", "8.6", "9.0"}
	tests := []struct {
		name, pkg, src string
		series         string
		cuda           []string
		sass, ptx      []string
		noCode         bool
		unknown        string // a word of the reason, where the package stays unknown
	}{
		{"a 23.8.* spec with cudatoolkit 11.8", "cudf",
			"channels: [rapidsai, rapidsai-nightly, conda-forge, nvidia]\ndependencies:\n  - cudatoolkit=11.8\n  - cudf==23.8.*\n",
			"23.8", []string{"11.8"}, sass23, nil, false, ""},
		{"conda's fuzzy =22.08 with cudatoolkit 11.6", "cudf",
			"channels: [rapidsai, nvidia, pytorch, conda-forge]\ndependencies:\n  - cudatoolkit=11.6\n  - cudf=22.08\n",
			"22.08", []string{"11.6"}, sass22, nil, false, ""},
		// its rows list every CUDA the build installs beside: the
		// package is built for one of them (CUDA 11, review fifteen #74)
		{"no CUDA pin: the one CUDA 11 build of 22.10", "cudf",
			"channels: [rapidsai, conda-forge, defaults]\ndependencies:\n  - cudf==22.10.*\n",
			"22.10", []string{"11.0", "11.1", "11.2", "11.3", "11.4", "11.5", "11.6", "11.7", "11.8"}, sass22, nil, false, ""},
		{"librmm is header-only", "librmm",
			"channels: [rapidsai, conda-forge]\ndependencies:\n  - cudatoolkit=11.8\n  - librmm==23.8.*\n",
			"23.8", []string{"11.8"}, nil, nil, true, ""},
		{"an exact 0.14.0 export, the channel after pytorch and numba", "libcudf",
			"channels: [pytorch, numba, rapidsai, nvidia, conda-forge, defaults]\ndependencies:\n  - cudatoolkit=10.1.243=h6bb024c_0\n  - libcudf=0.14.0=cuda10.1_0\n",
			"", []string{"10.1"}, []string{"6.0", "7.0", "7.5"}, []string{"7.5"}, false, ""},
		{"libnvstrings is rapidsai's, not nvidia's", "libnvstrings",
			"channels: [rapidsai, nvidia, conda-forge]\ndependencies:\n  - cudatoolkit=10.1\n  - libnvstrings=0.14.0=cuda10.1_0\n",
			"", []string{"10.1"}, []string{"6.0", "7.0", "7.5"}, []string{"7.5"}, false, ""},
		{"a series with no rows stays open", "cudf",
			"channels: [rapidsai, conda-forge]\ndependencies:\n  - cudatoolkit=11.8\n  - cudf==23.10.*\n",
			"", nil, nil, nil, false, "left to the solver (==23.10.*)"},
		{"a range is not a series", "cudf",
			"channels: [rapidsai, conda-forge]\ndependencies:\n  - cudatoolkit=11.8\n  - cudf>=23.08\n",
			"", nil, nil, nil, false, "left to the solver (>=23.08)"},
		{"conda-forge's cudf is not rapidsai's build", "cudf",
			"channels: [rapidsai, conda-forge]\ndependencies:\n  - cudatoolkit=11.8\n  - conda-forge::cudf==23.8.*\n",
			"", nil, nil, nil, false, "comes from conda-forge"},
		{"cuML's code cannot be read from public sources, pinned or not", "cuml-cu11",
			"channels: [conda-forge]\ndependencies:\n  - python=3.9\n  - pip\n  - pip:\n    - --extra-index-url https://pypi.nvidia.com\n    - cuml-cu11\n",
			"", nil, nil, nil, false, "left to the solver, and cuML's builds compile in NVIDIA's private cumlprims_mg"},
		{"a pinned cuml-cu11 says the same", "cuml-cu11",
			"channels: [conda-forge]\ndependencies:\n  - python=3.9\n  - pip\n  - pip:\n    - --extra-index-url https://pypi.nvidia.com\n    - cuml-cu11==23.8.0\n",
			"", nil, nil, nil, false, "no row for cuml-cu11 23.8.0, and cuML's builds compile in NVIDIA's private cumlprims_mg"},
		{"cuGraph 22.04 … 24.12 needs the closed-source cugraph-ops", "cugraph",
			"channels: [rapidsai, nvidia, pytorch, conda-forge]\ndependencies:\n  - cudatoolkit=11.6\n  - cugraph=22.08\n",
			"", nil, nil, nil, false, "left to the solver (=22.08), and libcugraph 22.04 … 24.12 requires libcugraphops"},
		{"a CUDA the build does not serve", "cudf",
			"channels: [rapidsai, conda-forge]\ndependencies:\n  - cudatoolkit=10.2\n  - cudf=22.08\n",
			"", nil, nil, nil, false, "no build of cudf 22.08.* on rapidsai for CUDA 10.2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := resolveSrc(t, tt.src)
			got := packageNamed(t, st, tt.pkg)
			if tt.unknown != "" {
				if got.Known || got.Code.Known || !strings.Contains(got.Unknown, tt.unknown) {
					t.Fatalf("want unknown (%q), got Known=%v Code=%+v Unknown=%q", tt.unknown, got.Known, got.Code, got.Unknown)
				}
				return
			}
			if !got.Known || got.Unknown != "" || !got.Code.Known {
				t.Fatalf("want known, got Known=%v Code=%+v Unknown=%q", got.Known, got.Code, got.Unknown)
			}
			if got.Series != tt.series || !slices.Equal(got.BuiltFor.CUDA, tt.cuda) || !slices.Equal(got.Code.SASS, tt.sass) || !slices.Equal(got.Code.PTX, tt.ptx) || got.Code.NoDeviceCode != tt.noCode {
				t.Errorf("got series %q, CUDA %v, SASS %v, PTX %v, no device code %v; want %q, %v, %v, %v, %v",
					got.Series, got.BuiltFor.CUDA, got.Code.SASS, got.Code.PTX, got.Code.NoDeviceCode, tt.series, tt.cuda, tt.sass, tt.ptx, tt.noCode)
			}
		})
	}
}

func TestSpecSeries(t *testing.T) {
	for spec, want := range map[string]string{
		"==23.8.*": "23.8", "=22.08": "22.08", "=22.08.*": "22.08", " ==22.10.* ": "22.10",
		"==23.08.00": "", "=0.14.0": "", ">=23.08": "", "23.08": "", "==23.*": "", "=23": "",
		">=22.08,<22.10": "", "=22.0a": "", "": "",
	} {
		if got := specSeries(spec); got != want {
			t.Errorf("specSeries(%q) = %q, want %q", spec, got, want)
		}
	}
}
