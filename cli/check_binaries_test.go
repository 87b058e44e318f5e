package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/internal/golden"
)

// fixture copies native/testdata/fatbin/NAME into the prefix at rel.
func (p *fakePrefix) fixture(name, rel string) {
	p.t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "native", "testdata", "fatbin", name))
	if err != nil {
		p.t.Fatal(err)
	}
	p.writeBytes(rel, b)
}

func (p *fakePrefix) writeBytes(rel string, b []byte) {
	p.t.Helper()
	path := filepath.Join(p.dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o755); err != nil {
		p.t.Fatal(err)
	}
}

// distFiles writes a dist-info whose RECORD lists files (relative to
// site-packages), as pip writes it.
func (p *fakePrefix) distFiles(name, version string, files ...string) {
	p.t.Helper()
	p.dist(name, version, "pip")
	di := filepath.Join(p.sitePackages(), strings.ReplaceAll(name, "-", "_")+"-"+version+".dist-info")
	var rec strings.Builder
	for _, f := range files {
		rec.WriteString(f + ",sha256=x,1\n")
	}
	p.write(filepath.Join(di, "RECORD"), rec.String())
}

// binVenv is a venv of torch with the CUDA runtime library the fatbin
// fixtures need (libcudart.so.13, in nvidia/cuda_runtime/lib, which torch
// preloads).
func binVenv(t *testing.T, torch, cuda string) *fakePrefix {
	p := newVenv(t, "3.11.8")
	p.dist("pip", "24.0", "pip")
	p.distFiles("torch", torch, "torch/version.py")
	p.torch(torch, cuda)
	p.fixture("nocompress.so", filepath.Join(p.sitePackages(), "nvidia", "cuda_runtime", "lib", "libcudart.so.13"))
	return p
}

func fakeH100Driver(driver, cuda string) func() *gpucheck.Host {
	return func() *gpucheck.Host {
		h := fakeH100()
		h.Driver, h.CUDADriver = driver, cuda
		return h
	}
}

func fakeRTX5090() *gpucheck.Host {
	return &gpucheck.Host{
		Name: "local", Available: true, Driver: "575.57.08", CUDADriver: "12.9", Source: gpucheck.SourceNVML,
		GPUs: []gpucheck.GPU{{Index: 0, Name: "NVIDIA GeForce RTX 5090", UUID: "GPU-0b5b2b4d-8f0e-4c43-9a0e-0e4c6f1b2a12", CC: "12.0",
			MemoryTotal: 32 << 30, MemoryFree: 31 << 30, MemoryUsed: 1 << 30}},
	}
}

// gxx builds a shared library from C++ source in dir, skipping the test
// where there is no g++.
func gxx(t *testing.T, dir, out, src string, args ...string) string {
	t.Helper()
	cxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("g++ is not installed: the ELF fixtures of this test are built with it (CI has gcc)")
	}
	s := filepath.Join(dir, strings.TrimSuffix(filepath.Base(out), filepath.Ext(out))+".cpp")
	if err := os.WriteFile(s, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	o := filepath.Join(dir, out)
	cmd := exec.Command(cxx, append([]string{"-shared", "-fPIC", "-o", o, s}, args...)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("g++: %v\n%s", err, b)
	}
	return o
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkGolden runs check on the prefix and holds its text to the golden
// file, the prefix's path written PREFIX.
func checkGolden(t *testing.T, p *fakePrefix, host func() *gpucheck.Host, name string, wantCode int, args ...string) string {
	t.Helper()
	code, out, errs := runCLI(t, host, nil, append([]string{"check", "--prefix", p.dir}, args...)...)
	if code != wantCode {
		t.Errorf("exit %d, want %d\n%s%s", code, wantCode, out, errs)
	}
	out = strings.ReplaceAll(out, p.dir, "PREFIX")
	golden.Check(t, filepath.Join("testdata", "check", name+".txt"), []byte(out))
	return out
}

// An extension whose only code is sm_80 SASS cannot run on an H100 (9.0):
// SASS runs only on its own major, and there is no PTX (EG410), though the
// knowledge base has no row for it.
func TestCheckBinarySASSOnly(t *testing.T) {
	p := binVenv(t, "2.5.1+cu124", "12.4")
	p.fixture("sm80.so", filepath.Join(p.sitePackages(), "myext", "_C.so"))
	p.distFiles("myext", "0.1.0", "myext/_C.so", "myext/__init__.py")
	out := checkGolden(t, p, fakeH100, "sass-only-h100", ExitFindings)
	for _, want := range []string{"EG410", "myext", "SASS sm_80, PTX none", "STOP"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// The same binary on an A100-class GPU of its own major, and PTX for
// compute_120 on an RTX 5090, run: the verdict is OK from the binaries.
func TestCheckBinaryRuns(t *testing.T) {
	p := binVenv(t, "2.7.0+cu128", "12.8")
	p.fixture("ptx120.so", filepath.Join(p.sitePackages(), "myext", "_C.so"))
	p.distFiles("myext", "0.1.0", "myext/_C.so")
	code, out, _ := runCLI(t, fakeRTX5090, nil, "check", "--prefix", p.dir)
	if strings.Contains(out, "EG410") || strings.Contains(out, "EG411") || strings.Contains(out, "EG412") {
		t.Errorf("exit %d: a finding on code that runs:\n%s", code, out)
	}
	if strings.Contains(out, "extension-unknown") || strings.Contains(out, "myext 0.1.0: the knowledge base has no facts") {
		t.Errorf("the extension's code was not taken from its binary:\n%s", out)
	}
}

// zstd-compressed GPU code on a driver before CUDA 12.4's: EG412, with the
// floor from the knowledge base (550.54.14).
func TestCheckBinaryZstdOldDriver(t *testing.T) {
	p := binVenv(t, "2.1.2+cu121", "12.1")
	p.fixture("multi.so", filepath.Join(p.sitePackages(), "myext", "_C.so"))
	p.distFiles("myext", "0.1.0", "myext/_C.so")
	out := checkGolden(t, p, fakeH100Driver("535.104.05", "12.2"), "zstd-old-driver", ExitFindings)
	if !strings.Contains(out, "EG412") || !strings.Contains(out, "550.54.14") {
		t.Errorf("no EG412 with the floor:\n%s", out)
	}
	// The same on a driver of CUDA 12.4 runs.
	_, out, _ = runCLI(t, fakeH100, nil, "check", "--prefix", p.dir)
	if strings.Contains(out, "EG412") {
		t.Errorf("EG412 on driver 550.54.15:\n%s", out)
	}
}

// A library whose DT_NEEDED nothing provides is EG411; an extension that
// imports a c10 symbol torch's libraries do not export is EG211.
func TestCheckBinaryNeededAndSymbols(t *testing.T) {
	p := binVenv(t, "2.5.1+cu124", "12.4")
	sp := p.sitePackages()
	tmp := t.TempDir()
	// torch's own library, exporting c10::foo() only.
	c10 := gxx(t, tmp, "libc10.so", "namespace c10 { void foo() {} }\n", "-Wl,-soname,libc10.so")
	p.writeBytes(filepath.Join(sp, "torch", "lib", "libc10.so"), readFile(t, c10))
	p.distFiles("torch", "2.5.1+cu124", "torch/version.py", "torch/lib/libc10.so")
	// An extension needing libc10.so and importing c10::foo() and c10::bar(int).
	ext := gxx(t, tmp, "ext.so", "namespace c10 { void foo(); void bar(int); }\nextern \"C\" void init() { c10::foo(); c10::bar(1); }\n",
		"-L"+tmp, "-lc10")
	p.writeBytes(filepath.Join(sp, "symext", "_C.so"), readFile(t, ext))
	p.distFiles("symext", "1.0.0", "symext/_C.so")
	// A library needing libcudart.so.11.0, which nothing here provides.
	stubDir := t.TempDir()
	gxx(t, stubDir, "libcudart.so.11.0", "extern \"C\" int cudaFoo() { return 0; }\n", "-Wl,-soname,libcudart.so.11.0")
	old := gxx(t, tmp, "old.so", "extern \"C\" int cudaFoo();\nextern \"C\" int f() { return cudaFoo(); }\n", "-L"+stubDir, "-l:libcudart.so.11.0")
	p.writeBytes(filepath.Join(sp, "oldext", "_C.so"), readFile(t, old))
	p.distFiles("oldext", "1.0.0", "oldext/_C.so")

	out := checkGolden(t, p, fakeH100, "needed-and-symbols", ExitFindings)
	for _, want := range []string{
		"EG411 libcudart.so.11.0 needed by lib/python3.11/site-packages/oldext/_C.so",
		"EG211 lib/python3.11/site-packages/symext/_C.so needs 1 symbol torch 2.5.1",
		"c10::bar(int)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "c10::foo()") {
		t.Errorf("an exported symbol counted as missing:\n%s", out)
	}
	// With the library on LD_LIBRARY_PATH the loader finds it.
	_, out, _ = runCLI(t, fakeH100, map[string]string{"LD_LIBRARY_PATH": stubDir}, "check", "--prefix", p.dir)
	if strings.Contains(out, "EG411") {
		t.Errorf("EG411 with the library on LD_LIBRARY_PATH:\n%s", out)
	}
}

// A library that cannot be read leaves the verdict unknown, never OK.
func TestCheckBinaryUnreadableIsUnknown(t *testing.T) {
	p := binVenv(t, "2.5.1+cu124", "12.4")
	b := readFile(t, filepath.Join("..", "native", "testdata", "fatbin", "sm80.so"))
	p.writeBytes(filepath.Join(p.sitePackages(), "myext", "_C.so"), b[:200]) // an ELF header, cut short
	_, out, _ := runCLI(t, fakeH100, nil, "check", "--prefix", p.dir)
	if !strings.Contains(out, "verdict    UNKNOWN") {
		t.Errorf("an unreadable library left the verdict:\n%s", out)
	}
}

// check --targets FILE --target NAME holds a prefix against a described
// machine, with no GPU here.
func TestCheckTargets(t *testing.T) {
	p := binVenv(t, "2.5.1+cu124", "12.4")
	p.fixture("sm80.so", filepath.Join(p.sitePackages(), "myext", "_C.so"))
	p.distFiles("myext", "0.1.0", "myext/_C.so")
	targets := filepath.Join(t.TempDir(), "fleet.yml")
	if err := os.WriteFile(targets, []byte("targets:\n  - name: a100-pool\n    driver: \"550.54.15\"\n    gpus: [\"A100\"]\n  - name: h100-pool\n    driver: \"550.54.15\"\n    gpus: [\"H100\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, fakeNoDriver, nil, "check", "--prefix", p.dir, "--targets", targets, "--target", "a100-pool")
	if code != ExitOK || strings.Contains(out, "EG410") {
		t.Errorf("a100-pool: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = runCLI(t, fakeNoDriver, nil, "check", "--prefix", p.dir, "--targets", targets, "--target", "h100-pool")
	if code != ExitFindings || !strings.Contains(out, "EG410") || !strings.Contains(out, "h100-pool") {
		t.Errorf("h100-pool: exit %d\n%s", code, out)
	}
	// No --target: every target of the file, as validate holds a file
	// against them all; h100-pool's failure fails the check.
	code, out, _ = runCLI(t, fakeNoDriver, nil, "check", "--prefix", p.dir, "--targets", targets)
	if code != ExitFindings || !strings.Contains(out, "EG410") || !strings.Contains(out, "target     a100-pool: ok\n") || !strings.Contains(out, "target     h100-pool: fail\n") {
		t.Errorf("--targets without --target: exit %d, want %d, both targets\n%s", code, ExitFindings, out)
	}
	code, out, _ = runCLI(t, fakeNoDriver, nil, "check", "--prefix", p.dir, "--targets", targets, "--format", "json")
	var r struct {
		Targets []struct{ Name, Verdict string } `json:"targets"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != ExitFindings || len(r.Targets) != 2 ||
		r.Targets[0].Name != "a100-pool" || r.Targets[0].Verdict != "ok" || r.Targets[1].Name != "h100-pool" || r.Targets[1].Verdict != "fail" {
		t.Errorf("--targets without --target, JSON: exit %d, %v, targets %+v\n%s", code, err, r.Targets, out)
	}
}

// check's JSON lists, under each GPU-code package, the libraries its code
// was read from, as inspect reads them: the report carries its proof.
func TestCheckJSONListsBinaries(t *testing.T) {
	p := binVenv(t, "2.5.1+cu124", "12.4")
	p.fixture("sm80.so", filepath.Join(p.sitePackages(), "myext", "_C.so"))
	p.distFiles("myext", "0.1.0", "myext/_C.so", "myext/__init__.py")
	_, out, errs := runCLI(t, fakeH100, nil, "check", "--prefix", p.dir, "--format", "json")
	var r struct {
		Stack struct {
			GPUPackages []struct {
				Name     string `json:"name"`
				Binaries []struct {
					Rel  string   `json:"rel"`
					SASS []string `json:"sass"`
					PTX  []string `json:"ptx"`
				} `json:"binaries"`
			} `json:"gpu_packages"`
		} `json:"stack"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s%s", err, out, errs)
	}
	found := false
	for _, g := range r.Stack.GPUPackages {
		if g.Name != "myext" {
			continue
		}
		for _, b := range g.Binaries {
			if strings.HasSuffix(b.Rel, "myext/_C.so") && slices.Equal(b.SASS, []string{"8.0"}) && len(b.PTX) == 0 {
				found = true
			}
		}
		if !found {
			t.Errorf("myext's binaries = %+v, want myext/_C.so with SASS [8.0] and no PTX", g.Binaries)
		}
	}
	if !found {
		t.Errorf("no myext package with its binaries in\n%s", out)
	}
}

// A prefix with no framework and no CUDA runtime package whose only GPU
// code is an extension's binary (sm_80 SASS) still needs a GPU: on an H100
// (9.0) its code has nothing to run (EG410), on a machine with no driver
// EG404 names it, and nothing reads ok. The same prefix without the binary
// needs no GPU: no EG404 on the driverless machine.
func TestCheckExtensionOnlyBinary(t *testing.T) {
	p := newVenv(t, "3.11.8")
	p.dist("pip", "24.0", "pip")
	p.fixture("sm80.so", filepath.Join(p.sitePackages(), "myext", "_C.so"))
	p.distFiles("myext", "0.1.0", "myext/_C.so", "myext/__init__.py")

	_, r := checkJSON(t, fakeH100, nil, p.dir)
	if len(r.Targets) != 1 || r.Targets[0].Verdict != gpucheck.VerdictFail || len(findingsOf(r, "EG410")) == 0 {
		t.Errorf("H100: targets %+v, findings %v: want fail with EG410", r.Targets, findingCodes(r))
	}
	_, r = checkJSON(t, fakeNoDriver, nil, p.dir)
	if fs := findingsOf(r, "EG404"); len(fs) != 1 || !strings.Contains(fs[0].Message, "myext 0.1.0 carries GPU code: SASS sm_80") {
		t.Errorf("no driver: EG404 %+v, want one naming myext's code", fs)
	}

	q := newVenv(t, "3.11.8")
	q.dist("pip", "24.0", "pip")
	q.distFiles("myext", "0.1.0", "myext/__init__.py")
	_, r = checkJSON(t, fakeNoDriver, nil, q.dir)
	if fs := findingsOf(r, "EG404"); len(fs) != 0 {
		t.Errorf("no GPU code, no driver: EG404 %+v", fs)
	}
}

// A source build's pre-release (NGC's 2.1.0a0+32f93b1), read as its series
// for the knowledge base, still has its architectures read from its own
// binaries (issue 27, point 4): sm_80 SASS on an H100 is EG403, not an
// undecided "release not known"; without binaries the check says the
// source build's list was not read.
func TestCheckSourceBuildArchFromBinaries(t *testing.T) {
	p := binVenv(t, "2.1.0a0+32f93b1", "12.1")
	_, r := checkJSON(t, fakeH100, nil, p.dir)
	und := fmt.Sprint(r.Targets[0].Undecided)
	if !strings.Contains(und, "source build (2.1.0a0)") || strings.Contains(und, "release-unknown") {
		t.Errorf("without binaries, undecided %s: want the source build's list not read", und)
	}
	p.fixture("sm80.so", filepath.Join(p.sitePackages(), "torch", "lib", "libtorch_cuda.so"))
	p.distFiles("torch", "2.1.0a0+32f93b1", "torch/version.py", "torch/lib/libtorch_cuda.so")
	code, r := checkJSON(t, fakeH100, nil, p.dir)
	if code != ExitFindings || len(findingsOf(r, "EG403")) != 1 {
		for _, f := range r.Findings {
			t.Logf("%s %s %s", f.Severity, f.Code, f.Message)
		}
		t.Errorf("exit %d, EG403 %v: want the sm_80-only build refused on the H100", code, findingsOf(r, "EG403"))
	}
	if fw := r.Stack.Framework; fw == nil || fw.Installed != "2.1.0a0" || fw.Spec != "2.1.*" {
		t.Errorf("framework %+v, want the 2.1 series of an installed 2.1.0a0", fw)
	}
}

// An extension importing a c10 symbol a source build's torch does not
// export is EG211 there too: the build, read as its series, is still
// held to its own libraries' symbols (issue 27, point 4).
func TestCheckSourceBuildSymbols(t *testing.T) {
	p := binVenv(t, "2.1.0a0+32f93b1", "12.1")
	sp := p.sitePackages()
	tmp := t.TempDir()
	c10 := gxx(t, tmp, "libc10.so", "namespace c10 { void foo() {} }\n", "-Wl,-soname,libc10.so")
	p.writeBytes(filepath.Join(sp, "torch", "lib", "libc10.so"), readFile(t, c10))
	p.distFiles("torch", "2.1.0a0+32f93b1", "torch/version.py", "torch/lib/libc10.so")
	ext := gxx(t, tmp, "ext.so", "namespace c10 { void foo(); void bar(int); }\nextern \"C\" void init() { c10::foo(); c10::bar(1); }\n",
		"-L"+tmp, "-lc10")
	p.writeBytes(filepath.Join(sp, "symext", "_C.so"), readFile(t, ext))
	p.distFiles("symext", "1.0.0", "symext/_C.so")
	_, out, _ := runCLI(t, fakeH100, nil, "check", "--prefix", p.dir)
	if !strings.Contains(out, "EG211 lib/python3.11/site-packages/symext/_C.so needs 1 symbol torch 2.1.0a0") || !strings.Contains(out, "c10::bar(int)") {
		t.Errorf("no EG211 for the missing c10::bar(int):\n%s", out)
	}
}

// check walks the libraries while the metadata is read, with the base
// sites envspec.BaseSitesIn reads first: an extension in the base
// interpreter's site-packages of a venv with include-system-site-packages
// is read (EG410 on the H100, as in TestCheckBinarySASSOnly), and one
// without the flag is not.
func TestCheckBinaryInBaseSite(t *testing.T) {
	base := binVenv(t, "2.5.1+cu124", "12.4")
	base.fixture("sm80.so", filepath.Join(base.sitePackages(), "myext", "_C.so"))
	base.distFiles("myext", "0.1.0", "myext/_C.so")
	venv := newVenv(t, "3.11.8")
	venv.write(filepath.Join(venv.sitePackages(), ".keep"), "")
	for _, on := range []bool{true, false} {
		venv.write("pyvenv.cfg", fmt.Sprintf("base-prefix = %s\ninclude-system-site-packages = %v\nversion = 3.11.8\n", base.dir, on))
		_, out, errs := runCLI(t, fakeH100, nil, "check", "--prefix", venv.dir, "--no-cache")
		if got := strings.Contains(out, "EG410") && strings.Contains(out, "myext"); got != on {
			t.Errorf("include-system-site-packages = %v: EG410 for the base's myext %v, want %v\n%s%s", on, got, on, out, errs)
		}
	}
}

// A directory that is no environment is a usage error, and is not walked:
// no manifest is written for it.
func TestCheckNoEnvironmentWritesNoCache(t *testing.T) {
	dir := t.TempDir()
	p := &fakePrefix{t: t, dir: dir, py: "3.11"}
	p.fixture("sm80.so", filepath.Join(p.sitePackages(), "myext", "_C.so")) // a site-packages, but no pyvenv.cfg
	cacheHome := t.TempDir()
	code, _, errs := runCLI(t, fakeH100, map[string]string{"XDG_CACHE_HOME": cacheHome}, "check", "--prefix", dir)
	if code != ExitUsage || !strings.Contains(errs, "neither a conda environment") {
		t.Fatalf("exit %d, want %d with the reason: %s", code, ExitUsage, errs)
	}
	ms, _ := filepath.Glob(filepath.Join(cacheHome, "envguard", "*.manifest"))
	if len(ms) != 0 {
		t.Errorf("manifests written for a directory that is no environment: %v", ms)
	}
	// The same tree as a venv is walked and cached (the glob above sees a
	// manifest where one is written).
	p.write("pyvenv.cfg", "home = /usr/bin\nversion = 3.11.8\n")
	runCLI(t, fakeH100, map[string]string{"XDG_CACHE_HOME": cacheHome}, "check", "--prefix", dir)
	if ms, _ := filepath.Glob(filepath.Join(cacheHome, "envguard", "*.manifest")); len(ms) != 1 {
		t.Errorf("manifests %v after a check of the venv, want one", ms)
	}
}
