package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/internal/timebound"
	"github.com/envguard/envguard/report"
)

// Channels as conda-meta records spell them.
const (
	chPytorch = "https://conda.anaconda.org/pytorch"
	chNvidia  = "https://conda.anaconda.org/nvidia"
	chForge   = "https://conda.anaconda.org/conda-forge"
	chMain    = "https://repo.anaconda.com/pkgs/main"
)

// fakePrefix writes an installed environment the way conda, pip and uv
// leave one: conda-meta/<name>-<version>-<build>.json records, *.dist-info
// folders with METADATA and INSTALLER, torch/version.py.
type fakePrefix struct {
	t   testing.TB
	dir string
	py  string // "3.10"
}

func newCondaPrefix(t testing.TB, py string) *fakePrefix {
	t.Helper()
	p := &fakePrefix{t: t, dir: t.TempDir(), py: py}
	p.write("conda-meta/history", "==> 2024-03-01 10:00:00 <==\n# cmd: conda create -n x\n")
	return p
}

func newVenv(t testing.TB, pyPatch string) *fakePrefix {
	t.Helper()
	py := pyPatch[:strings.LastIndexByte(pyPatch, '.')]
	p := &fakePrefix{t: t, dir: t.TempDir(), py: py}
	p.write("pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\nversion = "+pyPatch+"\n")
	// A venv's python answers sys.prefix with the venv.
	p.write("bin/python3", "#!/bin/sh\necho '"+p.dir+"'\n")
	return p
}

func (p *fakePrefix) write(rel, content string) {
	p.t.Helper()
	path := filepath.Join(p.dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// conda writes a conda-meta record with conda's layout (two-space indent,
// sorted keys) and a file list, so the reader meets records of realistic
// size. channel is a full channel URL; the subdir is appended to it as
// conda does in the url field.
func (p *fakePrefix) conda(name, version, build, channel, subdir string) {
	p.t.Helper()
	files := []string{}
	for i := 0; i < 20; i++ {
		files = append(files, fmt.Sprintf("lib/python%s/site-packages/%s/f%d.py", p.py, name, i))
	}
	fn := name + "-" + version + "-" + build
	rec := map[string]any{
		"build": build, "build_number": 0, "channel": channel + "/" + subdir,
		"constrains": []string{}, "depends": []string{"python >=" + p.py},
		"extracted_package_dir": "/opt/conda/pkgs/" + fn, "files": files, "fn": fn + ".conda",
		"license": "BSD-3-Clause", "md5": strings.Repeat("0f", 16), "name": name,
		"requested_spec": "", "size": 12345, "subdir": subdir, "timestamp": 1700000000000,
		"url": channel + "/" + subdir + "/" + fn + ".conda", "version": version,
	}
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		p.t.Fatal(err)
	}
	p.write("conda-meta/"+fn+".json", string(b)+"\n")
}

func (p *fakePrefix) sitePackages() string {
	return filepath.Join("lib", "python"+p.py, "site-packages")
}

// dist writes a dist-info folder; installer "" writes no INSTALLER file.
func (p *fakePrefix) dist(name, version, installer string) {
	p.t.Helper()
	di := filepath.Join(p.sitePackages(), strings.ReplaceAll(name, "-", "_")+"-"+version+".dist-info")
	p.write(filepath.Join(di, "METADATA"), "Metadata-Version: 2.1\nName: "+name+"\nVersion: "+version+
		"\nSummary: a package\nRequires-Python: >=3.8\n\nLong description.\n")
	if installer != "" {
		p.write(filepath.Join(di, "INSTALLER"), installer+"\n")
	}
	p.write(filepath.Join(di, "RECORD"), name+"/__init__.py,sha256=x,1\n")
}

// torch writes torch/version.py as a torch build does; cuda "" is None (a
// CPU build).
func (p *fakePrefix) torch(version, cuda string) {
	p.t.Helper()
	c := "None"
	if cuda != "" {
		c = "'" + cuda + "'"
	}
	p.write(filepath.Join(p.sitePackages(), "torch", "version.py"),
		"from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"+
			"__version__ = '"+version+"'\ndebug = False\ncuda: Optional[str] = "+c+"\ngit_version = '3a8d0f5'\nhip: Optional[str] = None\n")
}

// condaBase is what every conda environment has.
func (p *fakePrefix) condaBase(pyPatch string) {
	p.conda("python", pyPatch, "h955ad1f_0", chMain, "linux-64")
	for _, n := range [][2]string{{"pip", "23.3.1"}, {"setuptools", "68.2.2"}, {"wheel", "0.41.2"}} {
		p.conda(n[0], n[1], "py"+strings.ReplaceAll(p.py, ".", "")+"h06a4308_0", chMain, "linux-64")
		p.dist(n[0], n[1], "conda")
	}
	p.conda("openssl", "3.0.12", "h7f8727e_0", chMain, "linux-64")
	p.conda("libgcc-ng", "11.2.0", "h1234567_1", chMain, "linux-64")
}

// condaTorch21 is torch 2.1.2 from the pytorch channel with pytorch-cuda
// (cuda "" installs the cpuonly build).
func (p *fakePrefix) condaTorch21(cuda string) {
	py := strings.ReplaceAll(p.py, ".", "")
	if cuda == "" {
		p.conda("pytorch", "2.1.2", "py"+p.py+"_cpu_0", chPytorch, "linux-64")
		p.conda("pytorch-mutex", "1.0", "cpu", chPytorch, "noarch")
		p.conda("cpuonly", "2.0", "0", chPytorch, "noarch")
		p.conda("torchvision", "0.16.2", "py"+py+"_cpu", chPytorch, "linux-64")
		p.torch("2.1.2", "")
	} else {
		cu := strings.ReplaceAll(cuda, ".", "")
		p.conda("pytorch", "2.1.2", "py"+p.py+"_cuda"+cuda+"_cudnn8.9.2_0", chPytorch, "linux-64")
		p.conda("pytorch-cuda", cuda, "ha16c6d3_5", chPytorch, "linux-64")
		p.conda("pytorch-mutex", "1.0", "cuda", chPytorch, "noarch")
		p.conda("torchvision", "0.16.2", "py"+py+"_cu"+cu, chPytorch, "linux-64")
		p.conda("cuda-runtime", cuda+".0", "0", chNvidia, "linux-64")
		p.conda("cuda-cudart", cuda+".105", "0", chNvidia, "linux-64")
		p.conda("libcublas", cuda+".3.1", "0", chNvidia, "linux-64")
		p.torch("2.1.2", cuda)
	}
	p.conda("torchaudio", "2.1.2", "py"+py+"_cu121", chPytorch, "linux-64")
	p.conda("numpy", "1.26.3", "py"+py+"h5f9d8c6_0", chMain, "linux-64")
	// The pytorch channel's torch ships a dist-info conda marks as its own.
	p.dist("torch", "2.1.2", "conda")
	p.dist("numpy", "1.26.3", "conda")
}

// fakeH100 is a machine as NVML reads it: one H100, driver 550.54.15 (CUDA 12.4).
func fakeH100() *gpucheck.Host {
	return &gpucheck.Host{
		Name: "local", Available: true, Driver: "550.54.15", CUDADriver: "12.4", NVML: "12.550.54.15",
		Source: gpucheck.SourceNVML,
		GPUs: []gpucheck.GPU{{
			Index: 0, Name: "NVIDIA H100 80GB HBM3", UUID: "GPU-6b5b2b4d-8f0e-4c43-9a0e-0e4c6f1b2a11", CC: "9.0",
			MemoryTotal: 80 << 30, MemoryFree: 79 << 30, MemoryUsed: 1 << 30,
		}},
	}
}

// fakeNoDriver is a machine without an NVIDIA driver, as NVML reports one.
func fakeNoDriver() *gpucheck.Host {
	return &gpucheck.Host{Name: "local", Source: gpucheck.SourceNVML, GPUs: []gpucheck.GPU{},
		Reason: "no NVIDIA driver: the NVML library (libnvidia-ml.so.1) is not installed"}
}

// runCLI runs envguard in process with a controlled environment and local
// host; vars is the whole process environment.
func runCLI(t testing.TB, host func() *gpucheck.Host, vars map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{
		stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv:    func(k string) string { return vars[k] },
		lookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok },
		local:     host,
		// An empty config file keeps a .envguard.yml of the working
		// directory out of the test.
		configFile: emptyConfig(t),
	}
	code = run(args, e)
	return code, out.String(), errb.String()
}

func emptyConfig(t testing.TB) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "envguard.yml")
	if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkJSON runs check --format json on a prefix and decodes the report.
func checkJSON(t *testing.T, host func() *gpucheck.Host, vars map[string]string, dir string) (int, *report.Report) {
	t.Helper()
	code, out, errs := runCLI(t, host, vars, "check", "--prefix", dir, "--format", "json")
	if code == ExitUsage || code == ExitInternal {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r report.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("check --format json printed no report: %v\n%s", err, out)
	}
	return code, &r
}

func findingCodes(r *report.Report) []string {
	var cs []string
	for _, f := range r.Findings {
		cs = append(cs, f.Code)
	}
	sort.Strings(cs)
	return cs
}

func findingsOf(r *report.Report, code string) []report.Finding {
	var out []report.Finding
	for _, f := range r.Findings {
		if f.Code == code {
			out = append(out, f)
		}
	}
	return out
}

func TestCheckPrefixes(t *testing.T) {
	tests := []struct {
		name  string
		make  func(t *testing.T) string
		vars  map[string]string
		host  func() *gpucheck.Host
		exit  int
		codes []string // exactly these finding codes (sorted)
		// names: for each code, words its message must contain (the items
		// involved, as the user would look for them).
		names     map[string][]string
		framework string // "pytorch 2.1.2 conda cuda"
		cuda      string
	}{
		{
			name: "clean conda env",
			make: func(t *testing.T) string {
				p := newCondaPrefix(t, "3.10")
				p.condaBase("3.10.13")
				p.condaTorch21("12.1")
				return p.dir
			},
			host: fakeH100, exit: 0, codes: nil,
			framework: "pytorch 2.1.2", cuda: "12.1",
		},
		{
			// the pytorch channel's torch links MKL dynamically and imports
			// iJIT_NotifyEvent, which MKL 2024.1 and later do not export
			// (pytorch/pytorch#123097): the prefix holds conda-forge's 2024.2
			name: "the pytorch channel's torch beside conda-forge's mkl 2024.2",
			make: func(t *testing.T) string {
				p := newCondaPrefix(t, "3.10")
				p.condaBase("3.10.13")
				p.condaTorch21("12.1")
				p.conda("mkl", "2024.2.0", "ha957f24_49657", chForge, "linux-64")
				return p.dir
			},
			host: fakeH100, exit: 1, codes: []string{"EG411"},
			names:     map[string][]string{"EG411": {"the environment holds mkl 2024.2.0", "undefined symbol: iJIT_NotifyEvent"}},
			framework: "pytorch 2.1.2", cuda: "12.1",
		},
		{
			name: "the same torch beside mkl 2023.1",
			make: func(t *testing.T) string {
				p := newCondaPrefix(t, "3.10")
				p.condaBase("3.10.13")
				p.condaTorch21("12.1")
				p.conda("mkl", "2023.1.0", "h213fc3f_46344", chMain, "linux-64")
				return p.dir
			},
			host: fakeH100, exit: 0, codes: nil,
			framework: "pytorch 2.1.2", cuda: "12.1",
		},
		{
			name: "clean venv with pip torch and its nvidia wheels",
			make: func(t *testing.T) string {
				p := newVenv(t, "3.11.8")
				p.dist("pip", "24.0", "pip")
				p.dist("torch", "2.5.1+cu124", "pip")
				p.dist("torchvision", "0.20.1+cu124", "pip")
				p.dist("nvidia-cublas-cu12", "12.4.5.8", "pip")
				p.dist("nvidia-cudnn-cu12", "9.1.0.70", "pip")
				p.dist("nvidia-cuda-runtime-cu12", "12.4.127", "pip")
				p.dist("numpy", "2.1.3", "pip")
				p.torch("2.5.1+cu124", "12.4")
				return p.dir
			},
			host: fakeH100, exit: 0, codes: nil, // the 2.5 cu124 wheel has sm_90 SASS (builder release/2.5)
			framework: "pytorch 2.5.1", cuda: "12.4",
		},
		{
			name: "torch from both conda and pip",
			make: condaTorchReinstalledBy("pip"),
			host: fakeH100, exit: 1, codes: []string{"EG301"},
			names: map[string][]string{"EG301": {"pytorch", "torch"}},
		},
		{
			name: "uv torch beside conda pytorch",
			make: condaTorchReinstalledBy("uv"),
			host: fakeH100, exit: 1, codes: []string{"EG301"},
			names: map[string][]string{"EG301": {"pytorch", "torch"}},
		},
		{
			name: "pip torch cu121 in a conda env with cudatoolkit 11.8",
			make: func(t *testing.T) string {
				p := newCondaPrefix(t, "3.10")
				p.condaBase("3.10.13")
				p.conda("cudatoolkit", "11.8.0", "h6a678d5_0", chMain, "linux-64")
				p.dist("torch", "2.1.2+cu121", "pip")
				p.torch("2.1.2+cu121", "12.1")
				return p.dir
			},
			host: fakeH100, exit: 1, codes: []string{"EG201", "EG302"},
			names: map[string][]string{"EG201": {"cudatoolkit", "11.8", "12.1"}, "EG302": {"torch", "cudatoolkit"}},
		},
		{
			name: "pip torch cu121 in a conda env pinned to cuda-version 11.8",
			make: func(t *testing.T) string {
				p := newCondaPrefix(t, "3.11")
				p.condaBase("3.11.8")
				p.conda("cuda-version", "11.8", "h70ddcb2_3", chForge, "noarch")
				p.conda("cudatoolkit", "11.8.0", "h4ba93d1_13", chForge, "linux-64")
				p.dist("torch", "2.1.2+cu121", "pip")
				p.torch("2.1.2+cu121", "12.1")
				return p.dir
			},
			// cuda-version constrains only conda packages: EG201 is the
			// cudatoolkit's alone, not cuda-version's (issue 26)
			host: fakeH100, exit: 1, codes: []string{"EG201", "EG302"},
			names: map[string][]string{"EG201": {"cudatoolkit", "11.8", "12.1"}, "EG302": {"torch"}},
		},
		{
			name: "pip nvidia wheels beside conda CUDA",
			make: func(t *testing.T) string {
				p := newCondaPrefix(t, "3.10")
				p.condaBase("3.10.13")
				p.condaTorch21("12.1")
				p.dist("nvidia-cublas-cu12", "12.1.3.1", "pip")
				p.dist("nvidia-cudnn-cu12", "8.9.2.26", "pip")
				return p.dir
			},
			host: fakeH100, exit: 0, codes: []string{"EG303"},
			names: map[string][]string{"EG303": {"nvidia-cu"}},
		},
		{
			name: "CUDA env on a machine without a driver",
			make: func(t *testing.T) string {
				p := newCondaPrefix(t, "3.10")
				p.condaBase("3.10.13")
				p.condaTorch21("12.1")
				return p.dir
			},
			host: fakeNoDriver, exit: 1, codes: []string{"EG404"},
			names: map[string][]string{"EG404": {"driver"}},
		},
		{
			name: "CPU env on a machine without a driver",
			make: func(t *testing.T) string {
				p := newCondaPrefix(t, "3.10")
				p.condaBase("3.10.13")
				p.condaTorch21("")
				return p.dir
			},
			host: fakeNoDriver, exit: 0, codes: nil,
			framework: "pytorch 2.1.2",
		},
		{
			name: "CPU env on a GPU machine",
			make: func(t *testing.T) string {
				p := newCondaPrefix(t, "3.10")
				p.condaBase("3.10.13")
				p.condaTorch21("")
				return p.dir
			},
			host: fakeH100, exit: 0, codes: []string{"EG407"},
			names: map[string][]string{"EG407": {"CPU", "H100"}},
		},
		{
			name: "bad PYTORCH_CUDA_ALLOC_CONF in the process environment",
			make: func(t *testing.T) string {
				p := newCondaPrefix(t, "3.10")
				p.condaBase("3.10.13")
				p.condaTorch21("12.1")
				return p.dir
			},
			// The CUDA torch refuses both: the job stops (issue 27).
			vars: map[string]string{"PYTORCH_CUDA_ALLOC_CONF": "max_split_size_mb:10,growth_factor:2"},
			host: fakeH100, exit: 1, codes: []string{"EG503", "EG503"},
			names: map[string][]string{"EG503": {"PYTORCH_CUDA_ALLOC_CONF", "refuses it"}},
		},
		{
			name: "an allocator option the installed torch predates stops the job",
			make: func(t *testing.T) string {
				p := newVenv(t, "3.10.13")
				p.dist("torch", "2.0.1+cu118", "pip")
				p.torch("2.0.1+cu118", "11.8")
				return p.dir
			},
			vars: map[string]string{"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"},
			host: fakeH100, exit: 1, codes: []string{"EG504"},
			names: map[string][]string{"EG504": {"expandable_segments", "refuses it"}},
		},
		{
			// Older releases do not read PYTORCH_ALLOC_CONF, and with both
			// set which one wins differs between releases.
			name: "a bad PYTORCH_ALLOC_CONF stays a warning",
			make: func(t *testing.T) string {
				p := newCondaPrefix(t, "3.10")
				p.condaBase("3.10.13")
				p.condaTorch21("12.1")
				return p.dir
			},
			vars: map[string]string{"PYTORCH_ALLOC_CONF": "growth_factor:2", "PYTORCH_CUDA_ALLOC_CONF": "max_split_size_mb:10"},
			host: fakeH100, exit: 0, codes: []string{"EG503", "EG503"},
		},
		{
			name: "a reserve PyTorch only ignores stays a warning",
			make: func(t *testing.T) string {
				p := newCondaPrefix(t, "3.10")
				p.condaBase("3.10.13")
				p.condaTorch21("12.1")
				return p.dir
			},
			vars: map[string]string{"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments_reserve:-3"},
			host: fakeH100, exit: 0, codes: []string{"EG503"},
			names: map[string][]string{"EG503": {"ignores it"}},
		},
		{
			name: "a CPU torch never reads the allocator settings",
			make: func(t *testing.T) string {
				p := newCondaPrefix(t, "3.10")
				p.condaBase("3.10.13")
				p.condaTorch21("")
				return p.dir
			},
			vars: map[string]string{"PYTORCH_CUDA_ALLOC_CONF": "max_split_size_mb:10"},
			host: fakeH100, exit: 0, codes: []string{"EG407", "EG503"},
		},
		{
			name: "CUDA_VISIBLE_DEVICES hides every GPU",
			make: func(t *testing.T) string {
				p := newCondaPrefix(t, "3.10")
				p.condaBase("3.10.13")
				p.condaTorch21("12.1")
				return p.dir
			},
			vars: map[string]string{"CUDA_VISIBLE_DEVICES": ""},
			host: fakeH100, exit: 1, codes: []string{"EG404"},
			names: map[string][]string{"EG404": {"GPU"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.make(t)
			code, r := checkJSON(t, tt.host, tt.vars, dir)
			for _, f := range r.Findings {
				t.Logf("%s %s %s", f.Severity, f.Code, f.Message)
			}
			if got := findingCodes(r); strings.Join(got, " ") != strings.Join(tt.codes, " ") {
				t.Errorf("codes = %v, want %v", got, tt.codes)
				for _, f := range r.Findings {
					t.Logf("  %s %s %s", f.Severity, f.Code, f.Message)
				}
			}
			if code != tt.exit {
				t.Errorf("exit = %d, want %d", code, tt.exit)
			}
			for c, words := range tt.names {
				for _, f := range findingsOf(r, c) {
					for _, w := range words {
						if !strings.Contains(f.Message, w) {
							t.Errorf("%s message does not name %q: %s", c, w, f.Message)
						}
					}
				}
			}
			if tt.framework != "" {
				fw := r.Stack.Framework
				if fw == nil || fw.Name+" "+strings.SplitN(fw.Version, "+", 2)[0] != tt.framework {
					t.Errorf("framework = %+v, want %s", fw, tt.framework)
				}
			}
			if tt.cuda != "" && (r.Stack.CUDA == nil || r.Stack.CUDA.Version != tt.cuda) {
				t.Errorf("cuda = %+v, want %s", r.Stack.CUDA, tt.cuda)
			}
			if len(r.Targets) != 1 || r.Targets[0].Name != "local" {
				t.Errorf("targets = %+v, want the local machine only", r.Targets)
			}
		})
	}
}

// bigPrefix is a conda environment of n packages: a CUDA torch stack, then
// conda packages and pip wheels up to n, as a real training env has.
func bigPrefix(t testing.TB, n int) string {
	p := newCondaPrefix(t, "3.10")
	p.condaBase("3.10.13")
	p.condaTorch21("12.1")
	entries, _ := os.ReadDir(filepath.Join(p.dir, "conda-meta"))
	have := len(entries) - 1 // history
	for i := 0; have < n; i++ {
		name := fmt.Sprintf("pkg%03d", i)
		if i%5 == 4 {
			p.dist(name, "1.0."+fmt.Sprint(i), "pip")
		} else {
			p.conda(name, "1.0."+fmt.Sprint(i), "py310h06a4308_0", chForge, "linux-64")
			p.dist(name, "1.0."+fmt.Sprint(i), "conda")
		}
		have++
	}
	return p.dir
}

// check must finish well under a second on a real environment's size.
func TestCheckFastOnBigPrefix(t *testing.T) {
	dir := bigPrefix(t, 300)
	// The first run warms the file system cache as a second check of the
	// same prefix would find it; the figure is the slower of the two.
	var worst time.Duration
	for i := 0; i < 2; i++ {
		start := time.Now()
		code, out, errs := runCLI(t, fakeH100, nil, "check", "--prefix", dir)
		d := time.Since(start)
		if d > worst {
			worst = d
		}
		if code != ExitOK {
			t.Fatalf("exit %d\n%s%s", code, out, errs)
		}
	}
	// Held where .ci/run asks for time bounds, never under -race or on a
	// machine it does not own.
	timebound.Within(t, "check of a 300-package prefix", worst, time.Second)
}

func TestCheckVerdictText(t *testing.T) {
	p := newCondaPrefix(t, "3.10")
	p.condaBase("3.10.13")
	p.condaTorch21("12.1")
	p.dist("nvidia-cublas-cu12", "12.1.3.1", "pip")
	code, out, errs := runCLI(t, fakeH100, map[string]string{"CONDA_PREFIX": p.dir}, "check")
	if code != ExitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{
		"envguard check: " + p.dir + " (from $CONDA_PREFIX)",
		"framework  pytorch 2.1.2 from conda, cuda build",
		"cuda       12.1 runtime (torch 2.1.2 (installed), cuda-cudart==12.1.105=0, cuda-runtime==12.1.0=0, and 3 more)",
		"python     3.10\n",
		"driver     550.54.15 (supports CUDA 12.4)",
		"gpu 0      NVIDIA H100 80GB HBM3 (sm_90)",
		"verdict    OK: the job can start (0 errors, 1 warning)",
		"warning EG303",
		"nvidia-cublas-cu12",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("verdict lacks %q:\n%s", want, out)
		}
	}
}

func TestCheckFindsTheActiveEnvironment(t *testing.T) {
	conda := newCondaPrefix(t, "3.10")
	conda.condaBase("3.10.13")
	conda.condaTorch21("12.1")
	venv := newVenv(t, "3.11.8")
	venv.dist("torch", "2.5.1+cu124", "pip")
	venv.torch("2.5.1+cu124", "12.4")
	if err := os.Chmod(filepath.Join(venv.dir, "bin", "python3"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A pyenv-style shim: a script in a shims directory that runs the
	// real interpreter; its own directory is no environment.
	shims := t.TempDir()
	if err := os.WriteFile(filepath.Join(shims, "python3"), []byte("#!/bin/sh\nexec '"+filepath.Join(venv.dir, "bin", "python3")+"' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A system Python (an NGC image's /usr): torch in /usr/local's dist-packages.
	usr := filepath.Join(t.TempDir(), "usr")
	for _, f := range [][2]string{
		{"lib/python3.10/os.py", ""},
		{"local/lib/python3.10/dist-packages/torch-2.1.0a0+32f93b1.dist-info/METADATA", "Metadata-Version: 2.1\nName: torch\nVersion: 2.1.0a0+32f93b1\n\n"},
		{"local/lib/python3.10/dist-packages/torch/version.py", "__version__ = '2.1.0a0+32f93b1'\ncuda = '12.2'\n"},
		{"bin/python3", "#!/bin/sh\necho '" + usr + "'\n"},
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(usr, f[0])), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(usr, f[0]), []byte(f[1]), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		vars map[string]string
		args []string
		how  string
		dir  string
		fw   string
	}{
		{"pyenv shim on PATH", map[string]string{"PATH": shims}, nil,
			"python3 on PATH (" + filepath.Join(shims, "python3") + ")", venv.dir, "pytorch 2.5.1 from pip, cuda build"},
		{"system python on PATH", map[string]string{"PATH": filepath.Join(usr, "bin")}, nil,
			"python3 on PATH (" + filepath.Join(usr, "bin", "python3") + ")", usr, "pytorch 2.1.0a0 (a build of the 2.1 series) from pip, cuda build"},
		{"--prefix wins", map[string]string{"CONDA_PREFIX": conda.dir}, []string{"--prefix", venv.dir}, "--prefix", venv.dir, "pytorch 2.5.1 from pip, cuda build"},
		{"$CONDA_PREFIX before $VIRTUAL_ENV", map[string]string{"CONDA_PREFIX": conda.dir, "VIRTUAL_ENV": venv.dir}, nil, "$CONDA_PREFIX", conda.dir, "pytorch 2.1.2 from conda, cuda build"},
		{"$VIRTUAL_ENV", map[string]string{"VIRTUAL_ENV": venv.dir}, nil, "$VIRTUAL_ENV", venv.dir, "pytorch 2.5.1 from pip, cuda build"},
		{"python3 on PATH", map[string]string{"PATH": t.TempDir() + string(os.PathListSeparator) + filepath.Join(venv.dir, "bin")}, nil,
			"python3 on PATH (" + filepath.Join(venv.dir, "bin", "python3") + ")", venv.dir, "pytorch 2.5.1 from pip, cuda build"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCLI(t, fakeH100, tt.vars, append([]string{"check"}, tt.args...)...)
			if code != ExitOK {
				t.Fatalf("exit %d\n%s%s", code, out, errs)
			}
			if want := "envguard check: " + tt.dir + " (from " + tt.how + ")"; !strings.Contains(out, want) {
				t.Errorf("want %q in\n%s", want, out)
			}
			if !strings.Contains(out, "framework  "+tt.fw) {
				t.Errorf("want framework %s in\n%s", tt.fw, out)
			}
		})
	}
}

// Errors say where the path came from and suggest --prefix.
func TestCheckPrefixErrorsSayWhere(t *testing.T) {
	bad := t.TempDir() // neither conda, venv nor system Python
	noPrefix := t.TempDir()
	if err := os.WriteFile(filepath.Join(noPrefix, "python3"), []byte("#!/bin/sh\necho 'not a path'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	failing := t.TempDir()
	if err := os.WriteFile(filepath.Join(failing, "python3"), []byte("#!/bin/sh\necho 'pyenv: python3: command not found' >&2\nexit 127\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		vars map[string]string
		want []string
	}{
		{"conda", map[string]string{"CONDA_PREFIX": bad}, []string{"(from $CONDA_PREFIX)", "--prefix DIR"}},
		{"venv", map[string]string{"VIRTUAL_ENV": filepath.Join(bad, "gone")}, []string{"(from $VIRTUAL_ENV)", "--prefix DIR"}},
		{"no python", map[string]string{"PATH": bad}, []string{"no python3 on PATH", "--prefix DIR"}},
		{"odd python", map[string]string{"PATH": noPrefix}, []string{"python3 on PATH", `printed "not a path"`, "--prefix DIR"}},
		{"failing shim", map[string]string{"PATH": failing}, []string{"python3 on PATH", "pyenv: python3: command not found", "--prefix DIR"}},
	} {
		code, _, errs := runCLI(t, fakeH100, tc.vars, "check")
		if code != ExitUsage {
			t.Errorf("%s: exit %d, want 2: %s", tc.name, code, errs)
		}
		for _, w := range tc.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%s: %q lacks %q", tc.name, errs, w)
			}
		}
	}
}

// With CONDA_OVERRIDE_CUDA the driver line says so; an unset
// CUDA_VISIBLE_DEVICES is not shown as ""; no GPU is not OK; errors come
// before warnings and info.
func TestCheckOverrideDisplay(t *testing.T) {
	p := newCondaPrefix(t, "3.10")
	p.condaBase("3.10.13")
	p.condaTorch21("12.1")
	p.conda("jupyterlab", "4.0.11", "py310h06a4308_0", chMain, "linux-64")
	code, out, _ := runCLI(t, fakeNoDriver, map[string]string{"CONDA_OVERRIDE_CUDA": "12.4"}, "check", "--prefix", p.dir)
	for _, w := range []string{"driver     overridden: CONDA_OVERRIDE_CUDA=12.4", "gpus       none visible (CONDA_OVERRIDE_CUDA is set and CONDA_OVERRIDE_CUDA_ARCH is not"} {
		if !strings.Contains(out, w) {
			t.Errorf("lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, `CUDA_VISIBLE_DEVICES=""`) || strings.Contains(out, "verdict    OK") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, out, _ = runCLI(t, fakeH100, map[string]string{"CUDA_VISIBLE_DEVICES": ""}, "check", "--prefix", p.dir)
	if code != ExitFindings || !strings.Contains(out, `none visible (CUDA_VISIBLE_DEVICES="")`) {
		t.Errorf("exit %d:\n%s", code, out)
	}
	e, i := strings.Index(out, "  error   EG404"), strings.Index(out, "  info    EG505")
	if e < 0 || i < 0 || e > i {
		t.Errorf("the error is not listed before the info:\n%s", out)
	}
	if strings.Contains(out, "# envguard: ignore") {
		t.Errorf("a hint suggests an ignore comment on an installed environment:\n%s", out)
	}
	if strings.Contains(out, "\x1b") {
		t.Errorf("colour without a terminal:\n%q", out)
	}
	_, out, _ = runCLI(t, fakeH100, map[string]string{"CUDA_VISIBLE_DEVICES": ""}, "--color", "always", "check", "--prefix", p.dir)
	if !strings.Contains(out, "  verdict    \x1b[1;31mSTOP: the job would fail\x1b[0m (1 error") || !strings.Contains(out, "  \x1b[1;31merror\x1b[0m   EG404") {
		t.Errorf("--color always:\n%q", out)
	}
}

func TestCheckUsage(t *testing.T) {
	notEnv := t.TempDir()
	tests := []struct {
		name string
		vars map[string]string
		args []string
		err  string
	}{
		{"bad format", nil, []string{"--prefix", notEnv, "--format", "xml"}, `--format "xml"`},
		{"bad fail-on", nil, []string{"--prefix", notEnv, "--fail-on", "sometimes"}, `--fail-on "sometimes"`},
		{"bad size", nil, []string{"--prefix", notEnv, "--min-free", "lots"}, `"lots" is not a size`},
		{"not an environment", nil, []string{"--prefix", notEnv}, "neither a conda environment"},
		{"missing prefix", nil, []string{"--prefix", filepath.Join(notEnv, "nope")}, "no such file"},
		{"nothing active", map[string]string{"PATH": notEnv}, nil, "no environment to check"},
		{"arguments", nil, []string{"env"}, "unknown command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCLI(t, fakeH100, tt.vars, append([]string{"check"}, tt.args...)...)
			if code != ExitUsage {
				t.Errorf("exit %d, want %d", code, ExitUsage)
			}
			if out != "" {
				t.Errorf("stdout should be empty on a usage error: %q", out)
			}
			if !strings.Contains(errs, tt.err) {
				t.Errorf("stderr %q lacks %q", errs, tt.err)
			}
		})
	}
}

func TestCheckMinFree(t *testing.T) {
	p := newCondaPrefix(t, "3.10")
	p.condaBase("3.10.13")
	p.condaTorch21("12.1")
	_, r := checkJSON(t, fakeH100, nil, p.dir)
	if len(findingsOf(r, "EG405")) != 0 {
		t.Fatalf("EG405 without --min-free: %+v", r.Findings)
	}
	code, out, _ := runCLI(t, fakeH100, nil, "check", "--prefix", p.dir, "--min-free", "100GiB", "--fail-on", "warning")
	if code != ExitFindings || !strings.Contains(out, "EG405") {
		t.Errorf("--min-free 100GiB on a GPU with 79 GiB free: exit %d\n%s", code, out)
	}
}

// TestCheckVerdictUnknown: a live environment whose build's architectures
// are not known (a release newer than the knowledge base) is never OK: the verdict line says UNKNOWN and why, exit 0
// by default and 1 with --fail-on unknown.
func TestCheckVerdictUnknown(t *testing.T) {
	p := newVenv(t, "3.11.8")
	p.dist("pip", "24.0", "pip")
	p.dist("torch", "2.15.0+cu126", "pip")
	p.torch("2.15.0+cu126", "12.6")
	vars := map[string]string{"VIRTUAL_ENV": p.dir}
	code, out, errs := runCLI(t, fakeH100, vars, "check")
	if code != ExitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if strings.Contains(out, "OK: the job can start") || !strings.Contains(out, "verdict    UNKNOWN: not every check could be decided (the build's architecture list is not known") {
		t.Errorf("verdict is not UNKNOWN with its reason:\n%s", out)
	}
	if !strings.Contains(out, "warning EG409") {
		t.Errorf("no EG409 finding:\n%s", out)
	}
	if code, _, _ := runCLI(t, fakeH100, vars, "check", "--fail-on", "unknown"); code != ExitFindings {
		t.Errorf("--fail-on unknown: exit %d, want %d", code, ExitFindings)
	}
}

// runGuarded is runCLI, failing the test if the run has not ended after
// two minutes: a guard against a read that blocks, not a speed bound.
func runGuarded(t *testing.T, host func() *gpucheck.Host, vars map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	type result struct {
		code        int
		out, errOut string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errOut := runCLI(t, host, vars, args...)
		done <- result{code, out, errOut}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.errOut
	case <-time.After(2 * time.Minute):
		t.Fatalf("envguard %v blocked", args)
	}
	return 0, "", ""
}

// TestCheckUnreadableNeverOK: where part of the environment cannot be
// read (site-packages, torch/version.py or a METADATA a FIFO or a
// directory), check says so in a note and its verdict is UNKNOWN, never
// OK, in the text, in JSON and for --fail-on unknown (issue 22, N10: such
// a prefix was judged OK where the readable one gives STOP).
func TestCheckUnreadableNeverOK(t *testing.T) {
	// The driver supports CUDA 11.8: the CUDA 12.4 torch cannot start.
	vars := map[string]string{"CONDA_OVERRIDE_CUDA": "11.8"}
	torchPrefix := func(t *testing.T) *fakePrefix {
		p := newVenv(t, "3.11.8")
		p.dist("torch", "2.5.1+cu124", "pip")
		p.torch("2.5.1+cu124", "12.4")
		return p
	}
	p := torchPrefix(t)
	if code, out, _ := runGuarded(t, fakeH100, vars, "check", "--prefix", p.dir); code != ExitFindings || !strings.Contains(out, "verdict    STOP") || strings.Contains(out, "note") {
		t.Fatalf("the readable prefix: exit %d\n%s", code, out)
	}
	sp := func(p *fakePrefix, rel string) string { return filepath.Join(p.dir, p.sitePackages(), rel) }
	fifo := func(path string) error {
		if err := os.RemoveAll(path); err != nil {
			return err
		}
		return syscall.Mkfifo(path, 0o644)
	}
	dir := func(path string) error {
		if err := os.RemoveAll(path); err != nil {
			return err
		}
		return os.Mkdir(path, 0o755)
	}
	for _, tt := range []struct {
		name  string
		spoil func(p *fakePrefix) error
		note  string
	}{
		{"site-packages a FIFO", func(p *fakePrefix) error { return fifo(sp(p, "")) }, "site-packages left out: it could not be listed"},
		{"version.py a FIFO, no dist-info", func(p *fakePrefix) error {
			os.RemoveAll(sp(p, "torch-2.5.1+cu124.dist-info"))
			return fifo(sp(p, "torch/version.py"))
		}, "version.py left out: it is a FIFO, not a regular file"},
		{"version.py a directory, no dist-info", func(p *fakePrefix) error {
			os.RemoveAll(sp(p, "torch-2.5.1+cu124.dist-info"))
			return dir(sp(p, "torch/version.py"))
		}, "version.py left out: it is a directory, not a regular file"},
		{"METADATA a FIFO, no version.py", func(p *fakePrefix) error {
			os.RemoveAll(sp(p, "torch"))
			return fifo(sp(p, "torch-2.5.1+cu124.dist-info/METADATA"))
		}, "its METADATA is a FIFO, not a regular file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := torchPrefix(t)
			if err := tt.spoil(p); err != nil {
				t.Fatal(err)
			}
			code, out, errOut := runGuarded(t, fakeH100, vars, "check", "--prefix", p.dir)
			if code != ExitOK || errOut != "" {
				t.Fatalf("exit %d, stderr %q\n%s", code, errOut, out)
			}
			if strings.Contains(out, "OK: the job can start") || !strings.Contains(out, "verdict    UNKNOWN: not every check could be decided (part of the environment could not be read, as the notes say)") {
				t.Errorf("the verdict is not UNKNOWN for what it could not read:\n%s", out)
			}
			if !strings.Contains(out, "  note    ") || !strings.Contains(out, tt.note) {
				t.Errorf("no note %q:\n%s", tt.note, out)
			}
			if code, _, _ := runGuarded(t, fakeH100, vars, "check", "--prefix", p.dir, "--fail-on", "unknown"); code != ExitFindings {
				t.Errorf("--fail-on unknown: exit %d, want %d", code, ExitFindings)
			}
			_, r := checkJSON(t, fakeH100, vars, p.dir)
			if len(r.Targets) != 1 || r.Targets[0].Verdict != gpucheck.VerdictUnknown || r.Summary.Targets == nil || r.Summary.Targets.Unknown != 1 || r.Summary.Targets.OK != 0 || len(r.Notes) != 1 {
				t.Fatalf("JSON: targets %+v, summary %+v, notes %q", r.Targets, r.Summary.Targets, r.Notes)
			}
			if u := r.Targets[0].Undecided; len(u) == 0 || u[len(u)-1].Reason != "prefix-unreadable" {
				t.Errorf("JSON: undecided %+v", u)
			}
		})
	}
}

// TestCheckHostileStrings: a conda-meta record of 30 MB strings and a
// torch/version.py whose __version__ is a megabyte (issue 22, N11: 7.6 s
// and 370 MB; a verdict of a megabyte) give a short note and a bounded
// output, at about the cost of reading the record.
func TestCheckHostileStrings(t *testing.T) {
	big := strings.Repeat("x", 30<<20)
	conda := newCondaPrefix(t, "3.11")
	conda.conda("python", "3.11.8", "h955ad1f_0", chMain, "linux-64")
	rec, err := json.MarshalIndent(map[string]any{"name": "pytorch" + big, "version": "2.1.2" + big, "build": "0", "channel": chPytorch, "subdir": "linux-64"}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	conda.write("conda-meta/pytorch-2.1.2-0.json", string(rec))
	venv := newVenv(t, "3.11.8")
	venv.dist("pip", "24.0", "pip")
	venv.write(filepath.Join(venv.sitePackages(), "torch", "version.py"), "__version__ = '2.15.0."+strings.Repeat("0.", 1<<19-100)+"0+cu126'\ncuda = '12.6'\n")
	small := newCondaPrefix(t, "3.11")
	small.conda("python", "3.11.8", "h955ad1f_0", chMain, "linux-64")
	for _, tt := range []struct {
		name, dir string
		size      int
		note      string
	}{
		{"conda-meta record of 30 MB strings", conda.dir, len(rec), "its name is longer than 214 bytes"},
		{"torch __version__ of 1 MB", venv.dir, 1 << 20, "gives a __version__ of"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, format := range []string{"text", "json"} {
				// What a check of a sound prefix of the same kind allocates
				// is the baseline.
				var base, hostile uint64
				base = allocatedBy(func() { runGuarded(t, fakeH100, nil, "check", "--prefix", small.dir, "--format", format) })
				var code int
				var out string
				hostile = allocatedBy(func() { code, out, _ = runGuarded(t, fakeH100, nil, "check", "--prefix", tt.dir, "--format", format) })
				if code != ExitOK || !strings.Contains(out, tt.note) {
					t.Fatalf("%s: exit %d, no note %q\n%.3000s", format, code, tt.note, out)
				}
				if len(out) > 8<<10 {
					t.Errorf("%s: %d bytes of output", format, len(out))
				}
				for _, line := range strings.Split(out, "\n") {
					if len(line) > maxVerdictLine {
						t.Errorf("%s: a line of %d bytes: %.200q", format, len(line), line)
					}
				}
				if format == "text" && !strings.Contains(out, "verdict    UNKNOWN") {
					t.Errorf("the verdict is not UNKNOWN:\n%s", out)
				}
				// Reading the record costs it and a quarter (the buffer);
				// a copy of one of its strings would pass the bound.
				if extra, limit := int64(hostile)-int64(base), int64(tt.size)*3/2+4<<20; extra > limit {
					t.Errorf("%s: allocated %d bytes more than for a sound prefix (limit %d)", format, extra, limit)
				}
			}
		})
	}
}

// allocatedBy is the bytes f allocates on the Go heap.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestCheckVerdictBounded: however many reasons a target is undecided for
// and however long a line's parts, the verdict line and every line are
// bounded.
func TestCheckVerdictBounded(t *testing.T) {
	var us []gpucheck.Undecided
	for i := range 2000 {
		us = append(us, gpucheck.Undecided{Check: "architecture", Reason: "arch-list-unknown", Why: fmt.Sprintf("reason %d, %s", i, strings.Repeat("é", 100))})
	}
	r := &report.Report{Targets: []report.TargetReport{{Name: "local", Available: true, Driver: "550.54.15", CUDADriver: "12.4", Verdict: gpucheck.VerdictUnknown, Undecided: us}},
		Notes: []string{strings.Repeat("n", 1<<20)}}
	var out bytes.Buffer
	e := &env{stdout: &out, getenv: func(string) string { return "" }, lookupEnv: func(string) (string, bool) { return "", false }}
	writeVerdict(e, r, "/prefix", "--prefix")
	for _, line := range strings.Split(out.String(), "\n") {
		if len(line) > maxVerdictLine {
			t.Errorf("a line of %d bytes: %.100q", len(line), line)
		}
		if strings.HasPrefix(line, "  verdict") {
			if len(line) > maxVerdictReason+200 {
				t.Errorf("a verdict line of %d bytes", len(line))
			}
			if !strings.Contains(line, "UNKNOWN: not every check could be decided (reason 0, é") || !strings.Contains(line, "…)") {
				t.Errorf("verdict %q", line)
			}
		}
	}
}

// condaTorchReinstalledBy makes a conda prefix with pytorch 2.1.2 for CUDA
// 12.1 on which installer (pip, uv) installed torch again: its dist-info,
// with that INSTALLER, replaces conda's.
func condaTorchReinstalledBy(installer string) func(t *testing.T) string {
	return func(t *testing.T) string {
		p := newCondaPrefix(t, "3.10")
		p.condaBase("3.10.13")
		p.condaTorch21("12.1")
		p.write(filepath.Join(p.sitePackages(), "torch-2.1.2.dist-info", "INSTALLER"), installer+"\n")
		return p.dir
	}
}

// TestCheckUndecidedExtension: a prefix whose torch runs on the H100 but
// which holds a CUDA extension envguard knows nothing about is UNKNOWN,
// never OK, with the EG409 that names it.
func TestCheckUndecidedExtension(t *testing.T) {
	p := newVenv(t, "3.11.8")
	p.dist("pip", "24.0", "pip")
	p.dist("torch", "2.5.1+cu124", "pip")
	p.dist("someonesext", "1.0+cu124", "pip")
	p.torch("2.5.1+cu124", "12.4")
	vars := map[string]string{"VIRTUAL_ENV": p.dir}
	code, out, errs := runCLI(t, fakeH100, vars, "check")
	if code != ExitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q\n%s", code, errs, out)
	}
	if strings.Contains(out, "OK: the job can start") || !strings.Contains(out, "verdict    UNKNOWN") || !strings.Contains(out, "someonesext") {
		t.Errorf("verdict is not UNKNOWN naming someonesext:\n%s", out)
	}
}

// A venv made with --system-site-packages on Debian, where `import torch`
// finds the system's python3-torch (issue 27, point 4): check reads the
// base's dist-packages, says the system package manager installed it, and
// reads its 1.13.0a0 as the 1.13 series (no EG206 "update envguard").
func TestCheckVenvOnDebianTorch(t *testing.T) {
	usr := filepath.Join(t.TempDir(), "usr")
	for _, f := range [][2]string{
		{"lib/python3.11/os.py", ""},
		{"lib/python3/dist-packages/torch-1.13.0a0+gitunknown.dist-info/METADATA", "Metadata-Version: 2.1\nName: torch\nVersion: 1.13.0a0+gitunknown\n\n"},
		{"lib/python3/dist-packages/torch/version.py", "__version__ = '1.13.0a0+gitunknown'\ndebug = False\ncuda = None\n"},
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(usr, f[0])), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(usr, f[0]), []byte(f[1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	venv := newVenv(t, "3.11.2")
	venv.write("pyvenv.cfg", "home = "+filepath.Join(usr, "bin")+"\ninclude-system-site-packages = true\nversion = 3.11.2\n")
	venv.write(filepath.Join(venv.sitePackages(), ".keep"), "")
	code, out, errs := runCLI(t, fakeNoDriver, nil, "check", "--prefix", venv.dir)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{
		"framework  pytorch 1.13.0a0 (a build of the 1.13 series) from the system package manager (debian), cpu build",
		"verdict    OK: the job can start (0 errors, 0 warnings)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in\n%s", want, out)
		}
	}
	for _, not := range []string{"EG206", "EG204", "EG502", "no framework found", "from pip"} {
		if strings.Contains(out, not) {
			t.Errorf("%q in\n%s", not, out)
		}
	}
	// Without include-system-site-packages the base stays out.
	venv.write("pyvenv.cfg", "home = "+filepath.Join(usr, "bin")+"\ninclude-system-site-packages = false\nversion = 3.11.2\n")
	if _, out, _ := runCLI(t, fakeNoDriver, nil, "check", "--prefix", venv.dir); !strings.Contains(out, "no framework found") {
		t.Errorf("the base was read without include-system-site-packages:\n%s", out)
	}
}

// A venv made with --system-site-packages from a conda environment's
// python: conda's torch in the base is the one imported, and it is
// conda's, not pip's (issue 27, point 4).
func TestCheckVenvOnCondaBase(t *testing.T) {
	base := newCondaPrefix(t, "3.10")
	base.condaBase("3.10.13")
	base.condaTorch21("12.1")
	venv := newVenv(t, "3.10.13")
	venv.write("pyvenv.cfg", "home = "+filepath.Join(base.dir, "bin")+"\ninclude-system-site-packages = true\nversion = 3.10.13\n")
	venv.dist("requests", "2.31.0", "pip")
	code, r := checkJSON(t, fakeH100, nil, venv.dir)
	if code != ExitOK {
		for _, f := range r.Findings {
			t.Logf("%s %s %s", f.Severity, f.Code, f.Message)
		}
		t.Fatalf("exit %d", code)
	}
	fw := r.Stack.Framework
	if fw == nil || fw.Name != "pytorch" || fw.Version != "2.1.2" || fw.From != "conda" {
		t.Errorf("framework %+v, want conda's pytorch 2.1.2 of the base", fw)
	}
	if r.Stack.CUDA == nil || r.Stack.CUDA.Version != "12.1" {
		t.Errorf("cuda %+v, want 12.1", r.Stack.CUDA)
	}
	// A torch of the venv's own hides the base's: no conda/pip mix.
	venv.dist("torch", "2.5.1+cu124", "pip")
	venv.torch("2.5.1+cu124", "12.4")
	_, r = checkJSON(t, fakeH100, nil, venv.dir)
	if fw := r.Stack.Framework; fw == nil || fw.Version != "2.5.1" || fw.From != "pip" {
		t.Errorf("framework %+v, want the venv's pip torch 2.5.1", fw)
	}
	if n := len(findingsOf(r, "EG301")); n != 0 {
		t.Errorf("EG301 for a base pytorch the venv's torch hides: %v", findingsOf(r, "EG301"))
	}
}
