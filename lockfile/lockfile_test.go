package lockfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

const lockDir = "testdata/lock/pt21_cu121/"

func readLockFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(lockDir + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// depSummary is what a test compares of an Env: each conda item as
// name=version=build@channel line:col, each pip item as its raw text at
// line:col with the index it came from.
func depSummary(env *envspec.Env) []string {
	var out []string
	for _, d := range env.Deps {
		s := d.Raw.Value
		if in := d.Installed; in != nil {
			s = fmt.Sprintf("%s=%s=%s@%s", in.Name, in.Version, in.Build, in.Channel)
		}
		out = append(out, fmt.Sprintf("conda %s %d:%d", s, d.Raw.Pos.Line, d.Raw.Pos.Col))
	}
	for _, d := range env.Pip {
		s := d.Raw.Value
		switch {
		case d.Line != nil && d.Line.Option != nil:
			s = d.Line.Option.Name + " " + d.Line.Option.Value
		case d.Installed != nil && d.Installed.Channel != "":
			s += " from " + d.Installed.Channel
		}
		out = append(out, fmt.Sprintf("pip %s %d:%d", s, d.Raw.Pos.Line, d.Raw.Pos.Col))
	}
	return out
}

func diagSummary(env *envspec.Env) []string {
	var out []string
	for _, d := range env.Diags {
		out = append(out, fmt.Sprintf("%d:%d %s %s", d.Pos.Line, d.Pos.Col, d.Code, d.Message))
	}
	return out
}

func sameList(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\ngot  %q\nwant %q", what, got, want)
	}
}

func TestSniffFile(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want envspec.Kind
	}{
		{"environment.yml", "name: x\ndependencies: [a]\n", envspec.KindEnvFile},
		{"spec-file.txt", "# platform: linux-64\n@EXPLICIT\nhttps://x/linux-64/a-1-0.conda\n", envspec.KindExplicit},
		{"conda-lock.yml", "", envspec.KindCondaLock},
		{"gpu.conda-lock.yml", "", envspec.KindCondaLock},
		{"pixi.lock", "", envspec.KindPixiLock},
		{"pixi.toml", "", envspec.KindPixiManifest},
		{"uv.lock", "", envspec.KindUVLock},
		{"pylock.toml", "", envspec.KindPylock},
		{"pylock.gpu.toml", "", envspec.KindPylock},
		{"requirements.txt", "torch==2.1.0\n", envspec.KindRequirements},
		{"requirements-dev.txt", "", envspec.KindRequirements},
		{"env.txt", "name: x\ndependencies:\n  - numpy\n", envspec.KindEnvFile},
		{"pyproject.toml", "[project]\nname = 'x'\n[tool.pixi.workspace]\nchannels = []\n", envspec.KindPixiManifest},
		{"pyproject.toml", "[project]\nname = 'x'\n[tool.uv]\n", envspec.KindUnknown},
		{"poetry.lock", "[[package]]\nname = 'a'\n[metadata]\nlock-version = '2.0'\n", envspec.KindUnknown},
		{"x.toml", "lock-version = '1.0'\n[[packages]]\nname = 'a'\n", envspec.KindPylock},
		// Content alone (standard input, a service request without a name).
		{"-", "version: 1\nmetadata:\n  platforms: [linux-64]\npackage: []\n", envspec.KindCondaLock},
		{"-", "version: 6\nenvironments:\n  default: {}\npackages: []\n", envspec.KindPixiLock},
		{"-", "version = 1\nrequires-python = '>=3.11'\n[[package]]\nname = 'a'\n", envspec.KindUVLock},
		{"-", "lock-version = '1.0'\n", envspec.KindPylock},
		{"-", "[workspace]\nchannels = []\n[dependencies]\n", envspec.KindPixiManifest},
		{"-", "--extra-index-url https://h/whl/cu121\ntorch==2.1.2+cu121 \\\n  --hash=sha256:00\nhttps://h/x-1.0-py3-none-any.whl\n", envspec.KindRequirements},
		{"-", "channels:\n  - conda-forge\ndependencies:\n  - numpy\n", envspec.KindEnvFile},
		{"-", "{{{ not anything\n", envspec.KindEnvFile},
		{"bad.yml", "torch==1\n", envspec.KindEnvFile},
	}
	for _, tt := range tests {
		if got := SniffFile(tt.name, []byte(tt.src)); got != tt.want {
			t.Errorf("SniffFile(%q, %q) = %q, want %q", tt.name, tt.src, got, tt.want)
		}
	}
}

func TestReadUnknownNamesFormats(t *testing.T) {
	env := Read("pyproject.toml", []byte("[project]\nname = 'x'\n"), Options{})
	if len(env.Diags) != 1 || env.Diags[0].Code != "EG100" || !strings.Contains(env.Diags[0].Message, "uv.lock") {
		t.Fatalf("diags = %v", diagSummary(env))
	}
}

func TestReadCondaLock(t *testing.T) {
	src := readLockFile(t, "conda-lock.yml")
	env := ReadCondaLock("conda-lock.yml", src, Options{Platform: "linux-64"})
	sameList(t, "diags", diagSummary(env), nil)
	sameList(t, "items", depSummary(env), []string{
		"conda python=3.11.7=hab00c5b_1_cpython@conda-forge 22:9",
		"conda pytorch-mutex=1.0=cuda@pytorch 42:9",
		"conda cuda-cudart=12.1.105=0@nvidia 52:9",
		"conda pytorch-cuda=12.1=ha16c6d3_5@pytorch 62:9",
		"conda pytorch=2.1.2=py3.11_cuda12.1_cudnn8.9.2_0@pytorch 73:9",
		"conda torchvision=0.16.2=py311_cu121@pytorch 95:9",
		// jupyterlab is in the optional `notebook` category: not installed by default
	})
	if env.Kind != envspec.KindCondaLock || env.Platform != "linux-64" {
		t.Errorf("kind %q platform %q", env.Kind, env.Platform)
	}
	var ch []string
	for _, c := range env.Channels {
		ch = append(ch, fmt.Sprintf("%s %d:%d", c.Value, c.Pos.Line, c.Pos.Col))
	}
	sameList(t, "channels", ch, []string{"pytorch 10:10", "nvidia 12:10", "conda-forge 14:10"})
	for _, d := range env.Deps {
		if d.Spec == nil || d.Spec.Name != d.Installed.Name || d.Spec.Build != d.Installed.Build {
			t.Errorf("%s: spec %+v does not pin the locked build", d.Raw.Value, d.Spec)
		}
	}

	mac := ReadCondaLock("conda-lock.yml", src, Options{Platform: "osx-arm64"})
	sameList(t, "osx-arm64 items", depSummary(mac), []string{
		"conda python=3.11.7=hdf0ec26_1_cpython@conda-forge 32:9",
		"conda pytorch=2.1.2=py3.11_0@pytorch 85:9",
	})

	win := ReadCondaLock("conda-lock.yml", src, Options{Platform: "win-64"})
	sameList(t, "win-64 diags", diagSummary(win), []string{
		"4:1 EG101 the lock file has no packages for win-64 (it locks linux-64, osx-arm64)",
	})
}

func TestReadCondaLockPip(t *testing.T) {
	// conda-lock's pip packages carry their wheel URL; a PyTorch wheel
	// index directory becomes the index they come from.
	src := `version: 1
metadata:
  channels:
  - url: conda-forge
  platforms:
  - linux-64
package:
- name: python
  version: 3.11.7
  manager: conda
  platform: linux-64
  url: https://conda.anaconda.org/conda-forge/linux-64/python-3.11.7-hab00c5b_1_cpython.conda
  category: main
  optional: false
- name: torch
  version: 2.1.2+cu121
  manager: pip
  platform: linux-64
  url: https://download.pytorch.org/whl/cu121/torch-2.1.2%2Bcu121-cp311-cp311-linux_x86_64.whl
  hash:
    sha256: 0c5a2e1b
  category: main
  optional: false
- name: requests
  version: 2.31.0
  manager: pip
  platform: linux-64
  url: https://files.pythonhosted.org/packages/70/8e/0e2d/requests-2.31.0-py3-none-any.whl
  category: main
  optional: false
- name: broken
  manager: bogus
  platform: linux-64
`
	env := ReadCondaLock("conda-lock.yml", []byte(src), Options{Platform: "linux-64"})
	sameList(t, "items", depSummary(env), []string{
		"conda python=3.11.7=hab00c5b_1_cpython@conda-forge 8:9",
		"pip --extra-index-url https://download.pytorch.org/whl/cu121 15:9",
		"pip torch==2.1.2+cu121 from https://download.pytorch.org/whl/cu121 15:9",
		"pip requests==2.31.0 24:9",
	})
	sameList(t, "diags", diagSummary(env), []string{"32:12 EG101 unknown manager \"bogus\" (conda-lock writes conda or pip)"})
	torch := env.Pip[1]
	if torch.Installed == nil || torch.Installed.Version != "2.1.2+cu121" || torch.Line.Req.URL == "" {
		t.Errorf("torch = %+v", torch.Installed)
	}
}

func TestReadPixiLock(t *testing.T) {
	src := readLockFile(t, "pixi.lock")
	env := ReadPixiLock("pixi.lock", src, Options{Platform: "linux-64"})
	sameList(t, "diags", diagSummary(env), nil)
	sameList(t, "items", depSummary(env), []string{
		"conda python=3.11.7=hab00c5b_1_cpython@conda-forge 13:16",
		"conda pytorch-mutex=1.0=cuda@pytorch 14:16",
		"conda cuda-cudart=12.1.105=0@nvidia 15:16",
		"conda pytorch-cuda=12.1=ha16c6d3_5@pytorch 16:16",
		"conda pytorch=2.1.2=py3.11_cuda12.1_cudnn8.9.2_0@pytorch 17:16",
		"conda torchvision=0.16.2=py311_cu121@pytorch 18:16",
	})
	if len(env.Channels) != 3 || env.Channels[0].Value != "https://conda.anaconda.org/pytorch/" {
		t.Errorf("channels %+v", env.Channels)
	}
	mac := ReadPixiLock("pixi.lock", src, Options{Platform: "osx-arm64"})
	if len(mac.Deps) != 2 || mac.Deps[1].Installed.Build != "py3.11_0" {
		t.Errorf("osx-arm64: %q", depSummary(mac))
	}
	other := ReadPixiLock("pixi.lock", src, Options{Platform: "linux-64", Environment: "gpu"})
	sameList(t, "unknown environment", diagSummary(other), []string{"6:3 EG101 the lock file has no environment \"gpu\" (it has default)"})
}

func TestReadPixiLockPypi(t *testing.T) {
	// Format 6: pypi packages by URL, names of non-wheel sources from the
	// packages: list; format 5's kind:/url: entries are read as well.
	src := `version: 6
environments:
  default:
    channels:
    - url: https://conda.anaconda.org/conda-forge/
    indexes:
    - https://pypi.org/simple
    - https://download.pytorch.org/whl/cu124
    packages:
      linux-64:
      - conda: https://conda.anaconda.org/conda-forge/linux-64/python-3.12.7-hc5c86c4_0_cpython.conda
      - pypi: https://download.pytorch.org/whl/cu124/torch-2.5.1%2Bcu124-cp312-cp312-linux_x86_64.whl
      - pypi: git+https://github.com/example/tool.git?rev=v1#0123abcd
      - conda: .
      - pypi: not-a-package
packages:
- pypi: https://download.pytorch.org/whl/cu124/torch-2.5.1%2Bcu124-cp312-cp312-linux_x86_64.whl
  name: torch
  version: 2.5.1+cu124
  sha256: bf6484bf
- pypi: git+https://github.com/example/tool.git?rev=v1#0123abcd
  name: tool
  version: 1.0.0
- conda: .
  name: myproject
  version: 0.1.0
  build: hbf21a9e_0
  subdir: linux-64
`
	env := ReadPixiLock("pixi.lock", []byte(src), Options{Platform: "linux-64"})
	sameList(t, "items", depSummary(env), []string{
		"conda python=3.12.7=hc5c86c4_0_cpython@conda-forge 11:16",
		"conda myproject=0.1.0=hbf21a9e_0@ 14:16",
		"pip --extra-index-url https://download.pytorch.org/whl/cu124 12:15",
		"pip torch==2.5.1+cu124 from https://download.pytorch.org/whl/cu124 12:15",
		"pip tool==1.0.0 13:15",
	})
	sameList(t, "diags", diagSummary(env), []string{
		"15:15 EG104 locked PyPI package \"not-a-package\": not a wheel or sdist URL and no `packages:` entry names it",
	})
	if env.PythonVersion != "3.12" {
		t.Errorf("PythonVersion %q, want 3.12 (the cp312 wheel)", env.PythonVersion)
	}
}

func TestReadPixiManifest(t *testing.T) {
	src := readLockFile(t, "pixi.toml")
	tests := []struct {
		env, platform string
		want          []string
	}{
		{"", "linux-64", []string{
			"conda python 3.11.* 9:1",
			"conda pytorch::pytorch ==2.1.2 10:1",
			"conda torchvision ==0.16.2 11:1",
			"conda pytorch-cuda 12.1.* 14:1",
		}},
		{"", "osx-arm64", []string{ // [target.linux-64] left out
			"conda python 3.11.* 9:1",
			"conda pytorch::pytorch ==2.1.2 10:1",
			"conda torchvision ==0.16.2 11:1",
		}},
		{"notebook", "linux-64", []string{
			"conda python 3.11.* 9:1",
			"conda pytorch::pytorch ==2.1.2 10:1",
			"conda torchvision ==0.16.2 11:1",
			"conda pytorch-cuda 12.1.* 14:1",
			"conda jupyterlab >=4 20:1",
		}},
		{"legacy", "linux-64", nil}, // no-default-feature, and cu11 has no dependencies
	}
	for _, tt := range tests {
		env := ReadPixiManifest("pixi.toml", src, Options{Platform: tt.platform, Environment: tt.env})
		sameList(t, tt.env+"/"+tt.platform+" diags", diagSummary(env), nil)
		sameList(t, tt.env+"/"+tt.platform, depSummary(env), tt.want)
		if env.Platform != tt.platform || len(env.Platforms) != 2 {
			t.Errorf("platform %q platforms %v", env.Platform, env.Platforms)
		}
	}
	for _, d := range ReadPixiManifest("pixi.toml", src, Options{Platform: "linux-64"}).Deps {
		if d.Spec == nil {
			t.Errorf("%s: no spec", d.Raw.Value)
		}
	}
	bad := ReadPixiManifest("pixi.toml", src, Options{Platform: "linux-64", Environment: "nope"})
	sameList(t, "unknown environment", diagSummary(bad), []string{
		"1:1 EG101 the manifest defines no environment \"nope\" (it has default, legacy, notebook)",
	})
	win := ReadPixiManifest("pixi.toml", src, Options{Platform: "win-64"})
	sameList(t, "platform not listed", diagSummary(win), []string{
		"6:15 EG101 the environment is not defined for win-64 (its platforms are linux-64, osx-arm64)",
	})
}

func TestReadPixiPyproject(t *testing.T) {
	src := `[project]
name = "pt"
dependencies = ["numpy>=1.26", "torch==2.5.1"]

[tool.pixi.workspace]
channels = ["conda-forge"]
platforms = ["linux-64"]

[tool.pixi.dependencies]
python = "3.12.*"
cuda-version = { version = "12.4.*" }
broken = ">>1"

[tool.pixi.pypi-dependencies]
torchvision = { version = "==0.20.1", index = "https://download.pytorch.org/whl/cu124" }
pt = { path = ".", editable = true }

[tool.pixi.pypi-options]
extra-index-urls = ["https://download.pytorch.org/whl/cu124"]
`
	env := ReadPixiManifest("pyproject.toml", []byte(src), Options{Platform: "linux-64"})
	sameList(t, "items", depSummary(env), []string{
		"conda python 3.12.* 10:1",
		"conda cuda-version 12.4.* 11:1",
		"conda broken >>1 12:1",
		"pip --index-url https://download.pytorch.org/whl/cu124 15:48",
		"pip torchvision==0.20.1 15:1",
		"pip . 16:1",
		"pip --extra-index-url https://download.pytorch.org/whl/cu124 19:22",
		"pip numpy>=1.26 3:18",
		"pip torch==2.5.1 3:33",
	})
	diags := diagSummary(env)
	if len(diags) != 1 || !strings.HasPrefix(diags[0], "12:11 EG103 dependency broken") {
		t.Errorf("diags %q", diags)
	}
	none := ReadPixiManifest("pyproject.toml", []byte("[project]\nname = 'x'\n"), Options{})
	if d := diagSummary(none); len(d) != 1 || !strings.Contains(d[0], "EG101 no pixi manifest here") {
		t.Errorf("diags %q", d)
	}
}

func TestPixiSystemRequirements(t *testing.T) {
	got, err := PixiSystemRequirements("pixi.toml", readLockFile(t, "pixi.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var s []string
	for _, r := range got {
		s = append(s, fmt.Sprintf("%s cuda %s %d:%d", r.Environment, r.CUDA, r.Pos.Line, r.Pos.Col))
	}
	sameList(t, "system requirements", s, []string{
		"default cuda 12 17:9",
		"notebook cuda 12 17:9",
		"legacy cuda 11.8 23:9",
	})
	if _, err := PixiSystemRequirements("pixi.toml", []byte("[a]\nb = \n")); err == nil || !strings.Contains(err.Error(), "pixi.toml:2:") {
		t.Errorf("err = %v, want a positioned TOML error", err)
	}
}

func TestReadUVLock(t *testing.T) {
	src := readLockFile(t, "uv.lock")
	tests := []struct {
		platform string
		want     []string
		python   string
	}{
		{"linux-64", []string{
			"pip --extra-index-url https://pypi.org/simple 16:24",
			"pip numpy==1.26.4 from https://pypi.org/simple 14:9",
			"pip --extra-index-url https://download.pytorch.org/whl/cu121 47:24",
			"pip torch==2.1.2+cu121 from https://download.pytorch.org/whl/cu121 45:9",
		}, "3.11"},
		{"osx-arm64", []string{
			"pip --extra-index-url https://pypi.org/simple 16:24",
			"pip numpy==1.26.4 from https://pypi.org/simple 14:9",
			"pip torch==2.1.2 from https://pypi.org/simple 34:9",
		}, "3.11"},
		{"linux-aarch64", []string{ // no torch wheel for it; numpy builds from its sdist
			"pip --extra-index-url https://pypi.org/simple 16:24",
			"pip numpy==1.26.4 from https://pypi.org/simple 14:9",
		}, ""},
	}
	for _, tt := range tests {
		env := ReadUVLock("uv.lock", src, Options{Platform: tt.platform})
		sameList(t, tt.platform+" diags", diagSummary(env), nil)
		sameList(t, tt.platform, depSummary(env), tt.want)
		if env.PythonVersion != tt.python {
			t.Errorf("%s: PythonVersion %q, want %q", tt.platform, env.PythonVersion, tt.python)
		}
	}
}

func TestReadPylock(t *testing.T) {
	src := readLockFile(t, "pylock.toml")
	env := ReadPylock("pylock.toml", src, Options{Platform: "linux-64"})
	sameList(t, "diags", diagSummary(env), nil)
	sameList(t, "linux-64", depSummary(env), []string{
		"pip --extra-index-url https://pypi.org/simple 11:10",
		"pip numpy==1.26.4 from https://pypi.org/simple 9:9",
		"pip --extra-index-url https://download.pytorch.org/whl/cu121 25:10",
		"pip torch==2.1.2+cu121 from https://download.pytorch.org/whl/cu121 22:9",
	})
	mac := ReadPylock("pylock.toml", src, Options{Platform: "osx-arm64"})
	sameList(t, "osx-arm64", depSummary(mac), []string{ // numpy has a linux wheel only
		"pip --extra-index-url https://pypi.org/simple 18:10",
		"pip torch==2.1.2 from https://pypi.org/simple 15:9",
	})
	bad := ReadPylock("pylock.toml", []byte("lock-version = \"2.0\"\n[[packages]]\nname = \"a\"\nversion = \"1\"\n"), Options{Platform: "linux-64"})
	sameList(t, "version 2", diagSummary(bad), []string{
		"1:17 EG101 lock-version \"2.0\": this reader knows version 1 of PEP 751",
	})
	excl := ReadPylock("pylock.toml", []byte("lock-version = \"1.0\"\nenvironments = [\"sys_platform == 'darwin'\"]\n"), Options{Platform: "linux-64"})
	sameList(t, "environments", diagSummary(excl), []string{
		"2:18 EG101 the lock file's environments exclude linux-64: nothing in it installs there",
	})
}

func TestReadRequirements(t *testing.T) {
	src := readLockFile(t, "requirements.txt")
	env := ReadRequirements(lockDir+"requirements.txt", src, Options{Platform: "linux-64", ReadFile: os.ReadFile})
	sameList(t, "diags", diagSummary(env), nil)
	sameList(t, "items", depSummary(env), []string{
		"pip --extra-index-url https://download.pytorch.org/whl/cu121 4:1",
		"pip torch==2.1.2+cu121     --hash=sha256:0c5a2e1bd7a5ad1bd3ba7e88b0b2e4d59d0c8c0a0b1b3a8e6f5b0c6d1c9d3e8a 6:1",
		"pip torchvision==0.16.2+cu121 8:1",
		"pip numpy>=1.24; python_version >= \"3.9\" 9:1",
		"pip --requirement requirements-dev.txt 10:1",
		"pip pytest==7.4.4 10:0", // from the included file, on the -r line
	})
	torch := env.Pip[1].Line.Req
	if torch == nil || torch.Specifiers[0].Version != "2.1.2+cu121" || len(torch.Options) != 1 || torch.Options[0].Name != "--hash" {
		t.Errorf("torch = %+v", torch)
	}
	if env.Pip[2].Comment != "same CUDA variant as torch" {
		t.Errorf("comment %q", env.Pip[2].Comment)
	}
	// Without a reader (the service), -r is listed and not followed.
	bare := ReadRequirements("requirements.txt", src, Options{Platform: "linux-64"})
	if n := len(bare.Pip); n != 5 {
		t.Errorf("%d items without includes, want 5", n)
	}
}

func TestReadRequirementsErrors(t *testing.T) {
	files := map[string]string{
		"dir/a.txt":      "-r b.txt\ntorch==2.1.0\n",
		"dir/b.txt":      "-r a.txt\nbad line (\n",
		"dir/ignore.txt": "torch==2.1.0  # envguard: ignore EG304 CPU on purpose\n# envguard: ignore EG205 next line\ntorchvision==0.16.0+cu121\n# envguard: ignor EG1\n",
	}
	read := func(name string) ([]byte, error) {
		if s, ok := files[filepath.ToSlash(name)]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
	env := ReadRequirements("dir/a.txt", []byte(files["dir/a.txt"]), Options{ReadFile: read})
	sameList(t, "cycle", diagSummary(env), []string{
		"1:0 EG104 -r a.txt includes a file already read (a cycle, or the same file twice)",
		// An included file's line is named by its number, never quoted.
		"1:0 EG104 in dir/b.txt, line 2 is not a valid requirement or pip option",
	})
	cmdline := ReadRequirements("r.txt", []byte("numpy\n  --no-deps\n"), Options{})
	sameList(t, "command-line option", diagSummary(cmdline), []string{
		"2:3 EG104 pip does not accept --no-deps in a requirements file: `pip install -r` stops with an error",
	})
	missing := ReadRequirements("dir/c.txt", []byte("pip==24.0\n  -r   nothere.txt\nfoo===\n"), Options{ReadFile: read})
	got := diagSummary(missing)
	if len(got) != 2 || !strings.HasPrefix(got[0], "2:8 EG104 -r nothere.txt: cannot read it") || !strings.HasPrefix(got[1], "3:") || !strings.Contains(got[1], "EG104") {
		t.Errorf("diags %q", got)
	}
	ig := ReadRequirements("dir/ignore.txt", []byte(files["dir/ignore.txt"]), Options{})
	var igs []string
	for _, i := range ig.Ignores {
		igs = append(igs, fmt.Sprintf("%d:%d %v", i.Pos.Line, i.Pos.Col, i.Codes))
	}
	sameList(t, "ignores", igs, []string{"1:15 [EG304]", "3:1 [EG205]"})
	sameList(t, "malformed ignore", diagSummary(ig), []string{"4:1 EG113 malformed ignore comment: unknown directive \"ignor\" (only `ignore` is known)"})
}

func TestTOMLErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a = 1\na = 2\n", "f.toml:2:1: key \"a\" is defined twice (first at line 1)"},
		{"[t]\nx = 1\n[t]\n", "f.toml:3:2: table [t] is defined twice"},
		{"x = { a = 1 }\n[x]\n", "f.toml:2:2: key \"x\" is already a table (line 1)"},
		{"[[p]]\nname = 'a'\n[[p]]\nname = 'b'\n[p.w]\nu = 1\n", ""},
		{"a = [1,\n", "f.toml:1:8: array is incomplete"},
		{"s = \"é\" = 3\n", "f.toml:1:9:"},
	}
	for _, tt := range tests {
		_, err := parseTOML("f.toml", []byte(tt.src))
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%q: %v", tt.src, err)
		case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want)):
			t.Errorf("%q: err %v, want %q", tt.src, err, tt.want)
		}
		var te *TOMLError
		if err != nil && !errors.As(err, &te) {
			t.Errorf("%q: %T is no TOMLError", tt.src, err)
		}
	}
	doc, _ := parseTOML("f.toml", []byte("[[p]]\nname = 'a'\n[[p]]\nname = \"b\"\n[p.w]\nu = 1\n"))
	ps := doc.root.get("p").arr
	if len(ps) != 2 || ps[1].get("w").get("u").str != "1" || ps[1].get("name").pos != (finding.Pos{File: "f.toml", Line: 4, Col: 9}) {
		t.Errorf("array of tables read wrong: %+v", ps)
	}
}

func TestPlatformMarkers(t *testing.T) {
	tests := []struct {
		marker, platform string
		want             markerValue
	}{
		{"sys_platform == 'linux'", "linux-64", markerTrue},
		{"sys_platform == 'linux'", "osx-arm64", markerFalse},
		{"platform_system != 'Darwin'", "win-64", markerTrue},
		{"python_full_version < '3.12' and platform_system != 'Darwin'", "linux-64", markerUnknown},
		{"python_full_version < '3.12' and platform_system != 'Darwin'", "osx-64", markerFalse},
		{"(sys_platform == 'linux' and platform_machine == 'aarch64') or sys_platform == 'win32'", "linux-aarch64", markerTrue},
		{"(sys_platform == 'linux' and platform_machine == 'aarch64') or sys_platform == 'win32'", "linux-64", markerFalse},
		{"extra == 'extra-4-proj-cu121'", "linux-64", markerUnknown},
		{"'linux' in sys_platform", "linux-64", markerTrue},
		{"sys_platform not in 'darwin win32'", "win-64", markerFalse},
		{"sys_platform ==", "linux-64", markerUnknown},
		{"((((", "linux-64", markerUnknown},
	}
	for _, tt := range tests {
		if got := evalPlatformMarker(tt.marker, tt.platform); got != tt.want {
			t.Errorf("%q on %s = %d, want %d", tt.marker, tt.platform, got, tt.want)
		}
	}
}

func TestDistFileNames(t *testing.T) {
	tests := []struct{ url, name, version, py string }{
		{"https://h/whl/cu121/torch-2.1.2%2Bcu121-cp311-cp311-linux_x86_64.whl", "torch", "2.1.2+cu121", "3.11"},
		{"torch-2.5.1+cu124-cp312-cp312-win_amd64.whl", "torch", "2.5.1+cu124", "3.12"},
		{"https://h/p/numpy-1.26.4.tar.gz", "numpy", "1.26.4", ""},
		{"https://h/p/typing_extensions-4.12.2-py3-none-any.whl", "typing_extensions", "4.12.2", ""},
		{"https://h/p/cryptography-43.0.0-cp39-abi3-manylinux_2_28_x86_64.whl", "cryptography", "43.0.0", ""},
		{"git+https://h/x.git", "", "", ""},
	}
	for _, tt := range tests {
		n, v, _, _ := distFile(tt.url)
		if n != tt.name || v != tt.version || wheelCPython(tt.url) != tt.py {
			t.Errorf("%s: %q %q %q", tt.url, n, v, wheelCPython(tt.url))
		}
	}
	if got := wheelIndexOf("https://h/whl/cu121/torch-2.1.2%2Bcu121-cp311-cp311-linux_x86_64.whl#sha256=00"); got != "https://h/whl/cu121" {
		t.Errorf("wheelIndexOf = %q", got)
	}
	if !wheelFits("manylinux_2_17_x86_64", "linux-64") || wheelFits("manylinux_2_17_aarch64", "linux-64") ||
		!wheelFits("macosx_10_9_universal2", "osx-arm64") || !wheelFits("win_amd64", "win-64") || wheelFits("linux_x86_64", "osx-64") {
		t.Error("wheelFits")
	}
}

func TestLockItemBudget(t *testing.T) {
	src := "a==1\nb==1\nc==1\nd==1\ne==1\n"
	env := ReadRequirements("requirements.txt", []byte(src), Options{MaxItems: 3})
	if len(env.Pip) != 3 {
		t.Errorf("%d items, want 3", len(env.Pip))
	}
	sameList(t, "budget", diagSummary(env), []string{
		"4:1 EG101 the file holds more than 3 packages: envguard checked the first 3 and read nothing from line 4 on",
	})
	lock := ReadCondaLock("conda-lock.yml", readLockFile(t, "conda-lock.yml"), Options{Platform: "linux-64", MaxItems: 2})
	if len(lock.Deps) != 2 || len(lock.Diags) != 1 || lock.Diags[0].Code != "EG101" {
		t.Errorf("conda-lock over budget: %q %q", depSummary(lock), diagSummary(lock))
	}
}

func TestReadPixiLockFormat7(t *testing.T) {
	// Format 7 (prefix-dev/pixi tests/data): named platforms with a
	// subdir, and packages built from source (conda_source).
	src := `version: 7
platforms:
- name: linux-64-cuda
  subdir: linux-64
  virtual-packages:
  - __cuda=12
environments:
  default:
    channels:
    - url: https://conda.anaconda.org/conda-forge/
    packages:
      linux-64-cuda:
      - conda: https://conda.anaconda.org/conda-forge/noarch/cuda-version-12.6-h7480c83_3.conda
      - conda_source: sdl_example[38d076cf] @ .
packages:
- conda: https://conda.anaconda.org/conda-forge/noarch/cuda-version-12.6-h7480c83_3.conda
- conda_source: sdl_example[38d076cf] @ .
  variants:
    target_platform: linux-64
`
	for _, plat := range []string{"linux-64", "linux-64-cuda", ""} {
		env := ReadPixiLock("pixi.lock", []byte(src), Options{Platform: plat})
		sameList(t, plat+" diags", diagSummary(env), nil)
		sameList(t, plat, depSummary(env), []string{
			"conda cuda-version=12.6=h7480c83_3@conda-forge 13:16",
			"conda sdl_example 14:23",
		})
		if env.Platform != "linux-64" {
			t.Errorf("%q: platform %q, want the subdir linux-64", plat, env.Platform)
		}
	}
}
