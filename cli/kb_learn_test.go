package cli

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/report"
)

// learnWheel writes a wheel named name holding the native/ fixture
// fixture as member, and returns its path and sha256.
func learnWheel(t *testing.T, dir, name, member, fixture string) (string, string) {
	t.Helper()
	so, err := os.ReadFile(filepath.Join("..", "native", "testdata", "fatbin", fixture))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range []struct {
		name string
		data []byte
	}{{member, so}, {strings.SplitN(name, "-", 3)[0] + "-" + strings.SplitN(name, "-", 3)[1] + ".dist-info/METADATA", []byte("Metadata-Version: 2.1\n")}} {
		w, err := zw.Create(m.name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(m.data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(buf.Bytes())
	return p, hex.EncodeToString(sum[:])
}

const learnFleet = `targets:
  - name: a100
    driver: "570.133.07"
    gpus: ["A100"]
  - name: h100
    driver: "570.133.07"
    gpus: ["H100"]
  - name: h100-old-driver
    driver: "535.161.08"
    gpus: ["H100"]
  - name: pascal
    driver: "570.133.07"
    gpus: ["GTX 1080 Ti"]
  - name: blackwell
    driver: "570.133.07"
    gpus: ["RTX 5090"]
`

// validateTargets validates file against the fleet's targets and returns
// each target's verdict and the codes found.
func validateTargets(t *testing.T, vars map[string]string, fleet, file string, targets ...string) (map[string]string, []string, string) {
	t.Helper()
	args := []string{"validate", file, "--format", "json", "--targets", fleet}
	for _, n := range targets {
		args = append(args, "--target", n)
	}
	code, out, errs := runCLI(t, fakeNoDriver, vars, args...)
	if code == ExitUsage || code == ExitInternal {
		t.Fatalf("validate: exit %d: %s", code, errs)
	}
	var rs []report.Report
	if err := json.Unmarshal([]byte(out), &rs); err != nil || len(rs) != 1 {
		t.Fatalf("validate printed no report: %v\n%s", err, out)
	}
	r := rs[0]
	verdicts := map[string]string{}
	for _, tr := range r.Targets {
		verdicts[tr.Name] = string(tr.Verdict)
	}
	var codes []string
	for _, f := range r.Findings {
		codes = append(codes, f.Code+"@"+f.Target)
	}
	return verdicts, codes, errs
}

func writeFile(t *testing.T, p, s string) string {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func hasCode(codes []string, want string) bool {
	for _, c := range codes {
		if c == want {
			return true
		}
	}
	return false
}

// TestKBLearnDecides learns wheels built from native/'s fixtures and
// validates files that name those exact builds: what was unknown (the
// extension's GPU code is in no knowledge-base row) is decided, pass and
// fail, from the learned binaries.
func TestKBLearnDecides(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{"XDG_DATA_HOME": filepath.Join(dir, "data")}
	fleet := writeFile(t, filepath.Join(dir, "fleet.yml"), learnFleet)
	// flash-attn with SASS sm_80 only: runs on an A100, not on an H100.
	fa, _ := learnWheel(t, dir, "flash_attn-2.7.4+cu12torch2.6-cp312-cp312-linux_x86_64.whl", "flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so", "sm80.so")
	// eg-kernels: zstd-compressed sm_80, sm_90a and compute_80: runs on an
	// H100 whose driver loads zstd, not on one of CUDA 12.2's driver.
	eg, egSum := learnWheel(t, dir, "eg_kernels-1.0-cp312-cp312-linux_x86_64.whl", "eg_kernels/_C.so", "compressall.so")

	byName := writeFile(t, filepath.Join(dir, "requirements.txt"), "torch==2.6.0\nflash-attn==2.7.4+cu12torch2.6\n")
	byHash := writeFile(t, filepath.Join(dir, "hashed.txt"), "torch==2.6.0\neg-kernels==1.0 --hash=sha256:"+egSum+"\n")
	otherLocal := writeFile(t, filepath.Join(dir, "other.txt"), "torch==2.6.0\nflash-attn==2.7.4+cu12torch2.5\n")

	v, _, _ := validateTargets(t, vars, fleet, byName, "a100", "h100")
	if v["a100"] != "unknown" || v["h100"] != "unknown" {
		t.Fatalf("before learning: verdicts %v, want both unknown", v)
	}
	_, codes, _ := validateTargets(t, vars, fleet, byHash, "h100-old-driver")
	if hasCode(codes, "EG412@h100-old-driver") {
		t.Fatalf("before learning: EG412 raised from nothing: %v", codes)
	}

	code, out, errs := runCLI(t, fakeNoDriver, vars, "kb", "learn", fa, eg)
	if code != 0 {
		t.Fatalf("kb learn: exit %d: %s", code, errs)
	}
	for _, want := range []string{"flash_attn 2.7.4+cu12torch2.6 sha256:", "learned sm_80 from 1 library", "eg_kernels 1.0 sha256:" + egSum[:12] + ": learned sm_80 sm_90a compute_80"} {
		if !strings.Contains(out, want) {
			t.Errorf("kb learn said\n%s\nwant %q", out, want)
		}
	}

	v, codes, _ = validateTargets(t, vars, fleet, byName, "a100", "h100")
	if v["a100"] != "ok" || v["h100"] != "fail" || !hasCode(codes, "EG410@h100") {
		t.Errorf("name, version and local version: verdicts %v, codes %v; want a100 ok, h100 fail with EG410", v, codes)
	}
	v, codes, _ = validateTargets(t, vars, fleet, byHash, "h100", "h100-old-driver")
	if v["h100"] != "ok" || v["h100-old-driver"] != "fail" || !hasCode(codes, "EG412@h100-old-driver") || hasCode(codes, "EG412@h100") {
		t.Errorf("--hash: verdicts %v, codes %v; want h100 ok, h100-old-driver fail with EG412", v, codes)
	}
	// A PEP 751 lock names the wheel by its hash; the version it gives has
	// no local part, as a wheel's metadata often has none.
	pylock := writeFile(t, filepath.Join(dir, "pylock.toml"), `lock-version = "1.0"
created-by = "test"

[[packages]]
name = "torch"
version = "2.6.0"
index = "https://pypi.org/simple"
wheels = [{ name = "torch-2.6.0-cp312-cp312-manylinux_2_28_x86_64.whl", url = "https://files.example/torch-2.6.0-cp312-cp312-manylinux_2_28_x86_64.whl", hashes = { sha256 = "`+strings.Repeat("0", 64)+`" } }]

[[packages]]
name = "eg-kernels"
version = "1.0"
wheels = [{ name = "eg_kernels-1.0-cp312-cp312-linux_x86_64.whl", url = "https://files.example/eg_kernels-1.0-cp312-cp312-linux_x86_64.whl", hashes = { sha256 = "`+egSum+`" } }]
`)
	v, codes, _ = validateTargets(t, vars, fleet, pylock, "h100-old-driver")
	if v["h100-old-driver"] != "fail" || !hasCode(codes, "EG412@h100-old-driver") {
		t.Errorf("pylock.toml by sha256: verdicts %v, codes %v; want fail with EG412", v, codes)
	}
	// Another local version is another build: not the one learned.
	v, _, _ = validateTargets(t, vars, fleet, otherLocal, "a100")
	if v["a100"] != "unknown" {
		t.Errorf("another local version: verdict %v, want unknown", v)
	}

	// kb status lists the layer.
	code, out, _ = runCLI(t, fakeNoDriver, vars, "kb", "status")
	if code != 0 || !strings.Contains(out, "learned: 2 builds, newest learned ") {
		t.Errorf("kb status: exit %d:\n%s", code, out)
	}
	code, out, _ = runCLI(t, fakeNoDriver, vars, "kb", "status", "--json")
	var st struct {
		Learned learnedStatus `json:"learned"`
	}
	if err := json.Unmarshal([]byte(out), &st); code != 0 || err != nil || st.Learned.Builds != 2 || st.Learned.Newest == "" {
		t.Errorf("kb status --json: exit %d, %v: %+v\n%s", code, err, st, out)
	}
}

// TestKBLearnFramework: a learned torch wheel decides the framework's
// checks from its binary, which wins over the knowledge base's row (a note
// says where they disagree): EG403 where it carries nothing for the GPU,
// EG408 where only its PTX serves it.
func TestKBLearnFramework(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{"XDG_DATA_HOME": filepath.Join(dir, "data")}
	fleet := writeFile(t, filepath.Join(dir, "fleet.yml"), learnFleet)
	// sm_75 sm_80 sm_90 and compute_90, where the row of torch 2.6 cu124
	// lists sm_50 to sm_90.
	whl, _ := learnWheel(t, dir, "torch-2.6.0+cu124-cp312-cp312-linux_x86_64.whl", "torch/lib/libtorch_cuda.so", "multi.so")
	if code, _, errs := runCLI(t, fakeNoDriver, vars, "kb", "learn", whl); code != 0 {
		t.Fatalf("kb learn: exit %d: %s", code, errs)
	}
	req := writeFile(t, filepath.Join(dir, "requirements.txt"), "--extra-index-url https://download.pytorch.org/whl/cu124\ntorch==2.6.0+cu124\n")
	code, out, errs := runCLI(t, fakeNoDriver, vars, "validate", req, "--format", "json", "--targets", fleet, "--target", "pascal", "--target", "h100", "--target", "blackwell")
	if code == ExitUsage || code == ExitInternal {
		t.Fatalf("validate: exit %d: %s", code, errs)
	}
	var rs []report.Report
	if err := json.Unmarshal([]byte(out), &rs); err != nil || len(rs) != 1 {
		t.Fatalf("validate printed no report: %v\n%s", err, out)
	}
	var codes []string
	for _, f := range rs[0].Findings {
		codes = append(codes, f.Code+"@"+f.Target)
	}
	if !hasCode(codes, "EG403@pascal") || hasCode(codes, "EG403@h100") || !hasCode(codes, "EG408@blackwell") || hasCode(codes, "EG403@blackwell") {
		t.Errorf("codes %v; want EG403 on pascal, EG408 on blackwell, nothing of the kind on h100", codes)
	}
	notes := strings.Join(rs[0].Notes, "\n")
	for _, want := range []string{"the binary carries SASS sm_75 sm_80 sm_90, PTX compute_90", "torch 2.6.0+cu124 sha256:", "matched by name, version and local version"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes\n%s\nwant %q", notes, want)
		}
	}
}

// TestKBLearnCondaPackage learns native/'s conda fixture and validates an
// environment that pins that build by name, version and build string, and
// a conda-lock file that pins it by sha256.
func TestKBLearnCondaPackage(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{"XDG_DATA_HOME": filepath.Join(dir, "data")}
	fleet := writeFile(t, filepath.Join(dir, "fleet.yml"), learnFleet)
	pkg := filepath.Join("..", "native", "testdata", "pkg", "eg-cuda-1.0-0.tar.bz2")
	data, err := os.ReadFile(pkg)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	code, out, errs := runCLI(t, fakeNoDriver, vars, "kb", "learn", pkg)
	// libsm80.so (sm_80) and libmulti.so.1 (sm_75 sm_80 sm_90, compute_90)
	if code != 0 || !strings.Contains(out, "eg-cuda 1.0=0 sha256:") || !strings.Contains(out, "learned sm_75 sm_80 sm_90 compute_90 from 2 libraries") {
		t.Fatalf("kb learn: exit %d:\n%s%s", code, out, errs)
	}
	// The union of its libraries' code: sm_75 sm_80 sm_90, compute_90 runs
	// on an A100 and an H100, not on a GTX 1080 Ti (6.1).
	env := writeFile(t, filepath.Join(dir, "environment.yml"), "name: eg\nchannels: [conda-forge]\ndependencies:\n  - python=3.12\n  - eg-cuda==1.0=0\n  - pip\n  - pip:\n    - torch==2.6.0\n")
	v, codes, _ := validateTargets(t, vars, fleet, env, "a100", "h100", "pascal")
	if v["a100"] != "ok" || v["h100"] != "ok" || v["pascal"] != "fail" || !hasCode(codes, "EG410@pascal") {
		t.Errorf("environment.yml: verdicts %v, codes %v; want a100 and h100 ok, pascal fail (EG410)", v, codes)
	}
	lock := writeFile(t, filepath.Join(dir, "conda-lock.yml"), `version: 1
metadata:
  platforms: [linux-64]
  channels: [{url: conda-forge, used_env_vars: []}]
package:
  - name: eg-cuda
    version: "1.0"
    manager: conda
    platform: linux-64
    dependencies: {}
    url: https://conda.example/conda-forge/linux-64/eg-cuda-1.0-renamed_0.conda
    hash:
      md5: 00000000000000000000000000000000
      sha256: `+hex.EncodeToString(sum[:])+`
  - name: cuda-version
    version: "12.4"
    manager: conda
    platform: linux-64
    dependencies: {}
    url: https://conda.example/conda-forge/noarch/cuda-version-12.4-h3060b56_3.conda
`)
	v, codes, _ = validateTargets(t, vars, fleet, lock, "h100", "pascal")
	// No framework: which code the job runs is undecided (EG409), but the
	// package's own is: it runs on an H100, not on the GTX 1080 Ti.
	if hasCode(codes, "EG410@h100") || v["pascal"] != "fail" || !hasCode(codes, "EG410@pascal") {
		t.Errorf("conda-lock by sha256 (the URL's build string differs): verdicts %v, codes %v; want EG410 on pascal only", v, codes)
	}
}

// TestKBLearnHostile: what cannot be learned is said, with the path, and
// nothing is written; learning twice changes nothing; a damaged learned
// file is named with its line and left out, never a crash.
func TestKBLearnHostile(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	vars := map[string]string{"XDG_DATA_HOME": data}
	learned := filepath.Join(data, "envguard", "learned")
	notPkg := writeFile(t, filepath.Join(dir, "notes.txt"), "hello\n")
	broken := writeFile(t, filepath.Join(dir, "eg-1.0-py3-none-any.whl"), "not a zip")
	badName := writeFile(t, filepath.Join(dir, "eg.whl"), "x")
	for _, tc := range []struct {
		path, want string
	}{
		{filepath.Join(dir, "missing.whl"), "no such file or directory"},
		{notPkg, "not a package (a .whl, .conda or .tar.bz2 file) or a prefix"},
		{broken, "zip: not a valid zip file"},
		{badName, "is not NAME-VERSION(-BUILD)-PYTHON-ABI-PLATFORM.whl"},
		{filepath.Join("..", "native", "testdata", "pkg", "bomb-1.0-0.tar.bz2"), "(a decompression bomb?)"},
		{os.DevNull, "not a regular file"},
		{dir, "is neither a conda environment"},
	} {
		code, _, errs := runCLI(t, fakeNoDriver, vars, "kb", "learn", tc.path)
		if code != ExitUsage || !strings.Contains(errs, tc.path) || !strings.Contains(errs, tc.want) || !strings.Contains(errs, "nothing learned") {
			t.Errorf("kb learn %s: exit %d, stderr %q; want exit 2 naming the path and %q", tc.path, code, errs, tc.want)
		}
	}
	if _, err := os.Stat(learned); !os.IsNotExist(err) {
		t.Errorf("failed learns wrote %s: %v", learned, err)
	}

	whl, _ := learnWheel(t, dir, "eg_kernels-1.0-cp312-cp312-linux_x86_64.whl", "eg_kernels/_C.so", "sm90a.so")
	if code, _, errs := runCLI(t, fakeNoDriver, vars, "kb", "learn", whl); code != 0 {
		t.Fatalf("kb learn: exit %d: %s", code, errs)
	}
	files, _ := filepath.Glob(filepath.Join(learned, "*.yaml"))
	if len(files) != 1 {
		t.Fatalf("learned files %v, want one", files)
	}
	first, _ := os.ReadFile(files[0])
	code, out, _ := runCLI(t, fakeNoDriver, vars, "kb", "learn", whl)
	again, _ := os.ReadFile(files[0])
	if files2, _ := filepath.Glob(filepath.Join(learned, "*")); code != 0 || !strings.Contains(out, "already learned") || !bytes.Equal(first, again) || len(files2) != 1 {
		t.Errorf("learning twice: exit %d, %q, files %v, changed %v", code, out, files2, !bytes.Equal(first, again))
	}

	// The same bytes under another name are another key for one file.
	renamed := filepath.Join(dir, "other_kernels-2.0-cp312-cp312-linux_x86_64.whl")
	if err := os.WriteFile(renamed, mustRead(t, whl), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI(t, fakeNoDriver, vars, "kb", "learn", renamed)
	if files2, _ := filepath.Glob(filepath.Join(learned, "*")); code != ExitUsage || !strings.Contains(errs, "is already learned as eg_kernels 1.0 sha256:") || len(files2) != 1 {
		t.Errorf("a renamed copy: exit %d, %q, files %v", code, errs, files2)
	}

	// A damaged file: a sha256 that is not one, on line 7.
	writeFile(t, filepath.Join(learned, "zz-damaged.yaml"), "learned_builds:\n  - package: x\n    ecosystem: pip\n    version: \"1\"\n    sha256_of: package\n    source: /x.whl\n  - package: y\n    sha256: nothex\n")
	fleet := writeFile(t, filepath.Join(dir, "fleet.yml"), learnFleet)
	req := writeFile(t, filepath.Join(dir, "requirements.txt"), "torch==2.6.0\neg-kernels==1.0\n")
	_, _, errs = validateTargets(t, vars, fleet, req, "h100")
	for _, want := range []string{"warning: ignoring the learned knowledge in " + learned, "zz-damaged.yaml:2: learned_builds[1]: sha256 \"\" is not 64 lowercase hex digits", "zz-damaged.yaml:7: learned_builds[2]: ecosystem \"\" is not pip or conda"} {
		if !strings.Contains(errs, want) {
			t.Errorf("validate with a damaged layer: stderr\n%s\nwant %q", errs, want)
		}
	}
	writeFile(t, filepath.Join(learned, "zz-damaged.yaml"), "learned_builds: [\n")
	code, out, _ = runCLI(t, fakeNoDriver, vars, "kb", "status")
	if code != 0 || !strings.Contains(out, "learned: unreadable, not used:") || !strings.Contains(out, "zz-damaged.yaml:1: did not find expected node content") {
		t.Errorf("kb status with broken YAML: exit %d:\n%s", code, out)
	}
}

// TestKBLearnPrefix learns the distributions of prefixes: a venv's
// dist-info, known by its RECORD's sha256 (so only name, version and
// local version find it), and a conda package, known by the sha256 its
// conda-meta record gives (so a lock file's hash finds it too).
func TestKBLearnPrefix(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{"XDG_DATA_HOME": filepath.Join(dir, "data")}
	fleet := writeFile(t, filepath.Join(dir, "fleet.yml"), learnFleet)

	venv := newVenv(t, "3.12.4")
	venv.distFiles("eg-kernels", "1.0+cu12", "eg_kernels/_C.so")
	venv.fixture("sm90a.so", filepath.Join(venv.sitePackages(), "eg_kernels", "_C.so"))
	venv.distFiles("plain", "2.0", "plain/__init__.py") // no GPU code: nothing learned
	code, out, errs := runCLI(t, fakeNoDriver, vars, "kb", "learn", venv.dir)
	if code != 0 || !strings.Contains(out, "eg-kernels 1.0+cu12 sha256:") || !strings.Contains(out, "learned sm_90a from 1 library") || strings.Contains(out, "plain") {
		t.Fatalf("kb learn venv: exit %d:\n%s%s", code, out, errs)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "data", "envguard", "learned", "*.yaml"))
	if len(files) != 1 {
		t.Fatalf("learned files %v", files)
	}
	data, _ := os.ReadFile(files[0])
	record := filepath.Join(venv.dir, venv.sitePackages(), "eg_kernels-1.0+cu12.dist-info", "RECORD")
	for _, want := range []string{"sha256_of: record", "source: " + record, "path: lib/python3.12/site-packages/eg_kernels/_C.so", "code: sm_90a"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("learned file lacks %q:\n%s", want, data)
		}
	}
	req := writeFile(t, filepath.Join(dir, "requirements.txt"), "torch==2.6.0\neg-kernels==1.0+cu12\n")
	v, codes, _ := validateTargets(t, vars, fleet, req, "a100", "h100")
	if v["a100"] != "fail" || v["h100"] != "ok" || !hasCode(codes, "EG410@a100") {
		t.Errorf("sm_90a only: verdicts %v, codes %v; want a100 fail (EG410), h100 ok", v, codes)
	}

	conda := newCondaPrefix(t, "3.12")
	pkgSum := strings.Repeat("5e", 32)
	conda.write("conda-meta/eg-cuda-1.0-cuda12_0.json", `{"name": "eg-cuda", "version": "1.0", "build": "cuda12_0", "channel": "https://conda.example/eg/linux-64",`+
		` "subdir": "linux-64", "url": "https://conda.example/eg/linux-64/eg-cuda-1.0-cuda12_0.conda", "sha256": "`+pkgSum+`", "files": ["lib/libeg.so"]}`+"\n")
	conda.fixture("ptx120.so", filepath.Join("lib", "libeg.so"))
	code, out, errs = runCLI(t, fakeNoDriver, vars, "kb", "learn", conda.dir)
	if code != 0 || !strings.Contains(out, "eg-cuda 1.0=cuda12_0 sha256:"+pkgSum[:12]+": learned compute_120") {
		t.Fatalf("kb learn conda prefix: exit %d:\n%s%s", code, out, errs)
	}
	// The explicit file names the package's sha256: PTX compute_120 runs on
	// no GPU older than 12.0.
	explicit := writeFile(t, filepath.Join(dir, "explicit.txt"), "@EXPLICIT\nhttps://conda.example/conda-forge/noarch/cuda-version-12.4-h3060b56_3.conda\nhttps://conda.example/eg/linux-64/eg-cuda-1.0-cuda12_0.conda#sha256:"+pkgSum+"\n")
	v, codes, _ = validateTargets(t, vars, fleet, explicit, "h100")
	if v["h100"] != "fail" || !hasCode(codes, "EG410@h100") {
		t.Errorf("explicit file by sha256: verdicts %v, codes %v; want h100 fail (EG410)", v, codes)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
