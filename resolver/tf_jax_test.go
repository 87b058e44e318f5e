package resolver

import (
	"os"
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/resolver/kb"
)

func TestDecodeJaxlibTag(t *testing.T) {
	cases := []struct {
		tag, variant, cuda string
		major              int
		cudnn              string
	}{
		{"cuda111", "cuda", "11.1", 11, ""},
		{"cuda102", "cuda", "10.2", 10, ""},
		{"cuda11.cudnn82", "cuda", "", 11, "8.2"},
		{"cuda12.cudnn89", "cuda", "", 12, "8.9"},
		{"cuda11.cudnn805", "cuda", "", 11, "8.0.5"},
		{"nocuda", "cpu", "", 0, ""},
		{"cu118", "", "", 0, ""},
	}
	for _, c := range cases {
		a := decodeJaxlibTag(c.tag)
		if a.Variant != c.variant || a.CUDA != c.cuda || a.Major != c.major {
			t.Errorf("decodeJaxlibTag(%q) = %+v, want variant %q cuda %q major %d", c.tag, a, c.variant, c.cuda, c.major)
		}
		if c.cudnn != "" && a.CuDNN != c.cudnn {
			t.Errorf("decodeJaxlibTag(%q).CuDNN = %q, want %q", c.tag, a.CuDNN, c.cudnn)
		}
	}
}

func TestTFGPUCapable(t *testing.T) {
	cases := []struct {
		line string
		want bool
	}{
		{"tensorflow-gpu==1.13.1", true},
		{"tensorflow==1.14.0", false}, // CPU-only up to 1.14 (TF_PIP_HIST)
		{"tensorflow==1.15.0", true},  // 1.15 includes GPU support
		{"tensorflow==2.0.0", false},  // 2.0's tensorflow is CPU-only
		{"tensorflow==2.1.0", true},
		{"tensorflow==2.12.0", true},
		{"tensorflow", true}, // unpinned: the newest release
		{"tensorflow>=2.4", true},
		{"tensorflow<2.1", false},
		{"tensorflow[and-cuda]==2.15.0", true},
		{"tensorflow-cpu==2.12.0", false},
		{"tensorflow==2.13.*", true},
		{"tensorflow==2.0.*", false},
	}
	for _, c := range cases {
		env := envspec.Parse("t.yml", []byte("dependencies:\n  - pip\n  - pip:\n    - "+c.line+"\n"), envspec.ParseOptions{Platform: "linux-64"})
		if len(env.Pip) != 1 {
			t.Fatalf("%s: %d pip items", c.line, len(env.Pip))
		}
		it := readPipItem(env.Pip[0])
		if got := tfGPUCapable(it); got != c.want {
			t.Errorf("tfGPUCapable(%s) = %v, want %v", c.line, got, c.want)
		}
	}
}

func TestCFServes(t *testing.T) {
	cases := []struct {
		built, want string
		exact, ok   bool
	}{
		{"11.2", "11.2", false, true},
		{"11.2", "11.8", false, true}, // minor-version compatibility from CUDA 11
		{"11.8", "11.2", false, false},
		{"11.2", "12.0", false, false},
		{"10.2", "10.2", false, true},
		{"11.2", "11.8", true, false}, // a build string names its own variant
		{"12.0", "12.6", false, true},
	}
	for _, c := range cases {
		if got := cfServes(c.built, c.want, c.exact); got != c.ok {
			t.Errorf("cfServes(%s, %s, %v) = %v, want %v", c.built, c.want, c.exact, got, c.ok)
		}
	}
}

func TestKerasReq(t *testing.T) {
	cases := []struct {
		spec string
		pip  bool
		want string
	}{
		{">=2.12,<2.13", true, "keras==2.12.*"},
		{">=2.12,<2.13", false, "keras=2.12"},
		{">=3.0", false, "keras>=3.0"},
		{">=3.5", true, "keras>=3.5"},
	}
	for _, c := range cases {
		if got := kerasReq(c.spec, c.pip); got != c.want {
			t.Errorf("kerasReq(%q, %v) = %q, want %q", c.spec, c.pip, got, c.want)
		}
	}
	if !kerasSpecsMeet(">=2.12,<2.13", ">=2.12,<2.13") || kerasSpecsMeet("<2.12", ">=2.12,<2.13") || !kerasSpecsMeet(">=3.2", ">=3.0") || kerasSpecsMeet("<3", ">=3.0") {
		t.Error("kerasSpecsMeet disagrees with the ranges")
	}
}

// The knowledge-base facts the TensorFlow/JAX rules rely on, as sourced.
func TestTFJAXFacts(t *testing.T) {
	k := kb.Default()
	tf20, ok := k.TensorFlow("2.0.0")
	if !ok || strings.Contains(strings.Join(tf20.Python, ","), "3.3") || strings.Contains(strings.Join(tf20.Python, ","), "3.4") {
		t.Errorf("TensorFlow 2.0.0 Python = %v: no 3.3/3.4 wheel was built", tf20.Python)
	}
	for _, v := range []string{"1.13.1", "1.14.0", "1.15.0"} {
		c, ok := k.TensorFlow(v)
		if !ok || c.CUDA != "10.0" || c.CuDNN != "7.4" || c.Package != "tensorflow-gpu" {
			t.Errorf("TensorFlow %s = %+v, want CUDA 10.0, cuDNN 7.4, tensorflow-gpu", v, c)
		}
	}
	if c, _ := k.TensorFlow("1.15.0"); len(c.Python) != 0 {
		t.Errorf("TensorFlow 1.15.0 Python %v: no source was read for it", c.Python)
	}
	cf := k.TensorFlowCondaForge("2.12.0")
	if len(cf) != 1 || cf[0].CUDA != "11.2" || cf[0].CuDNN[0] != "8" {
		t.Errorf("conda-forge tensorflow 2.12.0 = %+v, want one cuda112 build against cuDNN 8", cf)
	}
	if cf := k.TensorFlowCondaForge("2.14"); len(cf) != 2 {
		t.Errorf("conda-forge tensorflow 2.14 = %+v, want cuda112 and cuda118", cf)
	}
	if cf := k.TensorFlowCondaForge("2.4.1"); len(cf) != 0 {
		t.Errorf("conda-forge tensorflow 2.4.1 has CUDA rows %+v: the feedstock built no CUDA variant then", cf)
	}
	if p, ok := k.KerasFor("2.12.1"); !ok || p.Keras != ">=2.12,<2.13" {
		t.Errorf("keras for tensorflow 2.12.1 = %+v", p)
	}
	if p, ok := k.KerasFor("2.16.1"); !ok || !strings.HasPrefix(p.Keras, ">=3") {
		t.Errorf("keras for tensorflow 2.16.1 = %+v, want Keras 3", p)
	}
	if _, ok := k.KerasFor("2.5.0"); ok {
		t.Error("tensorflow 2.5 has a keras row: it bundles tf.keras")
	}
	s, ok := k.JAXLibAt("0.4.31")
	if !ok || s.PythonMin != "3.10" || s.CuDNNMin != "9.1" || !s.PluginOnly || strings.Join(s.CUDA, ",") != ">=12.1" {
		t.Errorf("jaxlib 0.4.31 = %+v", s)
	}
	if s, _ := k.JAXLibAt("0.1.69"); strings.Join(s.CUDA, ",") != ">=11.1" || s.PythonMin != "3.6" || s.PluginOnly {
		t.Errorf("jaxlib 0.1.69 = %+v", s)
	}
	if _, ok := k.JAXLibAt("0.1.30"); ok {
		t.Error("jaxlib 0.1.30 is older than every row")
	}
}

// Names of TensorFlow 1.x and JAX environments.
func TestTFJAXNames(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"tensorflow-gpu 1.15", "dependencies:\n  - python=3.7\n  - pip\n  - pip:\n    - tensorflow-gpu==1.15.0\n", "tf115_cu100"},
		{"jax cuda12 plugin", "dependencies:\n  - python=3.11\n  - pip\n  - pip:\n    - jax==0.4.30\n    - jax-cuda12-plugin==0.4.30\n", "jax04_cu12"},
		{"jax[cuda12]", "dependencies:\n  - pip\n  - pip:\n    - jax[cuda12]==0.4.30\n", "jax04_cu12"},
		{"jax plain", "dependencies:\n  - pip\n  - pip:\n    - jax==0.4.30\n", "jax04_cpu"},
		{"jaxlib +cuda111", "dependencies:\n  - pip\n  - pip:\n    - jax==0.2.17\n    - jaxlib==0.1.69+cuda111\n", "jax02_cu111"},
		{"jaxlib +cuda12.cudnn89", "dependencies:\n  - pip\n  - pip:\n    - jax==0.4.23\n    - jaxlib==0.4.23+cuda12.cudnn89\n", "jax04_cu12"},
		{"conda-forge jaxlib cuda12*", "channels:\n  - conda-forge\ndependencies:\n  - jax=0.4.23\n  - jaxlib=0.4.23=cuda12*\n", "jax04_cu12"},
		{"conda-forge jaxlib cuda120", "channels:\n  - conda-forge\ndependencies:\n  - jax=0.4.23\n  - jaxlib=0.4.23=cuda120*\n  - cuda-version=12.0\n", "jax04_cu120"},
	}
	for _, c := range cases {
		env := envspec.Parse("t.yml", []byte(c.src), envspec.ParseOptions{Platform: "linux-64"})
		st := Resolve(env, kb.Default())
		got, err := CanonicalName(st)
		if got != c.want {
			t.Errorf("%s: name %q (%v), want %q", c.name, got, err, c.want)
		}
	}
	// the jax_releases.html page alone makes it a CUDA build whose CUDA
	// version nothing says: no name, and the reason says so
	env := envspec.Parse("t.yml", []byte("dependencies:\n  - pip\n  - pip:\n    - -f https://storage.googleapis.com/jax-releases/jax_releases.html\n    - jax[cuda]==0.2.20\n    - jaxlib==0.1.71\n"), envspec.ParseOptions{Platform: "linux-64"})
	st := Resolve(env, kb.Default())
	if st.Framework == nil || st.Framework.Variant != "cuda" {
		t.Fatalf("jax_releases.html: variant %+v, want cuda", st.Framework)
	}
	if _, err := CanonicalName(st); err == nil || !strings.Contains(err.Error(), "CUDA") {
		t.Errorf("jax_releases.html alone: name error %v", err)
	}
}

// TestTFPipDistClash: pip tensorflow-cpu beside a distribution with GPU
// support leaves the variant open with the reason; beside one without GPU
// support (tensorflow 2.0 on Linux) it stays the CPU build.
func TestTFPipDistClash(t *testing.T) {
	cases := []struct {
		lines   string
		variant string
		why     string
	}{
		{"    - tensorflow==2.14.0\n    - tensorflow-cpu==2.14.0\n", "", "tensorflow-cpu==2.14.0 (line 5) and tensorflow==2.14.0 (line 4) both install the tensorflow package"},
		{"    - tensorflow-gpu==1.15.0\n    - tensorflow-cpu==1.15.0\n", "", "tensorflow-cpu==1.15.0 (line 5) and tensorflow-gpu==1.15.0 (line 4) both install"},
		{"    - tensorflow==2.0.0\n    - tensorflow-cpu==2.0.0\n", "cpu", ""},
		{"    - tensorflow-cpu==2.14.0\n", "cpu", ""},
	}
	for _, c := range cases {
		src := "dependencies:\n  - pip\n  - pip:\n" + c.lines
		st := Resolve(envspec.Parse("t.yml", []byte(src), envspec.ParseOptions{Platform: "linux-64"}), kb.Default())
		f := st.Framework
		if f == nil {
			t.Fatalf("%q: no framework", c.lines)
		}
		if f.Variant != c.variant || !strings.Contains(f.VariantWhy, c.why) || (c.why == "") != (f.VariantWhy == "") {
			t.Errorf("%q: variant %q, why %q; want %q, why with %q", c.lines, f.Variant, f.VariantWhy, c.variant, c.why)
		}
	}
}

// TestEG502HintPython: EG502's example release installs with the file's
// Python (issue 26, corpus 062) and keeps the item's package (review 3
// #377): on defaults tensorflow-gpu is the GPU build and tensorflow the mkl
// one, so "tensorflow=2.3.0" swapped a GPU environment for a CPU one. The
// knowledge base lists no release of the defaults channel's tensorflow-gpu,
// so the conda hint names none; pip's tensorflow-gpu wheels it lists up to
// 2.0.0 (TF_SOURCE's GPU package), the newest of them for Python 3.5.
func TestEG502HintPython(t *testing.T) {
	src, err := os.ReadFile(goldenPath("eg502_tf_gpu_py35"))
	if err != nil {
		t.Fatal(err)
	}
	pip := "name: segnet-env\ndependencies:\n    - python==3.5.0\n    - pip\n    - pip:\n        - tensorflow-gpu\n"
	tests := []struct {
		name, src string
		has, not  []string
	}{
		{"conda, channel-less (corpus 062)", string(src), []string{"(tensorflow-gpu=X.Y.Z)"}, []string{"e.g.", "tensorflow="}},
		{"pip", pip, []string{"e.g. tensorflow-gpu==2.0.0"}, []string{"tensorflow=="}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, ds := lintFile(t, "env.yml", []byte(tt.src))
			for _, d := range ds {
				if d.Code != "EG502" {
					continue
				}
				for _, s := range tt.has {
					if !strings.Contains(d.Hint, s) {
						t.Errorf("hint %q lacks %q", d.Hint, s)
					}
				}
				for _, s := range tt.not {
					if strings.Contains(d.Hint, s) {
						t.Errorf("hint %q says %q", d.Hint, s)
					}
				}
				return
			}
			t.Fatalf("no EG502 in %v", ds)
		})
	}
}
