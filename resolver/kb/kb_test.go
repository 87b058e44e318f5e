package kb

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestEmbeddedValidates(t *testing.T) {
	sub, err := fs.Sub(embedded, "data")
	if err != nil {
		t.Fatal(err)
	}
	k, err := loadFS(sub, "data")
	if err != nil {
		t.Fatalf("embedded knowledge base is invalid:\n%v", err)
	}
	if k.Date == "" || !regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`).MatchString(k.Date) {
		t.Errorf("date = %q", k.Date)
	}
}

// Every row of every table carries a non-empty source.
func TestEveryRowHasSource(t *testing.T) {
	k := Default()
	check := func(table string, i int, src string) {
		t.Helper()
		if strings.TrimSpace(src) == "" {
			t.Errorf("%s[%d]: empty source", table, i)
		}
	}
	for i, r := range k.Torch {
		check("torch", i, r.Source)
	}
	for i, r := range k.Facts.Series {
		check("torch_series", i, r.Source)
	}
	for i, r := range k.TorchVariants {
		check("torch_variants", i, r.Source)
	}
	for i, r := range k.Facts.Arch {
		check("arch", i, r.Source)
	}
	for i, r := range k.CUDADrivers {
		check("cuda_drivers", i, r.Source)
	}
	for i, r := range k.MinorCompat {
		check("minor_compat", i, r.Source)
	}
	for i, r := range k.GPUs {
		check("gpus", i, r.Source)
	}
	for i, r := range k.Facts.TensorFlow {
		check("tensorflow", i, r.Source)
	}
	for i, r := range k.JAX {
		check("jax", i, r.Source)
	}
	for i, r := range k.GPULibs {
		check("gpu_libs", i, r.Source)
	}
	check("cuda_stack", 0, k.CUDAStackSource)
	for _, table := range []string{"torch", "arch", "gpus", "cuda_drivers"} {
		for i, p := range k.positions[table] {
			if p.Line == 0 || p.File == "" {
				t.Errorf("%s[%d]: no position recorded", table, i)
			}
		}
	}
}

func TestTablesAgree(t *testing.T) {
	k := Default()
	// Each torchvision belongs to one torch minor.
	owner := map[string]string{}
	for _, r := range k.Torch {
		s := majorMinor(r.Version)
		for _, tv := range []string{r.Torchvision, r.TorchvisionConda} {
			if tv == "" {
				continue
			}
			if o, ok := owner[tv]; ok && o != s {
				t.Errorf("torchvision %s belongs to torch %s and %s", tv, o, s)
			}
			owner[tv] = s
		}
	}
	// Every CUDA variant named anywhere has a driver floor.
	var named []string
	for _, v := range k.TorchVariants {
		named = append(named, v.CUDA...)
	}
	for _, a := range k.Facts.Arch {
		if a.Framework == FrameworkJAX {
			continue // a CUDA major ("12"), not a toolkit release
		}
		named = append(named, a.CUDA)
	}
	for _, s := range k.Facts.Series {
		named = append(append(named, s.CUDAStable...), s.CUDAExperimental...)
	}
	for _, tf := range k.Facts.TensorFlow {
		named = append(named, tf.CUDA)
	}
	for _, c := range named {
		if _, ok := k.DriverFloor(c); !ok {
			t.Errorf("CUDA %s has no driver floor", c)
		}
	}
	// Every Arch row's series exists; every release's series exists.
	for _, a := range k.Facts.Arch {
		if a.Framework != "" {
			continue // TensorFlow and JAX rows name their own releases
		}
		if _, ok := k.SeriesInfo(a.Series); !ok {
			t.Errorf("arch row series %s not in torch_series", a.Series)
		}
	}
	for _, r := range k.Torch {
		if _, ok := k.SeriesInfo(r.Version); !ok {
			t.Errorf("release %s: series missing", r.Version)
		}
	}
	// Releases are sorted, so LatestTorch is the newest.
	for i := 1; i < len(k.Torch); i++ {
		if c, ok := CompareDotted(k.Torch[i-1].Version, k.Torch[i].Version); !ok || c >= 0 {
			t.Errorf("torch not sorted at %s, %s", k.Torch[i-1].Version, k.Torch[i].Version)
		}
	}
	// The pytorch channel publishes nothing after 2.5.
	for _, v := range k.TorchVariants {
		if v.Dist != DistPytorchConda {
			continue
		}
		c, _ := CompareDotted(v.Series, "2.5")
		if (c > 0) != v.NotPublished {
			t.Errorf("pytorch-channel %s: not_published = %v", v.Series, v.NotPublished)
		}
	}
}

func TestRelease(t *testing.T) {
	k := Default()
	tests := []struct {
		in, tv, ta string
		ok         bool
	}{
		{"2.0.1", "0.15.2", "2.0.2", true},
		{"2.0.1+cu118", "0.15.2", "2.0.2", true},
		{" 1.13.1 ", "0.14.1", "0.13.1", true},
		{"2.11.0", "0.26.0", "2.11.0", true},
		// torchaudio 2.11.0 is its last release: from 2.12.0 the row names none.
		{"2.12.0", "0.27.0", "", true},
		{"2.12.1", "0.27.1", "", true},
		{"2.13.0", "0.28.0", "", true},
		{"2.14.0", "0.29.0", "", true},
		{"2.14.1", "", "", false},
		{"2.0", "", "", false},
		{"2.15.0", "", "", false},
		{"", "", "", false},
	}
	for _, tt := range tests {
		r, ok := k.Release(tt.in)
		if ok != tt.ok {
			t.Errorf("Release(%q) ok = %v", tt.in, ok)
			continue
		}
		if ok && (r.Torchvision != tt.tv || r.Torchaudio != tt.ta) {
			t.Errorf("Release(%q) = %s/%s, want %s/%s", tt.in, r.Torchvision, r.Torchaudio, tt.tv, tt.ta)
		}
	}
	if got := k.LatestTorch(); got != "2.14.0" {
		t.Errorf("LatestTorch = %s", got)
	}
	if !k.NewerThanKB("2.15.0") || k.NewerThanKB("2.0.1") || k.NewerThanKB("junk") {
		t.Error("NewerThanKB")
	}
	if got := k.Series("2.0"); len(got) != 2 || got[0].Version != "2.0.0" || got[1].Version != "2.0.1" {
		t.Errorf("Series(2.0) = %v", got)
	}
	if r, _ := k.Release("2.0.0"); r.TorchvisionConda != "0.15.0" || r.Note == "" {
		t.Errorf("2.0.0 conda pairing/note missing: %+v", r)
	}
	if s, ok := k.SeriesInfo("2.13"); !ok || s.TorchvisionMinor != "0.28" || !slices.Contains(s.Python, "3.15") {
		t.Errorf("SeriesInfo(2.13) = %+v", s)
	}
}

func TestVariants(t *testing.T) {
	k := Default()
	tests := []struct {
		series string
		dist   Distribution
		cuda   []string
		ok     bool
		nopub  bool
	}{
		{"1.13", DistPytorchConda, []string{"11.6", "11.7"}, true, false},
		{"1.12", DistPytorchConda, []string{"10.2", "11.3", "11.6"}, true, false},
		{"2.6", DistPytorchConda, nil, true, true},
		{"2.0.1", DistWheel, []string{"11.7", "11.8"}, true, false},
		{"2.8", DistWheel, []string{"12.6", "12.8", "12.9"}, true, false},
		{"2.0", DistPyPI, []string{"11.7"}, true, false},
		{"2.1", DistPyPI, []string{"12.1"}, true, false},
		{"1.10", DistPyPI, []string{"10.2"}, true, false},
		{"1.0", DistPyPI, nil, false, false},
		{"1.9", DistPytorchConda, []string{"10.2", "11.1"}, true, false},
		{"2.1", DistCondaForge, []string{"11.2", "11.8", "12.0"}, true, false},
		{"2.2", DistCondaForge, nil, true, true},
	}
	for _, tt := range tests {
		v, ok := k.Variants(tt.series, tt.dist)
		if ok != tt.ok {
			t.Errorf("Variants(%s,%s) ok = %v", tt.series, tt.dist, ok)
			continue
		}
		if ok && (!slices.Equal(v.CUDA, tt.cuda) || v.NotPublished != tt.nopub) {
			t.Errorf("Variants(%s,%s) = %v %v", tt.series, tt.dist, v.CUDA, v.NotPublished)
		}
	}
}

func TestArch(t *testing.T) {
	k := Default()
	tests := []struct {
		series, cuda string
		dist         Distribution
		known        bool
		sass, ptx    []string
	}{
		{"1.13", "11.6", DistWheel, true, []string{"3.7", "5.0", "6.0", "7.0", "7.5", "8.0", "8.6"}, nil},
		{"1.13", "11.6", DistPytorchConda, true, []string{"3.7", "5.0", "6.0", "6.1", "7.0", "7.5", "8.0", "8.6"}, []string{"3.7"}},
		{"1.13.1", "11.6", DistPyPI, true, []string{"3.7", "5.0", "6.0", "7.0", "7.5", "8.0", "8.6"}, nil},
		// 2.5 wheels: builder release/2.5 (issue 10 item 3); 12.4 without the 9.0+PTX of nightlies.
		{"2.5", "12.4", DistWheel, true, []string{"5.0", "6.0", "7.0", "7.5", "8.0", "8.6", "9.0"}, nil},
		{"2.5", "11.8", DistWheel, true, []string{"3.7", "5.0", "6.0", "7.0", "7.5", "8.0", "8.6", "9.0"}, nil},
		{"2.5.1", "12.4", DistPyPI, true, []string{"5.0", "6.0", "7.0", "7.5", "8.0", "8.6", "9.0"}, nil},
		{"2.6", "12.6", DistWheel, true, []string{"5.0", "6.0", "7.0", "7.5", "8.0", "8.6", "9.0"}, nil},
		{"2.7", "12.8", DistWheel, true, []string{"7.5", "8.0", "8.6", "9.0", "10.0", "12.0"}, []string{"12.0"}},
		{"2.11", "12.8", DistWheel, true, []string{"7.5", "8.0", "8.6", "9.0", "10.0", "12.0"}, nil},
		{"2.9", "13.0", DistWheel, true, []string{"7.5", "8.0", "8.6", "9.0", "10.0", "12.0"}, []string{"12.0"}},
	}
	for _, tt := range tests {
		a, ok := k.Arch(tt.series, tt.cuda, tt.dist)
		if !ok {
			t.Errorf("Arch(%s,%s,%s) missing", tt.series, tt.cuda, tt.dist)
			continue
		}
		if a.Known != tt.known || !slices.Equal(a.SASS, tt.sass) || !slices.Equal(a.PTX, tt.ptx) {
			t.Errorf("Arch(%s,%s,%s) = known %v sass %v ptx %v", tt.series, tt.cuda, tt.dist, a.Known, a.SASS, a.PTX)
		}
		if !a.Known && a.Note == "" {
			t.Errorf("unknown arch row without note")
		}
	}
	if _, ok := k.Arch("1.13", "11.6", DistCondaForge); ok {
		t.Error("conda-forge built 1.13 for CUDA 11.2 only: no 11.6 row")
	}
	// No PyTorch wheel row from 1.12 on is left with unknown PTX: every
	// published variant's PTX was read (issue 10 item 3). The 1.3 and 1.6
	// rows of arch-1x.yaml still say ptx_unknown (the builder changed its list
	// during those series).
	for _, a := range k.Facts.Arch {
		if c, ok := CompareDotted(a.Series, "1.12"); !ok || c < 0 {
			continue
		}
		if a.Framework == "" && a.Dist == DistWheel && (a.PTXUnknown || !a.Known) {
			t.Errorf("wheel row %s cu%s: known %v, ptx_unknown %v", a.Series, a.CUDA, a.Known, a.PTXUnknown)
		}
	}
}

func TestDrivers(t *testing.T) {
	k := Default()
	floors := []struct{ cuda, want string }{
		{"11.6", "510.39.01"}, {"11.6.2", "510.47.03"}, {"11.6.9", "510.39.01"}, {"12.0", "525.60.13"},
		{"12.8", "570.26"}, {"13.0", "580.65.06"}, {"11.0", "450.51.05"}, {"10.2", "440.33"},
	}
	for _, f := range floors {
		d, ok := k.DriverFloor(f.cuda)
		if !ok || d.LinuxMin != f.want {
			t.Errorf("DriverFloor(%s) = %v %v, want %s", f.cuda, d, ok, f.want)
		}
	}
	for _, bad := range []string{"12.7", "12", "", "cu118", "14.0"} {
		if _, ok := k.DriverFloor(bad); ok {
			t.Errorf("DriverFloor(%q) found a row", bad)
		}
	}
	mc := map[int]string{11: "450.80.02", 12: "525.60.13", 13: "580"}
	for major, want := range mc {
		m, ok := k.MinorCompatFloor(major)
		if !ok || m.LinuxFloor != want {
			t.Errorf("MinorCompatFloor(%d) = %v", major, m)
		}
	}
	if _, ok := k.MinorCompatFloor(10); ok {
		t.Error("CUDA 10 has no minor-version compatibility")
	}
	tests := []struct{ driver, want string }{
		{"580.159.04", "13.0"},
		{"580.65.06", "13.0"},
		{"580.65.05", "12.9"},
		{"570.124.06", "12.8"},
		{"570.26", "12.8"},
		{"535.104.05", "12.2"},
		{"525.60.13", "12.0"},
		{"525.60.12", "11.8"},
		{"470.82.01", "11.4"},
		{"595.71.05", "13.2"},
		{"610.10", "13.2"}, // branch-only 13.3 row: not claimed within R610
		{"616.1", "13.4"},
		{"400.1", "9.2"}, // the table goes back to CUDA 8.0 (toolkit_arch_test.go)
		{"367.47", ""},   // below the CUDA 8.0 GA floor
		{"abc", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := k.DriverCUDA(tt.driver); got != tt.want {
			t.Errorf("DriverCUDA(%q) = %q, want %q", tt.driver, got, tt.want)
		}
	}
}

// A retired architecture's GPUs run no driver after its last branch, so
// the newest CUDA they run natively is that branch's (NV_ARCH_MATRIX; the
// branch's CUDA from NV_RELNOTES): the K80 stops at R470 and CUDA 11.4.
func TestLastDriverBranch(t *testing.T) {
	k := Default()
	tests := []struct {
		cc     string
		branch int
		cuda   string
	}{
		{"3.7", 470, "11.4"}, {"3.5", 470, "11.4"}, {"5.2", 580, "13.0"}, {"6.1", 580, "13.0"}, {"7.0", 580, "13.0"},
	}
	for _, tt := range tests {
		a, ok := k.LastDriverBranch(tt.cc)
		if !ok || a.LastBranch != tt.branch {
			t.Errorf("LastDriverBranch(%s) = %v %v, want R%d", tt.cc, a, ok, tt.branch)
			continue
		}
		if got := k.NewestCUDAOfBranch(a.LastBranch); got != tt.cuda {
			t.Errorf("NewestCUDAOfBranch(%d) = %q, want %q", a.LastBranch, got, tt.cuda)
		}
	}
	// Turing and later are still supported; a CC no source lists has no row.
	for _, cc := range []string{"7.5", "8.0", "9.0", "12.0", "7.2", ""} {
		if a, ok := k.LastDriverBranch(cc); ok {
			t.Errorf("LastDriverBranch(%q) = R%d, want none", cc, a.LastBranch)
		}
	}
	if g, ok := k.GPUByName("Tesla K80"); !ok || g.Arch != "Kepler" {
		t.Errorf("K80 = %v, want a Kepler row", g)
	}
	if got := k.NewestCUDAOfBranch(100); got != "" {
		t.Errorf("NewestCUDAOfBranch(100) = %q, want none", got)
	}
}

func TestCompareDotted(t *testing.T) {
	tests := []struct {
		a, b string
		want int
		ok   bool
	}{
		{"570.124.06", "570.26", 1, true},
		{"580", "580.0.0", 0, true},
		{"12.10", "12.9", 1, true},
		{"1.2.x", "1", 0, false},
		{"", "1", 0, false},
	}
	for _, tt := range tests {
		got, ok := CompareDotted(tt.a, tt.b)
		if got != tt.want || ok != tt.ok {
			t.Errorf("CompareDotted(%q,%q) = %d,%v", tt.a, tt.b, got, ok)
		}
	}
}

func TestGPUByName(t *testing.T) {
	k := Default()
	tests := []struct{ in, name, cc string }{
		{"NVIDIA H200", "NVIDIA H200", "9.0"},
		{"NVIDIA A100-SXM4-80GB", "NVIDIA A100", "8.0"},
		{"NVIDIA A100 80GB PCIe", "NVIDIA A100", "8.0"},
		{"NVIDIA H100 80GB HBM3", "NVIDIA H100", "9.0"},
		{"NVIDIA H100 NVL", "NVIDIA H100", "9.0"},
		{"Tesla V100-SXM2-16GB", "Tesla V100", "7.0"},
		{"NVIDIA GeForce RTX 4090", "GeForce RTX 4090", "8.9"},
		{"NVIDIA L4", "NVIDIA L4", "8.9"},
		{"Tesla T4", "NVIDIA T4", "7.5"},
		{"H100", "NVIDIA H100", "9.0"},
		{"a100", "NVIDIA A100", "8.0"},
		{"L4", "NVIDIA L4", "8.9"},
		{"T4", "NVIDIA T4", "7.5"},
		{"V100", "Tesla V100", "7.0"},
		{"RTX 4090", "GeForce RTX 4090", "8.9"},
		{"B200", "NVIDIA B200", "10.0"},
		{"rtx 4070 ti", "GeForce RTX 4070 Ti", "8.9"},
		{"RTX 4070", "GeForce RTX 4070", "8.9"},
		{"NVIDIA RTX 6000 Ada Generation", "NVIDIA RTX 6000 Ada", "8.9"},
		{"NVIDIA A10G", "NVIDIA A10G", "8.6"},
		{"NVIDIA A10", "NVIDIA A10", "8.6"},
		{"NVIDIA L40S", "NVIDIA L40S", "8.9"},
		{"NVIDIA GH200 480GB", "NVIDIA GH200", "9.0"},
		{"NVIDIA A100-SXM4-40GB MIG 1g.5gb", "NVIDIA A100", "8.0"},
		{"NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", "NVIDIA RTX PRO 6000 Blackwell", "12.0"},
		{"Jetson AGX Orin", "Jetson AGX Orin", "8.7"},
	}
	for _, tt := range tests {
		g, ok := k.GPUByName(tt.in)
		if !ok {
			t.Errorf("GPUByName(%q) found nothing", tt.in)
			continue
		}
		if g.Name != tt.name || g.CC != tt.cc {
			t.Errorf("GPUByName(%q) = %s %s, want %s %s", tt.in, g.Name, g.CC, tt.name, tt.cc)
		}
	}
	// "RTX 3090 Ti" and "H20" have rows of their own now (gpu_table_test.go).
	for _, in := range []string{"", "NVIDIA", "B100", "A1000", "foo 80GB", "A100X", "RTX 6000"} {
		if g, ok := k.GPUByName(in); ok {
			t.Errorf("GPUByName(%q) = %s, want no match", in, g.Name)
		}
	}
}

func TestTensorFlow(t *testing.T) {
	k := Default()
	tests := []struct{ in, version, cuda, cudnn string }{
		{"2.12.0", "2.12.0", "11.8", "8.6"},
		{"2.12", "2.12.0", "11.8", "8.6"},
		{"2.16.2", "2.16.1", "12.3", "8.9"},
		{"2.21.0", "2.21.0", "12.5", "9.3"},
	}
	for _, tt := range tests {
		c, ok := k.TensorFlow(tt.in)
		if !ok || c.Version != tt.version || c.CUDA != tt.cuda || c.CuDNN != tt.cudnn {
			t.Errorf("TensorFlow(%q) = %+v", tt.in, c)
		}
	}
	if _, ok := k.TensorFlow("2.22.0"); ok {
		t.Error("2.22 is not in the KB")
	}
}

func TestLibs(t *testing.T) {
	k := Default()
	conda := map[string]string{"pytorch": "torch", "conda-forge::cupy": "cupy", "jaxlib": "jax", "tensorflow-gpu": "tensorflow", "cudf": "cudf", "numpy": ""}
	for in, want := range conda {
		l, ok := k.LibByConda(in)
		if (want == "") == ok || (ok && l.Lib != want) {
			t.Errorf("LibByConda(%q) = %v %v, want %q", in, l, ok, want)
		}
	}
	pip := map[string]string{
		"torch": "torch", "cupy-cuda12x": "cupy", "CuPy_CUDA11x": "cupy", "nvidia-cublas-cu12": "nvidia-cuda-wheels",
		"nvidia-cudnn-cu13": "nvidia-cuda-wheels", "mxnet-cu112": "mxnet", "jax-cuda12-plugin": "jax", "jax[cuda12]": "jax",
		"onnxruntime-gpu": "onnxruntime-gpu", "tensorrt-cu12": "tensorrt", "cudf-cu12": "cudf", "requests": "", "nvidia": "",
	}
	for in, want := range pip {
		l, ok := k.LibByPip(in)
		if (want == "") == ok || (ok && l.Lib != want) {
			t.Errorf("LibByPip(%q) = %v %v, want %q", in, l, ok, want)
		}
	}
	for _, n := range []string{"cudatoolkit", "cuda-version", "pytorch-cuda", "nvidia::cuda-toolkit", "cudnn", "nccl", "cuda-runtime"} {
		if !k.IsCUDAStack(n) {
			t.Errorf("IsCUDAStack(%q) = false", n)
		}
	}
	for _, n := range []string{"pytorch", "numpy", "cuda"} {
		if k.IsCUDAStack(n) {
			t.Errorf("IsCUDAStack(%q) = true", n)
		}
	}
	if j, ok := k.JAXByMajor(12); !ok || !slices.Contains(j.Packages, "jax-cuda12-plugin") {
		t.Errorf("JAXByMajor(12) = %v", j)
	}
}

func TestCUDAMajorFromPipName(t *testing.T) {
	tests := map[string]int{
		"cupy-cuda12x": 12, "cupy-cuda11x": 11, "cupy-cuda13x": 13, "cupy-cuda117": 11, "cupy-cuda102": 10, "cupy-cuda92": 9,
		"nvidia-cublas-cu11": 11, "nvidia-cudnn-cu12": 12, "nvidia_nccl_cu13": 13, "mxnet-cu112": 11, "mxnet-cu92": 9,
		"mxnet-cu100": 10, "mxnet-cu75": 7, "jax-cuda12-plugin": 12, "jax-cuda13-pjrt": 13, "tensorrt-cu12": 12,
		"cudf-cu12": 12, "bitsandbytes-cuda117": 11, "nvidia-dali-cuda120": 12, "spconv-cu121": 12,
		"torch": 0, "nvidia-cublas": 0, "cuda-python": 0, "pycuda": 0, "": 0, "cu": 0, "cupy": 0, "accuracy-cu1": 0,
	}
	for in, want := range tests {
		if got := CUDAMajorFromPipName(in); got != want {
			t.Errorf("CUDAMajorFromPipName(%q) = %d, want %d", in, got, want)
		}
	}
}

// copyData writes the embedded files to a temporary directory.
func copyData(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	ents, err := fs.ReadDir(embedded, "data")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := fs.ReadFile(embedded, "data/"+e.Name())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadDir(t *testing.T) {
	dir := copyData(t)
	k, err := Load(dir)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if k.Date != Default().Date || len(k.Torch) != len(Default().Torch) {
		t.Error("Load(dir) differs from the embedded KB")
	}
	if _, ok := k.GPUByName("NVIDIA H200"); !ok {
		t.Error("loaded KB lacks its GPU index")
	}
	if _, err := Load(filepath.Join(dir, "missing")); err == nil {
		t.Error("Load of a missing dir succeeded")
	}
	if _, err := Load(t.TempDir()); err == nil {
		t.Error("Load of an empty dir succeeded")
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, file, old, new string
		want                 string // regexp over the error text
	}{
		{"syntax", "torch.yaml", "torch:\n", "torch:\n  - {version: \"2.0.1\"\n", `torch\.yaml:\d+: `},
		{"unknown field", "gpus.yaml", `{name: "NVIDIA L4", cc:`, `{name: "NVIDIA L4", colour: red, cc:`, `gpus\.yaml:\d+: field colour not found`},
		{"empty source", "gpus.yaml", `{name: "NVIDIA L4", cc: "8.9", arch: Ada, min_cuda: "11.8", source: "NV_GPUS; NV_FORUM (cc 8.9 since CUDA 11.8)"}`, `{name: "NVIDIA L4", cc: "8.9", arch: Ada, source: ""}`, `gpus\.yaml:\d+: gpus\[\d+\]: source is empty`},
		{"unsorted torch", "torch.yaml", `{version: "2.0.1", torchvision: "0.15.2"`, `{version: "1.12.9", torchvision: "0.15.2"`, `torch\.yaml:\d+: torch\[\d+\]: version 1\.12\.9 is not after`},
		{"cuda without floor", "torch.yaml", `{series: "2.8", dist: wheel, cuda: ["12.6", "12.8", "12.9"]`, `{series: "2.8", dist: wheel, cuda: ["12.6", "12.8", "12.7"]`, `torch\.yaml:\d+: torch_variants\[\d+\]: cuda 12\.7 has no row`},
		{"arch series missing", "arch.yaml", `{series: "1.12", cuda: "10.2"`, `{series: "0.4", cuda: "10.2"`, `arch\.yaml:\d+: arch\[\d+\]: series 0\.4 is not in torch_series`},
		{"torchvision in two minors", "torch.yaml", `{version: "2.0.1", torchvision: "0.15.2"`, `{version: "2.0.1", torchvision: "0.14.1"`, `torchvision 0\.14\.1 belongs to torch 1\.13 and 2\.0`},
		{"bad cc", "gpus.yaml", `cc: "8.9", arch: Ada, min_cuda: "11.8"`, `cc: "eight", arch: Ada, min_cuda: "11.8"`, `gpus\.yaml:\d+: gpus\[\d+\]: cc "eight"`},
		{"arch row disagrees with a GPU", "gpus.yaml", `{arch: Volta, cc: ["7.0"]`, `{arch: Volta, cc: ["7.0", "7.5"]`, `gpus\.yaml:\d+: gpus\[\d+\]: .* is Turing, but gpu_arch_drivers lists compute capability 7\.5 under Volta`},
		{"cc under two archs", "gpus.yaml", `{arch: Volta, cc: ["7.0"]`, `{arch: Volta, cc: ["6.1", "7.0"]`, `gpu_arch_drivers\[\d+\]: compute capability 6\.1 is also Pascal's`},
		{"unknown key cited", "cuda.yaml", `linux_min: "510.39.01", windows_min: "511.23", label: "CUDA 11.6 GA", source: "NV_RELNOTES"`, `linux_min: "510.39.01", windows_min: "511.23", label: "CUDA 11.6 GA", source: "my memory"`, `cuda\.yaml:\d+: cuda_drivers\[\d+\]: source "my memory" cites no key`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assertLoadRejects(t, tt.file, tt.old, tt.new, tt.want) })
	}
}

func FuzzGPUByName(f *testing.F) {
	for _, s := range []string{"NVIDIA H100 80GB HBM3", "a100", "RTX 4090", "", "---", "1g.5gb"} {
		f.Add(s)
	}
	k := Default()
	f.Fuzz(func(t *testing.T, s string) {
		k.GPUByName(s)
		CUDAMajorFromPipName(s)
		k.DriverCUDA(s)
		k.LibByPip(s)
		k.Release(s)
	})
}

// assertLoadRejects changes old to new in one data file of a copy of the
// knowledge base and checks that Load refuses it with an error matching
// want (a regexp) that names the directory.
func assertLoadRejects(t *testing.T, file, old, new, want string) {
	t.Helper()
	dir := copyData(t)
	p := filepath.Join(dir, file)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s does not contain %q", file, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(dir)
	if err == nil {
		t.Fatal("Load accepted the changed file")
	}
	if !regexp.MustCompile(want).MatchString(err.Error()) {
		t.Errorf("error %q does not match %s", err, want)
	}
	if !strings.Contains(err.Error(), dir) {
		t.Errorf("error %q does not name the directory", err)
	}
}

// The rows of 2.12 … 2.14 (sources-torch212.yaml): the cu132 wheels of 2.12
// ship no PTX (release builds before 2.13 strip it), 2.13.0's keep the
// nightly 12.0+PTX (the strip was a no-op there), PyPI's default is the
// CUDA 13.0 build, and conda-forge built 2.13.0 for Python 3.10 … 3.14.
func TestReleases212To214(t *testing.T) {
	k := Default()
	for _, s := range []string{"2.12", "2.13", "2.14"} {
		v, ok := k.Variants(s, DistWheel)
		if !ok || !slices.Equal(v.CUDA, []string{"12.6", "13.0", "13.2"}) {
			t.Errorf("wheel variants of %s: %+v", s, v)
		}
	}
	if a, ok := k.Arch("2.12", "13.2", DistWheel); !ok || !a.Known || len(a.PTX) != 0 || !slices.Contains(a.SASS, "12.0") || slices.Contains(a.SASS, "7.0") {
		t.Errorf("2.12 cu132: %+v", a)
	}
	if a, ok := k.Arch("2.13", "13.2", DistWheel); !ok || !a.Known || !slices.Equal(a.PTX, []string{"12.0"}) {
		t.Errorf("2.13 cu132: %+v", a)
	}
	if a, ok := k.Arch("2.14", "13.0", DistPyPI); !ok || !a.Known || len(a.PTX) != 0 {
		t.Errorf("2.14 PyPI cu130 (the wheel row): %+v", a)
	}
	r, ok := k.Release("2.13.0")
	if !ok || slices.Contains(r.Python, "3.15") || !slices.Equal(r.PythonExperimental, []string{"3.14t"}) {
		t.Errorf("2.13.0 Python: %+v", r)
	}
	if row, ok := k.PythonBuilds("2.13.0", DistCondaForge, "13.0"); !ok || !slices.Equal(row.Python, []string{"3.10", "3.11", "3.12", "3.13", "3.14"}) {
		t.Errorf("conda-forge 2.13.0 Python builds: %+v", row)
	}
}

// A dev_builds source is only meaningful on a PyTorch row of the builds
// PyTorch's own scripts made (the wheel index, the pytorch channel, whose
// nightlies come from the same scripts): it says the nightlies and release
// candidates were built with the release's list.
func TestArchDevBuildsRows(t *testing.T) {
	n := 0
	for _, a := range Default().Facts.Arch {
		if a.DevBuilds == "" {
			continue
		}
		n++
		if a.Framework != "" || (a.Dist != DistWheel && a.Dist != DistPytorchConda) || !a.Known || a.PTXUnknown {
			t.Errorf("arch %s cu%s %s: dev_builds on a row that is not a known list of a PyTorch wheel or pytorch-channel build", a.Series, a.CUDA, a.Dist)
		}
	}
	if n == 0 {
		t.Error("no arch row records its series' development builds")
	}
}

func TestPipNameStem(t *testing.T) {
	for in, want := range map[string]string{
		"cupy-cuda101": "cupy", "cupy_cuda12x": "cupy", "mxnet-cu112": "mxnet",
		"nvidia-cublas-cu11": "nvidia-cublas", "jax-cuda12-plugin": "jax", "cupy": "", "curl-cu": "", "cu118": "",
	} {
		if got := PipNameStem(in); got != want {
			t.Errorf("PipNameStem(%q) = %q, want %q", in, got, want)
		}
	}
	k := &KB{Facts: Facts{ExtensionBuilds: []ExtensionBuild{
		{Name: "cupy-cuda12x", Version: "13.4.1", Dist: "pypi"}, {Name: "cupy", Version: "12.0.0", Dist: "conda-forge"}, {Name: "cupyx", Version: "1", Dist: "pypi"}, {Name: "cupy-cuda12x", Version: "13.0.0", Dist: "pypi"},
	}}}
	if got := strings.Join(k.ExtensionsOfStem("cupy"), ","); got != "cupy (conda-forge),cupy-cuda12x (pypi)" {
		t.Errorf("ExtensionsOfStem(cupy) = %q, want cupy (conda-forge),cupy-cuda12x (pypi)", got)
	}
	if got := k.ExtensionsOfStem(""); got != nil {
		t.Errorf("ExtensionsOfStem(\"\") = %q, want none", got)
	}
}

func TestJAXPipCUDASince(t *testing.T) {
	k := &KB{Facts: Facts{JAXExtras: []JAXExtra{
		{Extra: "cuda", Since: "0.2.23"}, {Extra: "cuda12_pip", Since: "0.4.9"}, {Extra: "cuda11-pip", Since: "0.4.7"}, {Extra: "cuda12", Since: "0.4.22"},
	}}}
	if got, ok := k.JAXPipCUDASince(); !ok || got != "0.4.7" {
		t.Errorf("JAXPipCUDASince = %q %v, want 0.4.7", got, ok)
	}
	if got, ok := (&KB{}).JAXPipCUDASince(); ok {
		t.Errorf("empty table: JAXPipCUDASince = %q, want none", got)
	}
}

// conda_releases: listed releases are published, an unlisted one in the
// complete span is not, anything else is not known.
func TestCondaPublishedDefaults(t *testing.T) {
	k := Default()
	for _, tt := range []struct {
		v          string
		pub, known bool
	}{
		{"2.4.1", false, true}, {"2.4.0", false, true}, {"2.0.0", false, true}, {"2.7.1", false, true},
		{"2.3.1", true, true}, {"2.5.1", true, true}, {"2.12.0", true, true}, {"1.12.1", true, true},
		{"1.11.0", false, false}, {"2.13.0", false, false},
	} {
		pub, known := k.CondaPublished("pytorch", DistDefaults, tt.v)
		if pub != tt.pub || known != tt.known {
			t.Errorf("CondaPublished(pytorch, defaults, %s) = %v, %v; want %v, %v", tt.v, pub, known, tt.pub, tt.known)
		}
	}
	if _, known := k.CondaPublished("pytorch", DistCondaForge, "2.4.1"); known {
		t.Error("conda-forge has no conda_releases row: not known")
	}
}
