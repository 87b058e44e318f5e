package packaging

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// The docs and the action install envguard with
// `go install github.com/envguard/envguard/cmd/envguard@VERSION`, which
// fetches from the Go module proxy. The tests run those very commands
// against a proxy on disk that serves this checkout's HEAD as a version,
// in front of the local module cache's download directory (itself in the
// proxy layout) for the dependencies, so nothing is fetched.

var proxy struct {
	once    sync.Once
	dir     string // the GOPROXY directory
	version string
	modPath string
	err     error
}

// localProxy returns the version the proxy serves and the environment that
// makes `go install …@version` use it.
func localProxy(t *testing.T) (string, []string) {
	t.Helper()
	proxy.once.Do(func() { proxy.err = buildProxy() })
	if proxy.err != nil {
		t.Fatalf("local module proxy: %v", proxy.err)
	}
	modCache := goEnv("GOMODCACHE")
	return proxy.version, []string{
		"GOPROXY=file://" + filepath.Join(proxy.dir, "proxy") + ",file://" + filepath.Join(modCache, "cache", "download"),
		// The version exists only here, so no checksum database knows it.
		"GOSUMDB=off",
		"GOTOOLCHAIN=local",
		// Writable, so that removeProxyVersion can delete it again.
		"GOFLAGS=-modcacherw",
	}
}

func goEnv(name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func buildProxy() error {
	head, err := exec.Command("git", "-C", root, "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return fmt.Errorf("git rev-parse HEAD in %s: %v", root, err)
	}
	modFile, err := exec.Command("git", "-C", root, "show", "HEAD:go.mod").Output()
	if err != nil {
		return err
	}
	when, err := exec.Command("git", "-C", root, "show", "-s", "--format=%cI", "HEAD").Output()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "envguard-proxy-")
	if err != nil {
		return err
	}
	proxy.dir = dir
	proxy.modPath = strings.Fields(strings.SplitN(string(modFile), "\n", 2)[0])[1]
	// A prerelease of v0.0.0 named after the commit: it never collides
	// with a real release, and a new commit gets a new version.
	proxy.version = "v0.0.0-test.g" + strings.TrimSpace(string(head))
	at := filepath.Join(dir, "proxy", filepath.FromSlash(proxy.modPath), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return err
	}
	z, err := os.Create(filepath.Join(at, proxy.version+".zip"))
	if err != nil {
		return err
	}
	// What `git archive HEAD` holds, as the go command zips a tagged commit
	// (zip.CreateFromVCS does not know a worktree's .git file).
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return err
	}
	archive := exec.Command("sh", "-c", `git -C "$1" archive --format=tar HEAD | tar -x -C "$2"`, "sh", root, src)
	if out, err := archive.CombinedOutput(); err != nil {
		return fmt.Errorf("git archive HEAD: %v\n%s", err, out)
	}
	err = zip.CreateFromDir(z, module.Version{Path: proxy.modPath, Version: proxy.version}, src)
	if cerr := z.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	info, _ := json.Marshal(map[string]string{"Version": proxy.version, "Time": strings.TrimSpace(string(when))})
	for name, content := range map[string][]byte{
		proxy.version + ".info": info,
		proxy.version + ".mod":  modFile,
		"list":                  []byte(proxy.version + "\n"),
	} {
		if err := os.WriteFile(filepath.Join(at, name), content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// removeProxyVersion deletes the proxy and what installing from it left in
// the module cache, so that test versions do not pile up there.
func removeProxyVersion() {
	if proxy.dir == "" {
		return
	}
	os.RemoveAll(proxy.dir)
	modCache := goEnv("GOMODCACHE")
	if modCache == "" || proxy.version == "" {
		return
	}
	os.RemoveAll(filepath.Join(modCache, filepath.FromSlash(proxy.modPath)+"@"+proxy.version))
	at := filepath.Join(modCache, "cache", "download", filepath.FromSlash(proxy.modPath), "@v")
	matches, _ := filepath.Glob(filepath.Join(at, proxy.version+".*"))
	for _, m := range matches {
		os.Remove(m)
	}
	// The go command lists what it fetched; a list of test versions alone
	// goes too, with the folders it leaves empty.
	if b, err := os.ReadFile(filepath.Join(at, "list")); err == nil {
		onlyTests := true
		for _, l := range strings.Fields(string(b)) {
			onlyTests = onlyTests && strings.HasPrefix(l, "v0.0.0-test.")
		}
		if onlyTests {
			os.Remove(filepath.Join(at, "list"))
		}
	}
	for d := at; strings.HasPrefix(d, filepath.Join(modCache, "cache", "download")+string(filepath.Separator)); d = filepath.Dir(d) {
		if os.Remove(d) != nil {
			break
		}
	}
	os.Remove(filepath.Join(modCache, filepath.Dir(filepath.FromSlash(proxy.modPath))))
}

// installEnv is the environment of a command that installs envguard from
// the local proxy into gobin and then runs it from there.
func installEnv(t *testing.T, gobin string) (string, []string) {
	t.Helper()
	version, env := localProxy(t)
	return version, append(env, "GOBIN="+gobin, "CGO_CFLAGS=-Wno-deprecated-declarations",
		"PATH="+gobin+string(os.PathListSeparator)+pathWithEnvguard())
}

// TestInstallFromProxy runs the README's and docs/ci.md's install command,
// at the proxy's version, into an empty GOBIN, and runs what it installed.
func TestInstallFromProxy(t *testing.T) {
	version, env := localProxy(t)
	gobin := t.TempDir()
	cmd := exec.Command("go", "install", proxy.modPath+"/cmd/envguard@"+version)
	cmd.Dir = t.TempDir()
	cmd.Env = append(append(os.Environ(), env...), "GOBIN="+gobin, "CGO_CFLAGS=-Wno-deprecated-declarations")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go install …@%s: %v\n%s", version, err, out)
	}
	out, err := exec.Command(filepath.Join(gobin, "envguard"), "--version").Output()
	if err != nil || !strings.Contains(string(out), "envguard") {
		t.Errorf("the installed envguard --version: %q, %v", out, err)
	}
}
