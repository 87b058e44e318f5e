package resolver

import (
	"os"
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// The semantics the outside review found wrong (issue 10, item 8, and the
// first bullet of item 10). The golden cases named below (testdata/rules,
// testdata/ok) pin the findings; these
// tests pin what the goldens do not show: canonical names and hints.

func lintGolden(t *testing.T, name string) (*Stack, finding.Diagnostics) {
	t.Helper()
	src, err := os.ReadFile(goldenPath(name))
	if err != nil {
		t.Fatal(err)
	}
	_, st, ds := lintFile(t, name+".yml", src)
	return st, ds
}

func lintSrc(t *testing.T, src string) (*Stack, finding.Diagnostics) {
	t.Helper()
	_, st, ds := lintFile(t, "test.yml", []byte(src))
	return st, ds
}

func findingsOf(ds finding.Diagnostics, code string) []finding.Diagnostic {
	var out []finding.Diagnostic
	for _, d := range ds {
		if d.Code == code {
			out = append(out, d)
		}
	}
	return out
}

func TestSemanticsNames(t *testing.T) {
	tests := []struct {
		file, want, why string
	}{
		// cudatoolkit=11.2 decides the CUDA build the solver may take
		{"eg501_name_tf212_cudatoolkit", "tf212_cu112", ""},
		// up to 1.12 cudatoolkit is the pytorch channel's selector
		{"eg207_cudatoolkit_112_selects_build", "pt112_cu116", ""},
		// from 1.13 on it selects nothing
		{"eg207_cudatoolkit_113_not_a_selector", "", "accelerator (CUDA or CPU) is not pinned"},
		// and pytorch-cuda selects nothing for 1.12
		{"eg207_pytorch_cuda_112_not_a_selector", "", "accelerator (CUDA or CPU) is not pinned"},
		// a lone torchvision pulls torch 2.0.1 from the cu118 index
		{"companion_without_framework_pip_pinned", "pt20_cu118", ""},
		// pytorch-cuda>=11.7 gets 11.8 for pytorch 2.0, whatever cudatoolkit says
		{"eg201_pytorch_cuda_range_vs_toolkit", "pt20_cu118", ""},
	}
	for _, tt := range tests {
		st, _ := lintGolden(t, tt.file)
		got, err := CanonicalName(st)
		if got != tt.want {
			t.Errorf("%s: name %q, want %q (err %v)", tt.file, got, tt.want, err)
		}
		if tt.why != "" && (err == nil || !strings.Contains(err.Error(), tt.why)) {
			t.Errorf("%s: error %v, want it to say %q", tt.file, err, tt.why)
		}
	}
}

func TestSemanticsEG207StillReported(t *testing.T) {
	_, ds := lintGolden(t, "eg501_name_tf212_cudatoolkit")
	if len(findingsOf(ds, "EG207")) != 1 {
		t.Errorf("EG207 should still fire when only cudatoolkit decides the CUDA build: %v", ds)
	}
	_, ds = lintGolden(t, "eg207_pytorch_cuda_112_not_a_selector")
	f := findingsOf(ds, "EG207")
	if len(f) != 1 || !strings.Contains(f[0].Hint, "cudatoolkit=X.Y") || !strings.Contains(f[0].Hint, "10.2, 11.3, 11.6") {
		t.Errorf("EG207 for 1.12 should point at cudatoolkit and 1.12's CUDA versions: %v", f)
	}
}

func TestSemanticsCompanionFramework(t *testing.T) {
	st, _ := lintGolden(t, "eg207_companion_without_framework_conda")
	f := st.Framework
	if f == nil || f.Name != "pytorch" || f.Version != "2.1.0" || f.Dist != kb.DistPytorchConda {
		t.Fatalf("torchaudio=2.1.0 should pull pytorch 2.1.0 from the pytorch channel, got %+v", f)
	}
	// an unpinned companion still installs torch: the framework is pytorch
	// with its release open (issue 26, root cause 5)
	st, _ = lintSrc(t, "channels:\n  - pytorch\ndependencies:\n  - torchvision\n")
	if f := st.Framework; f == nil || f.Name != "pytorch" || f.Version != "" || f.Spec != "" || f.Dist != kb.DistPytorchConda {
		t.Errorf("an unpinned torchvision should pull an open pytorch from the pytorch channel: %+v", st.Framework)
	}
	// a companion with a range admits only some torch releases: not read
	// as an open pytorch
	st, _ = lintSrc(t, "channels:\n  - pytorch\ndependencies:\n  - torchvision>=0.15\n")
	if st.Framework != nil {
		t.Errorf("a ranged torchvision should not make an open framework: %+v", st.Framework)
	}
	// a companion beside torch is a companion, not the framework
	st, _ = lintSrc(t, "channels:\n  - pytorch\ndependencies:\n  - pytorch=2.0.1\n  - torchvision=0.16.0\n")
	if st.Framework == nil || st.Framework.Version != "2.0.1" {
		t.Errorf("pytorch=2.0.1 should stay the framework: %+v", st.Framework)
	}
}

func TestSemanticsHints(t *testing.T) {
	hint := func(file, code string) string {
		t.Helper()
		_, ds := lintGolden(t, file)
		f := findingsOf(ds, code)
		if len(f) == 0 {
			t.Fatalf("%s: no %s finding", file, code)
		}
		return f[0].Hint
	}
	// openmm needs cudatoolkit: change it, never remove it
	if h := hint("eg201_hint_keeps_required_toolkit", "EG201"); strings.Contains(h, "remove") || !strings.Contains(h, "cudatoolkit=11.7") {
		t.Errorf("EG201 hint removes a required cudatoolkit: %q", h)
	}
	if h := hint("eg201_pytorch_cuda_range_vs_toolkit", "EG201"); !strings.Contains(h, "pin pytorch-cuda=11.7 on line 10") || !strings.Contains(h, "remove cudatoolkit==11.7") {
		t.Errorf("EG201 range hint: %q", h)
	}
	// a conda build requires at least its own cuDNN: no hint below it
	if h := hint("eg208_hint_keeps_cudnn", "EG208"); strings.Contains(h, "use cudnn=8.7") || !strings.Contains(h, "keep cudnn on line 9") {
		t.Errorf("EG208 hint lowers cuDNN below the build's: %q", h)
	}
	if h := hint("eg303_tf213_recipe", "EG303"); !strings.Contains(h, "LD_LIBRARY_PATH") || strings.Contains(h, "drop") {
		t.Errorf("EG303 hint for the TF 2.12–2.13 recipe: %q", h)
	}
	if h := hint("eg205_local_version_without_index", "EG205"); !strings.Contains(h, "--extra-index-url …/whl/cu118") {
		t.Errorf("EG205 hint for a local version without an index: %q", h)
	}
	if h := hint("eg203_triton_mismatch", "EG203"); !strings.Contains(h, "triton==2.0.0") {
		t.Errorf("EG203 triton hint: %q", h)
	}
}

func TestSemanticsEG303Hint(t *testing.T) {
	// conda's pytorch needs the CUDA packages pytorch-cuda brings: the hint
	// may not offer to drop them
	_, ds := lintSrc(t, `channels:
  - pytorch
  - nvidia
dependencies:
  - python=3.11
  - pytorch=2.1.2
  - pytorch-cuda=12.1
  - pip
  - pip:
    - nvidia-cublas-cu12==12.1.3.1
`)
	f := findingsOf(ds, "EG303")
	if len(f) != 1 || strings.Contains(f[0].Hint, "drop the conda CUDA packages") || !strings.Contains(f[0].Hint, "drop nvidia-cublas-cu12") {
		t.Errorf("EG303 hint beside conda pytorch: %v", f)
	}
	// a pip torch over cuda-runtime: either side may go
	_, ds = lintGolden(t, "eg303_nvidia_wheels_with_cuda_runtime")
	f = findingsOf(ds, "EG303")
	if len(f) == 0 || !strings.Contains(f[0].Hint, "drop the conda CUDA packages") {
		t.Errorf("EG303 hint beside pip torch: %v", f)
	}
}

func TestSemanticsSilent(t *testing.T) {
	silent := map[string][]string{
		"eg302_cudatoolkit_serves_openmm":        {"EG201"},
		"eg201_cpuonly_cudatoolkit_serves_faiss": {"EG201", "EG202"},
		"eg301_export_echo_silent":               {"EG301", "EG302", "EG304"},
		"eg207_macos_silent":                     {"EG207"},
		"eg203_triton_macos_silent":              {"EG203", "EG304"},
		"eg203_triton_match":                     {"EG203"},
		"eg205_local_version_with_find_links":    {"EG205"},
		"eg201_pytorch_cuda_range_agrees":        {"EG201"},
		"eg303_tf213_recipe_ld_path":             {"EG303"},
		"eg501_name_tf212_canonical":             {"EG501"},
	}
	for file, codes := range silent {
		_, ds := lintGolden(t, file)
		for _, c := range codes {
			if f := findingsOf(ds, c); len(f) > 0 {
				t.Errorf("%s: %s should be silent, got %s", file, c, f[0].Error())
			}
		}
	}
}

func TestTritonKB(t *testing.T) {
	k := kb.Default()
	for torch, want := range map[string]string{"2.0.1": "2.0.0", "2.1.0": "2.1.0", "2.3.0": "2.3.0", "2.3.1": "2.3.1", "2.5.1+cu121": "3.1.0", "2.6.0": "3.2.0", "2.9.1": "3.5.1", "2.11.0": "3.6.0", "2.12.1": "3.7.1"} {
		if r, ok := k.TritonFor(torch); !ok || r.Triton != want || r.Source == "" {
			t.Errorf("TritonFor(%s) = %+v, %v; want %s with a source", torch, r, ok, want)
		}
	}
	// releases no source was found for stay unknown
	for _, torch := range []string{"2.2.0", "2.8.0", "2.10.0"} {
		if _, ok := k.TritonFor(torch); ok {
			t.Errorf("TritonFor(%s) should be unknown", torch)
		}
	}
}

func TestSemanticsConsumerBuildHint(t *testing.T) {
	// faiss-gpu built for CUDA 11.3 requires cudatoolkit 11.3: "use
	// cudatoolkit=11.7" alone could not be solved with it, and the knowledge
	// base lists faiss-gpu 1.7.3 builds for CUDA 10.2 and 11.3 alone, so the
	// hint names those and suggests no 11.7 build (there was none: corpus 108)
	_, ds := lintSrc(t, `channels:
  - pytorch
  - nvidia
dependencies:
  - python=3.8
  - pytorch=1.13.1=py3.8_cuda11.7_cudnn8.5.0_0
  - pytorch-cuda=11.7
  - cudatoolkit=11.3.1
  - faiss-gpu=1.7.3=py3.8_h28a55e0_0_cuda11.3
`)
	f := findingsOf(ds, "EG201")
	// review thirty-one F35: the pytorch channel built 1.13.1 for CUDA 11.6
	// and 11.7 only, so no pair of builds shares a CUDA: a release changes
	if len(f) != 1 || !strings.Contains(f[0].Hint, "no CUDA version has builds of both: pytorch 1.13.1 was built for CUDA 11.6, 11.7 and faiss-gpu 1.7.3 for CUDA 10.2, 11.3, so change the release of one of them") ||
		strings.Contains(f[0].Hint, "build for CUDA 11.7 (") || strings.Contains(f[0].Hint, "with a faiss-gpu build") || strings.Contains(f[0].Hint, "remove") {
		t.Errorf("EG201 hint beside a faiss-gpu built for CUDA 11.3: %v", f)
	}
	// pytorch 1.12.1 was built for CUDA 10.2, 11.3 and 11.6: the hint names
	// the ones faiss-gpu 1.7.3 shares
	_, ds = lintSrc(t, `channels:
  - pytorch
dependencies:
  - python=3.8
  - pytorch=1.12.1=py3.8_cuda11.6_cudnn8.3.2_0
  - cudatoolkit=11.3.1
  - faiss-gpu=1.7.3=py3.8_h28a55e0_0_cuda11.3
`)
	f = findingsOf(ds, "EG201")
	if len(f) != 1 || !strings.Contains(f[0].Hint, "pick builds of pytorch 1.12.1 and faiss-gpu 1.7.3 for CUDA 10.2 or 11.3, which both were published for") {
		t.Errorf("EG201 hint where both have CUDA 11.3 builds: %v", f)
	}
}

func TestSemanticsEG303FrameworkCuDNN(t *testing.T) {
	// the pytorch channel's CUDA build carries its own cuDNN and NCCL: the
	// wheels are second copies even though no cudnn package is listed
	_, ds := lintSrc(t, `channels:
  - pytorch
  - nvidia
dependencies:
  - python=3.11
  - pytorch=2.3.0=py3.11_cuda12.1_cudnn8.9.2_0
  - pytorch-cuda=12.1
  - pip
  - pip:
    - nvidia-cudnn-cu12==8.9.7.29
    - nvidia-nccl-cu12==2.21.5
`)
	f := findingsOf(ds, "EG303")
	// one problem, one finding: both wheels listed, both libraries named
	if len(f) != 1 || !strings.Contains(f[0].Message, "two copies of cuDNN and NCCL") || !strings.Contains(f[0].Message, "nvidia-nccl-cu12==2.21.5 (line 11)") ||
		!strings.Contains(f[0].Hint, "drop nvidia-cudnn-cu12, nvidia-nccl-cu12") || strings.Contains(f[0].Message, "LD_LIBRARY_PATH") || len(f[0].Related) != 2 {
		t.Errorf("EG303 beside conda pytorch: %v", f)
	}
}

func TestSemanticsSolvableMixHints(t *testing.T) {
	// openmm needs cudatoolkit: EG302 may not offer to drop it
	_, ds := lintGolden(t, "eg302_cudatoolkit_serves_openmm")
	f := findingsOf(ds, "EG302")
	if len(f) != 1 || strings.Contains(f[0].Hint, "drop the conda CUDA packages") {
		t.Errorf("EG302 hint drops a cudatoolkit openmm needs: %v", f)
	}
	// conda torchvision requires conda's pytorch: EG301 names it too
	_, ds = lintSrc(t, `channels:
  - pytorch
dependencies:
  - python=3.10
  - pytorch=2.0.1
  - torchvision=0.15.2
  - pip
  - pip:
    - --extra-index-url https://download.pytorch.org/whl/cu118
    - torch==2.0.1+cu118
`)
	f = findingsOf(ds, "EG301")
	if len(f) != 1 || !strings.Contains(f[0].Hint, "the conda packages that require it (torchvision=0.15.2)") {
		t.Errorf("EG301 hint drops conda pytorch under conda torchvision: %v", f)
	}
}

func TestSemanticsEG207Platform(t *testing.T) {
	src := []byte("channels:\n  - conda-forge\ndependencies:\n  - python=3.11\n  - pytorch=2.1.0\n")
	for platform, want := range map[string]int{"osx-arm64": 0, "osx-64": 0, "win-arm64": 0, "linux-64": 1, "linux-aarch64": 1, "win-64": 1} {
		env := envspec.Parse("env.yml", src, envspec.ParseOptions{Platform: platform})
		k := kb.Default()
		ctx := &Context{Env: env, Stack: Resolve(env, k), KB: k}
		if got := len(ruleEG207.Run(ctx)); got != want {
			t.Errorf("--platform %s: %d EG207 findings, want %d", platform, got, want)
		}
	}
}

func TestSemanticsEG201Selector112(t *testing.T) {
	// pytorch 1.12: cudatoolkit selects the build, pytorch-cuda only adds
	// CUDA libraries; the hint drops pytorch-cuda, never cudatoolkit
	_, ds := lintSrc(t, `channels:
  - pytorch
  - nvidia
dependencies:
  - python=3.10
  - pytorch=1.12.1
  - cudatoolkit=11.3
  - pytorch-cuda=11.6
`)
	f := findingsOf(ds, "EG201")
	if len(f) != 1 || !strings.Contains(f[0].Hint, "remove pytorch-cuda=11.6") || strings.Contains(f[0].Hint, "remove cudatoolkit") {
		t.Errorf("EG201 hint for 1.12: %v", f)
	}
}

// TestCompanionPointReleases: torchvision 0.8.1 and 0.11.1 were made for
// torch 1.7.0 and 1.10.0 (the knowledge base's notes cite the sources),
// though the previous-versions page lists only 0.8.0 and 0.11.0; the next
// point release still belongs to the next torch release.
func TestCompanionPointReleases(t *testing.T) {
	for _, tt := range []struct {
		src  string
		fire bool
	}{
		{"channels: [pytorch]\ndependencies:\n  - python=3.8\n  - cudatoolkit=11.0\n  - pytorch=1.7.0\n  - torchvision=0.8.1\n", false},
		{"channels: [pytorch]\ndependencies:\n  - python=3.8\n  - cudatoolkit=11.0\n  - pytorch=1.7.0\n  - torchvision=0.8.0\n", false},
		{"channels: [pytorch]\ndependencies:\n  - python=3.8\n  - cudatoolkit=11.0\n  - pytorch=1.7.0\n  - torchvision=0.8.2\n", true},
		{"dependencies:\n  - python=3.9\n  - pip\n  - pip:\n    - torch==1.10.0+cu113\n    - torchvision==0.11.1+cu113\n    - -f https://download.pytorch.org/whl/torch_stable.html\n", false},
		{"dependencies:\n  - python=3.9\n  - pip\n  - pip:\n    - torch==1.10.0+cu113\n    - torchvision==0.11.2+cu113\n    - -f https://download.pytorch.org/whl/torch_stable.html\n", true},
	} {
		_, ds := lintSrc(t, tt.src)
		if got := len(findingsOf(ds, "EG203")) > 0; got != tt.fire {
			t.Errorf("EG203 fired = %v, want %v for\n%s%v", got, tt.fire, tt.src, ds)
		}
	}
}

func TestSemanticsOperatorTypoIsOneFinding(t *testing.T) {
	// "=>2" is EG103 with its fix; the other checks read ">=2", so no
	// EG206 claims conda's ">2*" admits no release the KB knows
	_, ds := lintSrc(t, `channels:
  - conda-forge
dependencies:
  - python=3.11
  - pytorch=>2
`)
	if len(findingsOf(ds, "EG206")) != 0 {
		t.Errorf("EG206 for a \"=>\" typo: %v", findingsOf(ds, "EG206"))
	}
	if f := findingsOf(ds, "EG502"); len(f) != 1 || !strings.Contains(f[0].Message, "admits 2.0.0") {
		t.Errorf("EG502 should read the meant >=2: %v", f)
	}
}
