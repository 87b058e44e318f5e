package envspec

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/envguard/envguard/internal/timebound"
)

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// condaMetaJSON writes a record the way conda does (sorted keys, two-space
// indent), with a file list of nfiles entries to make it realistically big.
func condaMetaJSON(name, version, build, channel, subdir string, nfiles int) string {
	files := make([]string, nfiles)
	paths := make([]map[string]any, nfiles)
	for i := range files {
		files[i] = fmt.Sprintf("lib/python3.11/site-packages/%s/module_%d.py", name, i)
		paths[i] = map[string]any{"_path": files[i], "path_type": "hardlink", "sha256": strings.Repeat("ab", 32), "size_in_bytes": 1234}
	}
	rec := map[string]any{
		"build": build, "build_number": 0, "channel": channel, "depends": []string{"python >=3.11"},
		"files": files, "fn": name + "-" + version + "-" + build + ".conda", "name": name,
		"paths_data": map[string]any{"paths": paths, "paths_version": 1}, "subdir": subdir,
		"url": channel + "/" + subdir + "/" + name + "-" + version + "-" + build + ".conda", "version": version,
		"requested_spec": "None",
	}
	b, _ := json.MarshalIndent(rec, "", "  ")
	return string(b)
}

func distInfo(t testing.TB, sp, name, version, installer, directURL string) {
	di := filepath.Join(sp, strings.ReplaceAll(name, "-", "_")+"-"+version+".dist-info")
	writeFile(t, filepath.Join(di, "METADATA"), "Metadata-Version: 2.1\nName: "+name+"\nVersion: "+version+"\nSummary: x\n\nVersion: 9.9.9 in the description\n")
	if installer != "" {
		writeFile(t, filepath.Join(di, "INSTALLER"), installer+"\n")
	}
	if directURL != "" {
		writeFile(t, filepath.Join(di, "direct_url.json"), `{"url": "`+directURL+`", "dir_info": {}}`)
	}
	writeFile(t, filepath.Join(di, "RECORD"), "unused,,\n")
}

func TestReadPrefixConda(t *testing.T) {
	dir := t.TempDir()
	cf := "https://conda.anaconda.org/conda-forge"
	writeFile(t, filepath.Join(dir, "conda-meta", "python-3.11.9-hb806964_0_cpython.json"), condaMetaJSON("python", "3.11.9", "hb806964_0_cpython", cf, "linux-64", 5))
	writeFile(t, filepath.Join(dir, "conda-meta", "numpy-1.26.4-py311h64a7726_0.json"), condaMetaJSON("numpy", "1.26.4", "py311h64a7726_0", cf, "linux-64", 50))
	writeFile(t, filepath.Join(dir, "conda-meta", "python-dateutil-2.9.0-pyhd8ed1ab_0.json"), condaMetaJSON("python-dateutil", "2.9.0", "pyhd8ed1ab_0", cf, "noarch", 5))
	// A minified record (another tool's layout) falls back to a full decode.
	writeFile(t, filepath.Join(dir, "conda-meta", "cuda-version-12.4-h3060b56_3.json"),
		`{"name":"cuda-version","version":"12.4","build":"h3060b56_3","channel":"`+cf+`","subdir":"noarch"}`)
	writeFile(t, filepath.Join(dir, "conda-meta", "history"), "==> 2024-01-01 <==\n")
	sp := filepath.Join(dir, "lib", "python3.11", "site-packages")
	distInfo(t, sp, "numpy", "1.26.4", "conda", "")                                     // conda's own metadata
	distInfo(t, sp, "python_dateutil", "2.9.0", "", "")                                 // old conda package: no INSTALLER
	distInfo(t, sp, "requests", "2.32.3", "pip", "")                                    // pip
	distInfo(t, sp, "torch", "2.5.1+cu124", "uv", "https://download.example/torch.whl") // uv, from a URL
	distInfo(t, sp, "mystery", "0.1", "", "")                                           // no INSTALLER, not conda's
	writeFile(t, filepath.Join(sp, "torch", "version.py"), "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n__version__ = '2.5.1+cu124'\ndebug = False\ncuda: Optional[str] = '12.4'\ngit_version = 'abc'\nhip: Optional[str] = None\n")

	env, err := ReadPrefix(dir)
	if err != nil {
		t.Fatal(err)
	}
	if env.Kind != KindPrefix || env.File != dir || env.PythonVersion != "3.11.9" || env.Platform != "linux-64" {
		t.Errorf("Kind %v File %q Python %q Platform %q", env.Kind, env.File, env.PythonVersion, env.Platform)
	}
	var conda []string
	for _, d := range env.Deps {
		in := d.Installed
		conda = append(conda, in.Name+"="+in.Version+"="+in.Build+"@"+in.Channel+"/"+in.Subdir)
		if d.Spec == nil || d.Spec.Name != in.Name {
			t.Errorf("%s: spec %+v", in.Name, d.Spec)
		}
	}
	wantConda := "cuda-version=12.4=h3060b56_3@conda-forge/noarch numpy=1.26.4=py311h64a7726_0@conda-forge/linux-64 python=3.11.9=hb806964_0_cpython@conda-forge/linux-64 python-dateutil=2.9.0=pyhd8ed1ab_0@conda-forge/noarch"
	if got := strings.Join(conda, " "); got != wantConda {
		t.Errorf("conda:\n got %s\nwant %s", got, wantConda)
	}
	var pip []string
	for _, d := range env.Pip {
		in := d.Installed
		pip = append(pip, in.Name+"=="+in.Version+"/"+in.Installer+"/"+in.DirectURL)
		if d.Line == nil || d.Line.Req == nil || d.Line.Req.Normalized != NormalizePipName(in.Name) || d.Line.Req.Specifiers[0].Version != in.Version {
			t.Errorf("%s: pip line %+v", in.Name, d.Line)
		}
	}
	wantPip := "mystery==0.1// requests==2.32.3/pip/ torch==2.5.1+cu124/uv/https://download.example/torch.whl"
	if got := strings.Join(pip, " "); got != wantPip {
		t.Errorf("pip:\n got %s\nwant %s", got, wantPip)
	}
	if env.Torch == nil || env.Torch.Version != "2.5.1+cu124" || env.Torch.CUDA != "12.4" {
		t.Errorf("Torch = %+v", env.Torch)
	}
}

func TestReadPrefixVenvWindows(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "pyvenv.cfg"), "home = C:\\Python312\ninclude-system-site-packages = false\nversion_info = 3.12.1.final.0\n")
	sp := filepath.Join(dir, "Lib", "site-packages")
	distInfo(t, sp, "torch", "2.4.0+cpu", "pip", "")
	writeFile(t, filepath.Join(sp, "torch", "version.py"), "__version__ = '2.4.0+cpu'\ndebug = False\ncuda = None\n")
	env, err := ReadPrefix(dir)
	if err != nil {
		t.Fatal(err)
	}
	if env.PythonVersion != "3.12.1" || len(env.Deps) != 0 || len(env.Pip) != 1 {
		t.Errorf("Python %q deps %d pip %d", env.PythonVersion, len(env.Deps), len(env.Pip))
	}
	if env.Torch == nil || env.Torch.Version != "2.4.0+cpu" || env.Torch.CUDA != "" {
		t.Errorf("Torch = %+v", env.Torch)
	}
}

func TestReadPrefixVenvPosix(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "pyvenv.cfg"), "home = /usr/bin\nversion = 3.10.12\n")
	distInfo(t, filepath.Join(dir, "lib", "python3.10", "site-packages"), "jax", "0.4.30", "pip", "")
	env, err := ReadPrefix(dir)
	if err != nil {
		t.Fatal(err)
	}
	if env.PythonVersion != "3.10.12" || len(env.Pip) != 1 || env.Pip[0].Installed.Name != "jax" || env.Torch != nil {
		t.Errorf("env = %+v", env)
	}
}

func TestReadPrefixErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	writeFile(t, file, "x")
	for _, c := range []struct{ path, want string }{
		{dir, "neither a conda environment"},
		{file, "is a file"},
		{filepath.Join(dir, "missing"), "no such file"},
	} {
		_, err := ReadPrefix(c.path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadPrefix(%s) = %v, want %q", c.path, err, c.want)
		}
	}
}

func fakeBigPrefix(t testing.TB, n int) string {
	dir := t.TempDir()
	cf := "https://conda.anaconda.org/conda-forge"
	sp := filepath.Join(dir, "lib", "python3.11", "site-packages")
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("pkg%03d", i)
		writeFile(t, filepath.Join(dir, "conda-meta", name+"-1.0-h0_0.json"), condaMetaJSON(name, "1.0", "h0_0", cf, "linux-64", 300))
		if i%3 == 0 {
			distInfo(t, sp, name, "1.0", "conda", "")
		}
	}
	for i := 0; i < 50; i++ {
		distInfo(t, sp, fmt.Sprintf("pippkg%02d", i), "2.0", "pip", "")
	}
	return dir
}

// TestReadPrefixFast holds ReadPrefix to the budget of a pre-training hook:
// about 300 conda packages with realistic (large) records in under 50 ms.
// The bound asserted is looser, as tests share a busy machine.
func TestReadPrefixFast(t *testing.T) {
	dir := fakeBigPrefix(t, 300)
	if _, err := ReadPrefix(dir); err != nil { // warm the page cache
		t.Fatal(err)
	}
	best := time.Hour
	for i := 0; i < 3; i++ {
		start := time.Now()
		env, err := ReadPrefix(dir)
		if err != nil {
			t.Fatal(err)
		}
		best = min(best, time.Since(start))
		if len(env.Deps) != 300 || len(env.Pip) != 50 {
			t.Fatalf("deps %d pip %d", len(env.Deps), len(env.Pip))
		}
	}
	// `envguard check` must finish well under a second; the prefix read is
	// most of it. 50 ms is the goal on an idle machine (measured 36-67 ms
	// under load), so 200 ms flags a real regression only; held where
	// .ci/run asks, never under -race or on a machine it does not own.
	timebound.Within(t, "ReadPrefix of 300 conda + 150 dist-info", best, 200*time.Millisecond)
}

func BenchmarkReadPrefix(b *testing.B) {
	dir := fakeBigPrefix(b, 300)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ReadPrefix(dir); err != nil {
			b.Fatal(err)
		}
	}
}

func TestFastCondaMeta(t *testing.T) {
	for _, c := range []struct {
		src     string
		ok      bool
		name    string
		channel string
	}{
		{"{\n  \"build\": \"h0\",\n  \"files\": [\n    \"a\"\n  ],\n  \"name\": \"numpy\",\n  \"version\": \"1.0\"\n}", true, "numpy", ""},
		{"{\n    \"channel\": \"https://conda.anaconda.org/conda-forge\",\n    \"depends\": {\n        \"name\": \"nested\"\n    },\n    \"name\": \"a\\\"b\",\n    \"version\": \"2\"\n}", true, "a\"b", "https://conda.anaconda.org/conda-forge"},
		{`{"name":"x","version":"1"}`, false, "", ""},
		{"{\n  \"name\": \"x\"\n}", false, "x", ""}, // no version: decode fully
		{"{\n  \"name\": \"unterminated", false, "", ""},
	} {
		rec, ok := fastCondaMeta([]byte(c.src))
		if ok != c.ok || (ok && (rec.Name != c.name || rec.Channel != c.channel)) {
			t.Errorf("fastCondaMeta(%q) = %+v, %v", c.src, rec, ok)
		}
	}
}

// A system Python prefix (/usr of an NGC or Debian image) is read: its
// version from the standard library's directory, packages from
// dist-packages, and for /usr also /usr/local's, where Debian's pip
// installs.
func TestReadPrefixSystemPython(t *testing.T) {
	usr := filepath.Join(t.TempDir(), "usr")
	writeFile(t, filepath.Join(usr, "lib", "python3.10", "os.py"), "# stdlib\n")
	distInfo(t, filepath.Join(usr, "lib", "python3", "dist-packages"), "numpy", "1.21.5", "debian", "")
	sp := filepath.Join(usr, "local", "lib", "python3.10", "dist-packages")
	distInfo(t, sp, "torch", "2.1.0", "pip", "")
	writeFile(t, filepath.Join(sp, "torch", "version.py"), "__version__ = '2.1.0a0+32f93b1'\ncuda = '12.2'\n")
	env, err := ReadPrefix(usr)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range env.Pip {
		names = append(names, p.Installed.Name)
	}
	if env.PythonVersion != "3.10" || strings.Join(names, " ") != "numpy torch" || env.Torch == nil {
		t.Errorf("python %q, packages %v, torch %+v", env.PythonVersion, names, env.Torch)
	}
	// /usr/local as the prefix (the python Docker images) reads its own
	// site-packages.
	local := filepath.Join(t.TempDir(), "local")
	writeFile(t, filepath.Join(local, "lib", "python3.12", "os.py"), "")
	distInfo(t, filepath.Join(local, "lib", "python3.12", "site-packages"), "jax", "0.4.30", "pip", "")
	if env, err := ReadPrefix(local); err != nil || env.PythonVersion != "3.12" || len(env.Pip) != 1 {
		t.Errorf("/usr/local: %+v, %v", env, err)
	}
}
