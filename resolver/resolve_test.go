package resolver

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/internal/testshared"
	"github.com/envguard/envguard/resolver/kb"
)

func resolveSrc(t *testing.T, src string) *Stack {
	t.Helper()
	env := envspec.Parse("environment.yml", []byte(src), envspec.ParseOptions{Platform: "linux-64"})
	return Resolve(env, kb.Default())
}

func TestResolveFramework(t *testing.T) {
	tests := []struct {
		name                       string
		src                        string
		fw, version, variant, from string
		channel                    string
		dist                       kb.Distribution
		candidates                 []string
	}{
		{"pytorch over tensorflow", "channels: [pytorch]\ndependencies:\n  - tensorflow=2.12.0\n  - pytorch=2.0.1\n  - cpuonly\n",
			"pytorch", "2.0.1", "cpu", "conda", "pytorch", kb.DistPytorchConda, nil},
		{"tensorflow over jax", "channels: [conda-forge]\ndependencies:\n  - jax=0.4.23\n  - tensorflow-gpu=2.12.0\n",
			"tensorflow", "2.12.0", "cuda", "conda", "conda-forge", kb.DistCondaForge, nil},
		{"jax pip plain is cpu", "dependencies:\n  - pip\n  - pip:\n    - jax==0.4.23\n",
			"jax", "0.4.23", "cpu", "pip", "", "", nil},
		{"jax pip cuda extra", "dependencies:\n  - pip\n  - pip:\n    - jax[cuda12]==0.4.30\n",
			"jax", "0.4.30", "cuda", "pip", "", "", nil},
		{"double equals", "channels: [pytorch]\ndependencies:\n  - pytorch==2.0.1\n  - pytorch-cuda=11.8\n",
			"pytorch", "2.0.1", "cuda", "conda", "pytorch", kb.DistPytorchConda, nil},
		{"version with build", "channels: [pytorch]\ndependencies:\n  - pytorch=2.0.1=py3.10_cuda11.8_cudnn8.7.0_0\n",
			"pytorch", "2.0.1", "cuda", "conda", "pytorch", kb.DistPytorchConda, nil},
		{"space form", "channels: [pytorch]\ndependencies:\n  - pytorch 2.0.1 py3.10_cpu_0\n",
			"pytorch", "2.0.1", "cpu", "conda", "pytorch", kb.DistPytorchConda, nil},
		{"open spec candidates", "channels: [pytorch]\ndependencies:\n  - pytorch>=2.0,<2.1\n  - pytorch-cuda=11.8\n",
			"pytorch", "", "cuda", "conda", "pytorch", kb.DistPytorchConda, []string{"2.0.0", "2.0.1"}},
		{"pip local", "dependencies:\n  - pip\n  - pip:\n    - torch==2.0.1+cu118\n",
			"pytorch", "2.0.1", "cuda", "pip", "", kb.DistWheel, nil},
		{"pip plain is pypi, its Linux build", "dependencies:\n  - pip\n  - pip:\n    - torch==2.0.1\n",
			"pytorch", "2.0.1", "cuda", "pip", "", kb.DistPyPI, nil},
		{"pip plain, no pypi row: variant open", "dependencies:\n  - pip\n  - pip:\n    - torch==1.0.1\n",
			"pytorch", "1.0.1", "", "pip", "", kb.DistPyPI, nil},
		{"pip index cpu", "dependencies:\n  - pip\n  - pip:\n    - --index-url https://download.pytorch.org/whl/cpu\n    - torch==2.3.1\n",
			"pytorch", "2.3.1", "cpu", "pip", "", kb.DistWheel, nil},
		{"pip tensorflow and-cuda", "dependencies:\n  - pip\n  - pip:\n    - tensorflow[and-cuda]==2.15.0\n",
			"tensorflow", "2.15.0", "cuda", "pip", "", "", nil},
		{"pip ==X.Y is a release", "dependencies:\n  - pip\n  - pip:\n    - tensorflow-cpu==2.12\n",
			"tensorflow", "2.12.0", "cpu", "pip", "", "", nil},
		{"conda-forge first wins", "channels: [conda-forge, pytorch]\ndependencies:\n  - pytorch=2.1.2=*cuda118*\n",
			"pytorch", "2.1.2", "cuda", "conda", "conda-forge", kb.DistCondaForge, nil},
		{"pytorch first wins", "channels: [pytorch, conda-forge]\ndependencies:\n  - pytorch=2.1.2\n  - pytorch-cuda=12.1\n",
			"pytorch", "2.1.2", "cuda", "conda", "pytorch", kb.DistPytorchConda, nil},
		{"explicit channel wins", "channels: [conda-forge]\ndependencies:\n  - pytorch::pytorch=2.1.2\n  - pytorch::pytorch-cuda=12.1\n",
			"pytorch", "2.1.2", "cuda", "conda", "pytorch", kb.DistPytorchConda, nil},
		{"nvidia does not publish pytorch", "channels: [nvidia, conda-forge]\ndependencies:\n  - pytorch=2.4.1=cuda124*\n",
			"pytorch", "2.4.1", "cuda", "conda", "conda-forge", kb.DistCondaForge, nil},
		{"channel url", "channels: [https://conda.anaconda.org/pytorch/label/nightly]\ndependencies:\n  - pytorch=2.0.1\n  - cpuonly\n",
			"pytorch", "2.0.1", "cpu", "conda", "pytorch", kb.DistPytorchConda, nil},
		{"mutex cuda", "channels: [pytorch]\ndependencies:\n  - pytorch=1.12.1\n  - pytorch-mutex=*=cuda\n  - cudatoolkit=11.3\n",
			"pytorch", "1.12.1", "cuda", "conda", "pytorch", kb.DistPytorchConda, nil},
	}
	for _, tt := range tests {
		st := resolveSrc(t, tt.src)
		f := st.Framework
		if f == nil {
			t.Errorf("%s: no framework", tt.name)
			continue
		}
		if f.Name != tt.fw || f.Version != tt.version || f.Variant != tt.variant || string(f.From) != tt.from || f.Channel != tt.channel || f.Dist != tt.dist {
			t.Errorf("%s: got %s %q variant %q from %s channel %q dist %q; want %s %q variant %q from %s channel %q dist %q",
				tt.name, f.Name, f.Version, f.Variant, f.From, f.Channel, f.Dist, tt.fw, tt.version, tt.variant, tt.from, tt.channel, tt.dist)
		}
		if !reflect.DeepEqual(f.Candidates, tt.candidates) {
			t.Errorf("%s: candidates %v, want %v", tt.name, f.Candidates, tt.candidates)
		}
	}
}

func TestResolvePythonCUDA(t *testing.T) {
	tests := []struct {
		name, src, python, cuda, cudnn string
		evidence                       []string // Item=Says
	}{
		{"python=3.10", "dependencies:\n  - python=3.10\n", "3.10", "", "", nil},
		{"python 3.10.*", "dependencies:\n  - python 3.10.*\n", "3.10", "", "", nil},
		{"python exact", "dependencies:\n  - python==3.11.4\n", "3.11", "", "", nil},
		{"python range is open", "dependencies:\n  - python>=3.11,<3.13\n", "", "", "", nil},
		{"python from build", "channels: [pytorch]\ndependencies:\n  - pytorch=1.13.1=py3.9_cuda11.6_cudnn8_0\n", "3.9", "11.6", "8",
			[]string{"pytorch=1.13.1=py3.9_cuda11.6_cudnn8_0=11.6"}},
		{"every piece of evidence", "channels: [pytorch, nvidia]\ndependencies:\n  - pytorch=2.1.0=py3.10_cuda12.1_cudnn8.9.2_0\n  - pytorch-cuda=11.8\n  - cuda-version=12.1\n  - cudnn=8.9\n",
			"3.10", "12.1", "8.9", []string{"pytorch=2.1.0=py3.10_cuda12.1_cudnn8.9.2_0=12.1", "pytorch-cuda=11.8=11.8", "cuda-version=12.1=12.1"}},
		{"exact pin beats at-least build", "channels: [conda-forge]\ndependencies:\n  - pytorch=2.4.1=cuda120*\n  - cuda-version=12.4\n",
			"", "12.4", "", []string{"pytorch=2.4.1=cuda120*=12.0", "cuda-version=12.4=12.4"}},
		{"range resolved from the KB", "channels: [conda-forge]\ndependencies:\n  - cuda-version>=12.4,<12.5\n", "", "12.4", "", []string{"cuda-version>=12.4,<12.5=12.4"}},
		{"pip index", "dependencies:\n  - pip\n  - pip:\n    - --index-url https://download.pytorch.org/whl/nightly/cu121\n    - torch\n",
			"", "12.1", "", []string{"--index-url https://download.pytorch.org/whl/nightly/cu121=12.1"}},
		{"index ignored without pip torch", "dependencies:\n  - pip\n  - pip:\n    - --extra-index-url https://download.pytorch.org/whl/cu121\n    - numpy\n",
			"", "", "", nil},
	}
	for _, tt := range tests {
		st := resolveSrc(t, tt.src)
		got := ""
		var ev []string
		if st.CUDA != nil {
			got = st.CUDA.Version
			for _, e := range st.CUDA.Evidence {
				ev = append(ev, e.Item+"="+e.Says)
				if e.Line == 0 || e.Pos.Line != e.Line {
					t.Errorf("%s: evidence %q has no line (%v, %d)", tt.name, e.Item, e.Pos, e.Line)
				}
			}
		}
		if st.Python != tt.python || got != tt.cuda || st.CuDNN != tt.cudnn || !reflect.DeepEqual(ev, tt.evidence) {
			t.Errorf("%s: python %q cuda %q cudnn %q evidence %q; want %q %q %q %q", tt.name, st.Python, got, st.CuDNN, ev, tt.python, tt.cuda, tt.cudnn, tt.evidence)
		}
	}
}

func TestResolveCompanionsAndLibs(t *testing.T) {
	st := resolveSrc(t, `channels: [pytorch, nvidia, conda-forge]
dependencies:
  - pytorch=2.0.1=py3.10_cuda11.8_cudnn8.7.0_0
  - torchvision=0.15.2
  - conda-forge::torchaudio
  - cupy
  - pip
  - pip:
    - cupy-cuda12x==13.0.0
    - jax[cuda12]==0.4.30
    - nvidia-cublas-cu12
`)
	var comps []string
	for _, p := range st.Companions {
		comps = append(comps, p.Name+"@"+p.Version+"@"+p.Channel)
	}
	if want := []string{"torchvision@0.15.2@pytorch", "torchaudio@@conda-forge"}; !reflect.DeepEqual(comps, want) {
		t.Errorf("companions %v, want %v", comps, want)
	}
	libs := map[string]Package{}
	for _, p := range st.GPULibs {
		libs[p.Name+"/"+string(p.From)] = p
	}
	for key, major := range map[string]int{"pytorch/conda": 11, "cupy/conda": 0, "cupy-cuda12x/pip": 12} {
		p, ok := libs[key]
		if !ok {
			t.Errorf("GPU lib %s missing from %v", key, st.GPULibs)
			continue
		}
		if p.CUDAMajor != major || p.Lib == "" {
			t.Errorf("%s: lib %q CUDAMajor %d, want a lib and %d", key, p.Lib, p.CUDAMajor, major)
		}
	}
}

// TestResolvePrefix resolves an installed prefix: exact versions and builds
// come from the prefix, and torch/version.py is authoritative.
func TestResolvePrefix(t *testing.T) {
	env := &envspec.Env{
		Kind: envspec.KindPrefix, File: "/opt/env", PythonVersion: "3.11.9",
		Deps: []*envspec.CondaDep{{
			Raw:       envspec.String{Value: "cuda-version==12.4"},
			Installed: &envspec.Installed{Name: "cuda-version", Version: "12.4", Build: "h3060b56_3", Channel: "https://conda.anaconda.org/conda-forge"},
		}},
		Pip: []*envspec.PipDep{
			{Raw: envspec.String{Value: "torch==2.5.1+cu124"}, Installed: &envspec.Installed{Name: "torch", Version: "2.5.1+cu124", Installer: "pip"}},
			{Raw: envspec.String{Value: "torchvision==0.20.1+cu124"}, Installed: &envspec.Installed{Name: "torchvision", Version: "0.20.1+cu124", Installer: "pip"}},
		},
		Torch: &envspec.TorchInfo{Version: "2.5.1+cu124", CUDA: "12.4"},
	}
	st := Resolve(env, kb.Default())
	if st.Framework == nil || st.Framework.Version != "2.5.1" || st.Framework.Variant != "cuda" || st.Framework.From != envspec.ProviderPip {
		t.Fatalf("framework %+v", st.Framework)
	}
	if st.Python != "3.11" || st.CUDA == nil || st.CUDA.Version != "12.4" || st.CUDA.Evidence[0].Kind != EvidenceInstalled {
		t.Fatalf("python %q cuda %+v", st.Python, st.CUDA)
	}
	if n, err := CanonicalName(st); n != "pt25_cu124" {
		t.Errorf("name %q (%v)", n, err)
	}
	// a CPU torch in the prefix contradicts the conda CUDA runtime
	env.Torch = &envspec.TorchInfo{Version: "2.5.1+cpu"}
	env.Pip[0].Installed.Version = "2.5.1+cpu"
	st = Resolve(env, kb.Default())
	if st.Framework.Variant != "cpu" || len(st.CPU) != 2 {
		t.Errorf("variant %q, CPU evidence %+v", st.Framework.Variant, st.CPU)
	}
	ds := ruleEG202.Run(&Context{Env: env, Stack: st, KB: kb.Default()})
	if len(ds) == 0 || !strings.Contains(ds[0].Message, "cuda-version") {
		t.Errorf("EG202 on the prefix: %v", ds)
	}
}

func TestResolveNil(t *testing.T) {
	if st := Resolve(nil, nil); st.NoNameReason == "" {
		t.Error("nil env: no reason")
	}
	st := resolveSrc(t, "dependencies: [numpy]\n")
	if st.Framework != nil || st.NoNameReason == "" {
		t.Errorf("no framework: %+v", st)
	}
	// without a knowledge base nothing is looked up, and nothing panics
	env := envspec.Parse("e.yml", []byte("dependencies:\n  - pytorch>=2\n  - cudatoolkit>=11\n"), envspec.ParseOptions{Platform: "linux-64"})
	st = Resolve(env, nil)
	if _, err := Check(context.Background(), &Context{Env: env, Stack: st}); err != nil {
		t.Fatal(err)
	}
}

func TestRegistry(t *testing.T) {
	codes, names := map[string]bool{}, map[string]bool{}
	for _, r := range rules {
		if codes[r.Code] || names[r.Name] {
			t.Errorf("duplicate %s / %s", r.Code, r.Name)
		}
		codes[r.Code], names[r.Name] = true, true
		if r.Title == "" || r.Why == "" || r.Fix == "" || r.Before == "" || r.After == "" || (r.Since != "0.1.0" && r.Since != "0.3.0") || r.run == nil {
			t.Errorf("%s: incomplete documentation or no Run", r.Code)
		}
		if strings.ToLower(r.Name) != r.Name || strings.Contains(r.Name, " ") {
			t.Errorf("%s: name %q is not kebab-case", r.Code, r.Name)
		}
	}
	for _, c := range []string{"EG201", "EG202", "EG203", "EG204", "EG205", "EG206", "EG207", "EG208", "EG209", "EG210", "EG211", "EG501", "EG502",
		"EG301", "EG302", "EG303", "EG304", "EG305", "EG503", "EG504", "EG505"} {
		if !codes[c] {
			t.Errorf("%s missing from the registry", c)
		}
	}
}

// TestRuleExamples runs each rule on its own Before and After: Before
// fires it, After does not.
func TestRuleExamples(t *testing.T) {
	for _, r := range stackRules() {
		for _, ex := range []struct {
			src  string
			fire bool
		}{{r.Before, true}, {r.After, false}} {
			_, _, ds := lintFile(t, r.Code+".yml", []byte(ex.src))
			fired := false
			for _, d := range ds {
				fired = fired || d.Code == r.Code
			}
			if fired != ex.fire {
				t.Errorf("%s: fires=%v on\n%s\nfindings: %v", r.Code, fired, ex.src, ds)
			}
		}
	}
}

// TestCorpus resolves every real-world file and runs every rule: no panic,
// and every finding is positioned.
func TestCorpus(t *testing.T) {
	files := testshared.Corpus(t)
	named := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, st, ds := lintFile(t, filepath.Base(f), src)
		for _, d := range ds {
			if !d.Pos.IsValid() || d.Message == "" {
				t.Errorf("%s: unpositioned finding %v", f, d)
			}
		}
		if _, err := CanonicalName(st); err == nil {
			named++
		}
	}
	t.Logf("%d of %d corpus files have a canonical name", named, len(files))
}

// FuzzResolve feeds arbitrary environment files through Resolve, the rules
// and CanonicalName: nothing may panic.
func FuzzResolve(f *testing.F) {
	errs, oks := goldenInputs(f)
	ins := append(errs, oks...)
	for _, in := range ins {
		if b, err := os.ReadFile(in); err == nil {
			f.Add(b)
		}
	}
	k := kb.Default()
	f.Fuzz(func(t *testing.T, src []byte) {
		env := envspec.Parse("f.yml", src, envspec.ParseOptions{Platform: "linux-64"})
		st := Resolve(env, k)
		ctx := &Context{Env: env, Stack: st, KB: k}
		if _, err := Check(context.Background(), ctx); err != nil {
			t.Fatal(err)
		}
		CanonicalName(st)
	})
}

func TestEG202OtherFramework(t *testing.T) {
	src := "channels: [pytorch, conda-forge]\ndependencies:\n  - pytorch=2.0.1\n  - cpuonly\n  - pip\n  - pip:\n    - jax[cuda12]==0.4.30\n"
	_, _, ds := lintFile(t, "e.yml", []byte(src))
	for _, d := range ds {
		if d.Code == "EG202" {
			t.Errorf("a CUDA jax beside a CPU pytorch is not EG202: %v", d)
		}
	}
	src = "channels: [pytorch, conda-forge]\ndependencies:\n  - pytorch=2.0.1\n  - cpuonly\n  - cudnn=8.9\n"
	_, _, ds = lintFile(t, "e.yml", []byte(src))
	n := 0
	for _, d := range ds {
		if d.Code == "EG202" && strings.Contains(d.Message, "cudnn=8.9 (line 5)") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("cpuonly with cudnn: want one EG202 naming cudnn, got %v", ds)
	}
}

// packageNamed is the stack's GPU-code package called name; the test
// stops where there is none.
func packageNamed(t *testing.T, st *Stack, name string) *GPUPackage {
	t.Helper()
	var got *GPUPackage
	for i := range st.GPUPackages {
		if st.GPUPackages[i].Name == name {
			got = &st.GPUPackages[i]
		}
	}
	if got == nil {
		t.Fatalf("no %s package in %+v", name, st.GPUPackages)
	}
	return got
}

// cudnnOf is the stack's cuDNN; the test stops where there is none.
func cudnnOf(t *testing.T, st *Stack) *GPUPackage {
	t.Helper()
	var got *GPUPackage
	for i := range st.GPUPackages {
		if p := &st.GPUPackages[i]; p.Role == RoleCUDALibrary && p.Lib == "cudnn" {
			got = p
		}
	}
	if got == nil {
		t.Fatalf("no cudnn among %+v", st.GPUPackages)
	}
	return got
}
