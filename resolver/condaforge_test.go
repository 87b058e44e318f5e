package resolver

import (
	"slices"
	"strings"
	"testing"

	"github.com/envguard/envguard/resolver/kb"
)

// Build strings of conda-forge's and the defaults channel's pytorch, as
// their recipes write them (sources-conda-forge.yaml).
func TestDecodeCondaForgeDefaultsBuilds(t *testing.T) {
	tests := []struct {
		build string
		want  Accel
	}{
		// conda-forge: cuda{XYZ}_{blas}_py{PY}_h…_{N} from 2.1.2 on
		{"cuda118_mkl_py310_h1234567_301", Accel{Variant: "cuda", CUDA: "11.8", Major: 11, AtLeast: true, Python: "3.10"}},
		{"cuda126_generic_py312_h1234567_200", Accel{Variant: "cuda", CUDA: "12.6", Major: 12, AtLeast: true, Python: "3.12"}},
		{"cuda129_mkl_py313_h0a1b2c3_304", Accel{Variant: "cuda", CUDA: "12.9", Major: 12, AtLeast: true, Python: "3.13"}},
		{"cuda130_generic_py314_h0a1b2c3_200", Accel{Variant: "cuda", CUDA: "13.0", Major: 13, AtLeast: true, Python: "3.14"}},
		{"cpu_mkl_py312_h0a1b2c3_100", Accel{Variant: "cpu", Python: "3.12"}},
		// conda-forge up to 2.1 and defaults 1.x: cuda{XY}py{PY}h…_{N}
		{"cuda112py39h1a2b3c4_1", Accel{Variant: "cuda", CUDA: "11.2", Major: 11, AtLeast: true, Python: "3.9"}},
		{"cuda100py37h53c1284_0", Accel{Variant: "cuda", CUDA: "10.0", Major: 10, Python: "3.7"}},
		{"cuda102py39h1a2b3c4_1", Accel{Variant: "cuda", CUDA: "10.2", Major: 10, Python: "3.9"}},
		{"cuda111py39h1a2b3c4_1", Accel{Variant: "cuda", CUDA: "11.1", Major: 11, Python: "3.9"}},
		{"cuda92py36hd3b5c9b_1", Accel{Variant: "cuda", CUDA: "9.2", Major: 9, Python: "3.6"}},
		{"cpu_py37h0c6b5ca_0", Accel{Variant: "cpu", Python: "3.7"}},
		// _pytorch_select's builds
		{"gpu_0", Accel{Variant: "cuda"}},
		{"cpu_0", Accel{Variant: "cpu"}},
	}
	for _, tt := range tests {
		if got := DecodeBuild(tt.build); got != tt.want {
			t.Errorf("DecodeBuild(%q) = %+v, want %+v", tt.build, got, tt.want)
		}
	}
}

func TestResolveCondaForgeDefaults(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		dist    kb.Distribution
		variant string
		cuda    string // "" = no CUDA version decided
		atLeast bool   // the build evidence's AtLeast
		canon   string // "" = no canonical name
	}{
		{"conda-forge cuda126 build", "channels: [conda-forge]\ndependencies:\n  - pytorch=2.6.0=cuda126_generic_py312_h1234567_200\n",
			kb.DistCondaForge, "cuda", "12.6", true, "pt26_cu126"},
		{"conda-forge old-style cuda112 build", "channels: [conda-forge]\ndependencies:\n  - pytorch=1.12.1=cuda112py310h1a2b3c4_201\n",
			kb.DistCondaForge, "cuda", "11.2", true, "pt112_cu112"},
		{"conda-forge cpu build", "channels: [conda-forge]\ndependencies:\n  - pytorch=2.6.0=cpu_mkl_py312_h1234567_100\n",
			kb.DistCondaForge, "cpu", "", false, "pt26_cpu"},
		{"conda-forge pytorch-gpu with cuda-version", "channels: [conda-forge]\ndependencies:\n  - pytorch-gpu=2.1.2\n  - cuda-version=11.8\n",
			kb.DistCondaForge, "cuda", "11.8", false, "pt21_cu118"},
		{"conda-forge pytorch-cpu", "channels: [conda-forge]\ndependencies:\n  - pytorch-cpu=2.6.0\n",
			kb.DistCondaForge, "cpu", "", false, "pt26_cpu"},
		{"pytorch-cuda selects nothing for conda-forge's pytorch", "channels: [conda-forge, pytorch]\ndependencies:\n  - pytorch=2.4.1\n  - pytorch::pytorch-cuda=12.1\n",
			kb.DistCondaForge, "", "12.1", false, ""},
		{"pytorch-cuda selects the pytorch channel's build", "channels: [pytorch, nvidia]\ndependencies:\n  - pytorch=2.4.1\n  - pytorch-cuda=12.1\n",
			kb.DistPytorchConda, "cuda", "12.1", false, "pt24_cu121"},
		{"defaults cuda101 build needs that minor", "channels: [defaults]\ndependencies:\n  - pytorch=1.4.0=cuda101py37h02f0884_0\n",
			kb.DistDefaults, "cuda", "10.1", false, "pt14_cu101"},
		{"defaults cpu build", "channels: [defaults]\ndependencies:\n  - pytorch=1.4.0=cpu_py37h7e40bad_0\n",
			kb.DistDefaults, "cpu", "", false, "pt14_cpu"},
		{"defaults _pytorch_select 0.1 is cpu", "channels: [defaults]\ndependencies:\n  - pytorch=1.3.1\n  - _pytorch_select=0.1\n",
			kb.DistDefaults, "cpu", "", false, "pt13_cpu"},
		{"defaults _pytorch_select 0.2 is cuda", "channels: [defaults]\ndependencies:\n  - pytorch=1.3.1\n  - _pytorch_select=0.2\n  - cudatoolkit=10.0\n",
			kb.DistDefaults, "cuda", "10.0", false, "pt13_cu100"},
		{"defaults pytorch-gpu metapackage", "channels: [defaults]\ndependencies:\n  - pytorch-gpu=1.3.1\n  - cudatoolkit=10.1\n",
			kb.DistDefaults, "cuda", "10.1", false, "pt13_cu101"},
		{"pytorch channel pytorch-cpu before 1.2", "channels: [pytorch]\ndependencies:\n  - pytorch-cpu=1.0.1\n  - torchvision-cpu=0.2.1\n",
			kb.DistPytorchConda, "cpu", "", false, "pt10_cpu"},
		{"pytorch channel pytorch before 1.2 is the CUDA build", "channels: [pytorch]\ndependencies:\n  - pytorch=1.1.0\n  - cudatoolkit=10.0\n",
			kb.DistPytorchConda, "cuda", "10.0", false, "pt11_cu100"},
		// mirrors, read by their layout (envspec.SourceChannel): the pytorch
		// channel mirrored under /anaconda/cloud/ is the pytorch channel,
		// not defaults as the first path part "anaconda" used to say
		{"pytorch channel through a mirror", "channels:\n  - https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud/pytorch/\ndependencies:\n  - pytorch=1.13.1\n  - pytorch-cuda=11.7\n",
			kb.DistPytorchConda, "cuda", "11.7", false, "pt113_cu117"},
		{"conda-forge through a mirror", "channels:\n  - https://mirrors.ustc.edu.cn/anaconda/cloud/conda-forge/\ndependencies:\n  - pytorch=2.6.0=cuda126_generic_py312_h1234567_200\n",
			kb.DistCondaForge, "cuda", "12.6", true, "pt26_cu126"},
		// menpo's mirror, first, is the menpo channel, which
		// publishes no pytorch: read as defaults (as the path part
		// "anaconda" once made it) it would give defaults' pytorch
		{"menpo mirror before the pytorch channel's", "channels:\n  - https://mirrors.ustc.edu.cn/anaconda/cloud/menpo/\n  - https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud/pytorch/\ndependencies:\n  - pytorch=1.13.1\n  - pytorch-cuda=11.7\n",
			kb.DistPytorchConda, "cuda", "11.7", false, "pt113_cu117"},
		{"defaults through a mirror", "channels:\n  - https://mirrors.ustc.edu.cn/anaconda/pkgs/main/\ndependencies:\n  - pytorch=1.4.0=cuda101py37h02f0884_0\n",
			kb.DistDefaults, "cuda", "10.1", false, "pt14_cu101"},
		{"pytorch channel pytorch 1.2 holds both variants", "channels: [pytorch]\ndependencies:\n  - pytorch=1.2.0\n",
			kb.DistPytorchConda, "", "", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := resolveSrc(t, tt.src)
			f := st.Framework
			if f == nil {
				t.Fatal("no framework")
			}
			if f.Dist != tt.dist || f.Variant != tt.variant {
				t.Errorf("dist, variant = %q, %q; want %q, %q", f.Dist, f.Variant, tt.dist, tt.variant)
			}
			got := ""
			if st.CUDA != nil {
				got = st.CUDA.Version
			}
			if got != tt.cuda {
				t.Errorf("CUDA = %q, want %q", got, tt.cuda)
			}
			atLeast := false
			if st.CUDA != nil {
				for _, e := range st.CUDA.Evidence {
					if e.Kind == EvidenceBuild {
						atLeast = e.AtLeast
					}
				}
			}
			if atLeast != tt.atLeast {
				t.Errorf("build evidence AtLeast = %v, want %v", atLeast, tt.atLeast)
			}
			name, _ := CanonicalName(st)
			if name != tt.canon {
				t.Errorf("name = %q, want %q (%s)", name, tt.canon, st.NoNameReason)
			}
		})
	}
}

// The architecture rows are looked up by the CUDA version each build was
// made for: one row per CUDA version the feedstock built.
func TestCondaForgeArchRows(t *testing.T) {
	k := kb.Default()
	tests := []struct {
		series, cuda string
		dist         kb.Distribution
		ok           bool
		last, ptx    string // last SASS entry, only PTX entry ("" = none)
		ptxUnknown   bool
	}{
		{"2.6", "12.6", kb.DistCondaForge, true, "9.0", "9.0", false},
		{"2.7", "12.9", kb.DistCondaForge, true, "12.0", "12.0", false},
		{"2.10", "13.0", kb.DistCondaForge, true, "12.0", "12.0", false},
		{"2.0", "11.8", kb.DistCondaForge, true, "8.9", "8.9", false},
		{"1.12", "10.2", kb.DistCondaForge, true, "7.5", "7.5", false},
		{"1.10", "11.2", kb.DistCondaForge, true, "8.6", "5.0", false},
		{"1.11", "11.2", kb.DistCondaForge, true, "8.6", "", true}, // one of compute_50 and compute_86, by build number
		{"1.4", "10.1", kb.DistDefaults, true, "7.5", "5.0", false},
		{"1.0", "10.0", kb.DistDefaults, true, "7.5", "5.2", false},
		// conda-forge built 2.6 for 12.6 only, 1.13 for 11.2 only, no 2.2
		{"2.6", "12.8", kb.DistCondaForge, false, "", "", false},
		{"1.13", "11.6", kb.DistCondaForge, false, "", "", false},
		{"2.2", "12.1", kb.DistCondaForge, false, "", "", false},
		// defaults after 1.6: not read
		{"1.8", "10.2", kb.DistDefaults, false, "", "", false},
	}
	for _, tt := range tests {
		a, ok := k.Arch(tt.series, tt.cuda, tt.dist)
		if ok != tt.ok {
			t.Errorf("Arch(%s, %s, %s) ok = %v", tt.series, tt.cuda, tt.dist, ok)
			continue
		}
		if !ok {
			continue
		}
		ptx := ""
		if len(a.PTX) == 1 {
			ptx = a.PTX[0]
		}
		if !a.Known || a.SASS[len(a.SASS)-1] != tt.last || ptx != tt.ptx || len(a.PTX) > 1 || a.PTXOpen() != tt.ptxUnknown {
			t.Errorf("Arch(%s, %s, %s) = %+v", tt.series, tt.cuda, tt.dist, a)
		}
	}
	// 12.9 and 13.0 lists dropped Maxwell-era SASS the 12.6 list had
	if a, _ := k.Arch("2.7", "12.9", kb.DistCondaForge); slices.Contains(a.SASS, "6.1") || slices.Contains(a.SASS, "8.9") {
		t.Errorf("2.7 cuda 12.9 lists 6.1 or 8.9: %v", a.SASS)
	}
	if v, ok := k.Variants("2.0", kb.DistCondaForge); !ok || !slices.Equal(v.Releases, []string{"2.0.0"}) {
		t.Errorf("conda-forge 2.0 releases = %+v", v)
	}
}

// A build string naming a CUDA version the feedstock never built for the
// series gives no canonical name, and says why; one it built does.
func TestCondaForgeUnbuiltCUDA(t *testing.T) {
	st := resolveSrc(t, "channels: [conda-forge]\ndependencies:\n  - pytorch=2.6.0=cuda118*\n")
	if st.CUDA == nil || !strings.Contains(st.CUDA.NotPublished, "never made of pytorch 2.6 (it built CUDA 12.6)") {
		t.Errorf("NotPublished = %+v", st.CUDA)
	}
	if _, err := CanonicalName(st); err == nil {
		t.Error("a canonical name for a build that does not exist")
	}
	for _, src := range []string{
		"channels: [conda-forge]\ndependencies:\n  - pytorch=2.7.1=cuda129*\n",
		"channels: [conda-forge]\ndependencies:\n  - pytorch=2.7.1=cuda12*\n  - cuda-version=12.8\n",
		"channels: [pytorch]\ndependencies:\n  - pytorch=2.6.0=cuda118*\n",
	} {
		if st := resolveSrc(t, src); st.CUDA != nil && st.CUDA.NotPublished != "" {
			t.Errorf("%q: NotPublished = %q", src, st.CUDA.NotPublished)
		}
	}
}

// A release conda-forge never built comes, under flexible channel
// priority, from the next channel that publishes it; one it built stays.
func TestPastCondaForge(t *testing.T) {
	src := "channels: [conda-forge, pytorch, nvidia]\ndependencies:\n  - pytorch=%s\n  - torchvision=0.16.1\n  - torchaudio=2.1.1\n  - pytorch-cuda=11.8\n"
	st := resolveSrc(t, strings.Replace(src, "%s", "2.1.1", 1))
	if f := st.Framework; f.Channel != "pytorch" || f.Dist != kb.DistPytorchConda || f.Variant != "cuda" || !strings.Contains(f.ChannelWhy, "conda-forge never built pytorch 2.1.1") {
		t.Errorf("2.1.1: %+v", f)
	}
	chans := map[string]string{}
	for _, c := range st.Companions {
		chans[c.Name] = c.Channel
	}
	// conda-forge built torchvision 0.16.1, but its builds require a
	// pytorch named cuda…/cpu…, which the pytorch channel's 2.1.1 is not
	// (review thirty-nine F37); no torchaudio before 2.4.1
	if chans["torchvision"] != "pytorch" || chans["torchaudio"] != "pytorch" {
		t.Errorf("companion channels = %v", chans)
	}
	st = resolveSrc(t, strings.Replace(src, "%s", "2.1.2", 1))
	if f := st.Framework; f.Channel != "conda-forge" || f.Dist != kb.DistCondaForge || f.Variant != "" {
		t.Errorf("2.1.2: %+v", f)
	}
	// written as conda-forge:: it stays there
	st = resolveSrc(t, "channels: [conda-forge, pytorch]\ndependencies:\n  - conda-forge::pytorch=2.1.1\n")
	if f := st.Framework; f.Channel != "conda-forge" {
		t.Errorf("conda-forge::pytorch=2.1.1: %+v", f)
	}
}

// The framework remembers a conda wrapper metapackage the file lists, the
// one that names the framework or one beside pytorch itself, so that the
// candidate builds are held to the wrapper's own uploads.
func TestFrameworkWrapper(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"channels: [conda-forge]\ndependencies:\n  - python=3.10\n  - pytorch-gpu=2.4.1\n", "pytorch-gpu"},
		{"channels: [conda-forge]\ndependencies:\n  - python=3.10\n  - pytorch=2.4.1\n  - pytorch-gpu\n", "pytorch-gpu"},
		{"channels: [conda-forge]\ndependencies:\n  - python=3.10\n  - pytorch=2.4.1\n", ""},
		{"channels: [conda-forge]\ndependencies:\n  - python=3.10\n  - pip\n  - pip:\n    - torch==2.4.1\n", ""},
	} {
		st := resolveSrc(t, c.src)
		if st.Framework == nil || st.Framework.Wrapper != c.want {
			t.Errorf("%q: wrapper %+v, want %q", c.src, st.Framework, c.want)
		}
	}
}
