package lockfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
)

// checkLockEnv is what every reader promises: an Env, findings that are
// EG1xx codes at positions that are not negative (and not from a
// recovered panic), and items with a line.
func checkLockEnv(t *testing.T, env *envspec.Env) {
	t.Helper()
	if env == nil {
		t.Fatal("nil env")
	}
	for _, d := range env.Diags {
		if d.Pos.Line < 0 || d.Pos.Col < 0 {
			t.Fatalf("negative position: %s", d.Error())
		}
		if d.EndCol != 0 && d.EndCol <= d.Pos.Col {
			t.Fatalf("EndCol %d not past column: %s", d.EndCol, d.Error())
		}
		if !strings.HasPrefix(d.Code, "EG1") || len(d.Code) != 5 {
			t.Fatalf("non-EG1xx code: %s", d.Error())
		}
		if strings.Contains(d.Message, "internal error") {
			t.Fatalf("recovered panic: %s", d.Error())
		}
	}
	for _, d := range env.Deps {
		if d.Raw.Pos.Line < 1 {
			t.Fatalf("conda item without a line: %+v", d.Raw)
		}
	}
	for _, d := range env.Pip {
		if d.Raw.Pos.Line < 1 {
			t.Fatalf("pip item without a line: %+v", d.Raw)
		}
	}
}

func addLockSeeds(f *testing.F, names ...string) {
	for _, n := range names {
		if b, err := os.ReadFile(filepath.Join(lockDir, n)); err == nil {
			f.Add(b, "linux-64")
			f.Add(b, "osx-arm64")
		}
	}
}

func FuzzReadCondaLock(f *testing.F) {
	addLockSeeds(f, "conda-lock.yml")
	f.Add([]byte("version: 1\npackage:\n- {name: a, manager: pip, platform: linux-64, url: 'x-1-py3-none-any.whl'}\n"), "")
	f.Fuzz(func(t *testing.T, src []byte, platform string) {
		checkLockEnv(t, ReadCondaLock("conda-lock.yml", src, Options{Platform: platform}))
	})
}

func FuzzReadPixiLock(f *testing.F) {
	addLockSeeds(f, "pixi.lock")
	f.Add([]byte("version: 6\nenvironments:\n  default:\n    packages:\n      linux-64:\n      - pypi: ./x\npackages:\n- pypi: ./x\n  name: x\n"), "linux-64")
	f.Fuzz(func(t *testing.T, src []byte, platform string) {
		checkLockEnv(t, ReadPixiLock("pixi.lock", src, Options{Platform: platform}))
	})
}

func FuzzReadPixiManifest(f *testing.F) {
	addLockSeeds(f, "pixi.toml")
	f.Add([]byte("[tool.pixi.workspace]\nplatforms=['linux-64']\n[tool.pixi.target.unix.pypi-dependencies]\nx = { git = 'u', rev = 'r' }\n"), "linux-64")
	f.Fuzz(func(t *testing.T, src []byte, platform string) {
		checkLockEnv(t, ReadPixiManifest("pixi.toml", src, Options{Platform: platform}))
		_, _ = PixiSystemRequirements("pixi.toml", src)
	})
}

func FuzzReadUVLock(f *testing.F) {
	addLockSeeds(f, "uv.lock")
	f.Add([]byte("version = 1\n[[package]]\nname = 'a'\nresolution-markers = [\"(sys_platform == 'linux'\"]\nwheels = [{ url = '-.whl' }]\n"), "linux-64")
	f.Fuzz(func(t *testing.T, src []byte, platform string) {
		checkLockEnv(t, ReadUVLock("uv.lock", src, Options{Platform: platform}))
	})
}

func FuzzReadPylock(f *testing.F) {
	addLockSeeds(f, "pylock.toml")
	f.Add([]byte("lock-version = '1.0'\n[[packages]]\nname = 'a'\n[packages.vcs]\nurl = 'git+x'\n"), "win-64")
	f.Fuzz(func(t *testing.T, src []byte, platform string) {
		checkLockEnv(t, ReadPylock("pylock.toml", src, Options{Platform: platform}))
	})
}

func FuzzReadRequirements(f *testing.F) {
	addLockSeeds(f, "requirements.txt", "requirements-dev.txt")
	f.Add([]byte("a \\\n\\\n  ==1 # c\n-r x.txt\n-r y.txt\n"), "linux-64")
	// Includes resolve to the file itself and to one other: cycles and
	// reading errors are findings too.
	f.Fuzz(func(t *testing.T, src []byte, platform string) {
		read := func(name string) ([]byte, error) {
			if strings.HasSuffix(name, "x.txt") {
				return src, nil
			}
			return []byte("-r x.txt\nb==1\n"), nil
		}
		checkLockEnv(t, ReadRequirements("r.txt", src, Options{Platform: platform, ReadFile: read}))
	})
}

// FuzzRead: whatever the name says, Read gives an Env and never panics.
func FuzzRead(f *testing.F) {
	for _, n := range []string{"conda-lock.yml", "pixi.lock", "pixi.toml", "uv.lock", "pylock.toml", "requirements.txt", "environment.yml"} {
		if b, err := os.ReadFile(filepath.Join(lockDir, n)); err == nil {
			f.Add(n, b)
			f.Add("-", b)
		}
	}
	f.Fuzz(func(t *testing.T, name string, src []byte) {
		env := Read(name, src, Options{Platform: "linux-64"})
		if env == nil {
			t.Fatal("nil env")
		}
		for _, d := range env.Diags {
			if strings.Contains(d.Message, "internal error") {
				t.Fatalf("recovered panic: %s", d.Error())
			}
		}
	})
}

// FuzzReadExplicit: ReadExplicitMax never panics and fills what it claims.
func FuzzReadExplicit(f *testing.F) {
	f.Add([]byte(explicitSample))
	f.Add([]byte("@EXPLICIT\nhttps://x/y/z-1-2.conda\nnot a url\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		env := readExplicit("e.txt", src)
		for _, d := range env.Deps {
			if d.Installed == nil || d.Spec == nil || d.Installed.Name == "" {
				t.Fatalf("incomplete dep %+v", d)
			}
		}
	})
}
