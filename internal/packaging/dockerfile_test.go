package packaging

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	"github.com/moby/buildkit/frontend/dockerfile/parser"
)

// No Docker engine runs where these tests run: the Dockerfile is read with
// BuildKit's own parser (the one `docker build` uses), and what can be run
// without an engine is run: its build command, its CMD, its HEALTHCHECK.

type dockerfile struct {
	stages []instructions.Stage
	args   map[string]string // the ARG defaults before the first FROM
}

func readDockerfile(t *testing.T) dockerfile {
	t.Helper()
	res, err := parser.Parse(bytes.NewReader(readRoot(t, "Dockerfile")))
	if err != nil {
		t.Fatalf("Dockerfile: %v", err)
	}
	for _, w := range res.Warnings {
		t.Errorf("Dockerfile:%d: %s", w.Location.Start.Line, w.Short)
	}
	stages, metaArgs, err := instructions.Parse(res.AST, nil)
	if err != nil {
		t.Fatalf("Dockerfile: %v", err)
	}
	d := dockerfile{stages: stages, args: map[string]string{}}
	for _, a := range metaArgs {
		for _, kv := range a.Args {
			d.args[kv.Key] = kv.ValueString()
		}
	}
	if len(stages) < 2 {
		t.Fatalf("Dockerfile has %d stages; want a build stage and a small runtime stage", len(stages))
	}
	return d
}

// base is a stage's FROM image with the ARG defaults put in.
func (d dockerfile) base(s instructions.Stage) string {
	return os.Expand(s.BaseName, func(k string) string { return d.args[k] })
}

func commands[T instructions.Command](s instructions.Stage) []T {
	var out []T
	for _, c := range s.Commands {
		if v, ok := c.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// TestDockerfileGo: the builder's Go is go.mod's release line, never
// older than go.mod's go directive, and its Debian release is the runtime
// base's (a cgo binary needs the glibc it was linked against).
func TestDockerfileGo(t *testing.T) {
	d := readDockerfile(t)
	build := d.stages[0]
	m := regexp.MustCompile(`^golang:(\d+\.\d+(?:\.\d+)?)-(\w+)$`).FindStringSubmatch(d.base(build))
	if m == nil {
		t.Fatalf("the build stage is FROM %q; want golang:VERSION-DEBIAN", d.base(build))
	}
	image, codename := m[1], m[2]
	mod := goDirective(t)
	if minor(image) != minor(mod) {
		t.Errorf("the builder has Go %s, go.mod says go %s", image, mod)
	}
	if strings.Count(image, ".") == 2 && compareVersions(image, mod) < 0 {
		t.Errorf("the builder's Go %s is older than go.mod's %s", image, mod)
	}
	debian := map[string]string{"bookworm": "12", "trixie": "13", "forky": "14"}[codename]
	runtime := d.base(d.stages[len(d.stages)-1])
	if debian == "" || !strings.Contains(runtime, "-debian"+debian+":") {
		t.Errorf("the builder is Debian %s (%s), the runtime is %s", debian, codename, runtime)
	}
	if !strings.HasPrefix(runtime, "gcr.io/distroless/") {
		t.Errorf("the runtime base %s is not a distroless image", runtime)
	}
}

func goDirective(t *testing.T) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^go (\d+\.\d+(?:\.\d+)?)$`).FindStringSubmatch(string(readRoot(t, "go.mod")))
	if m == nil {
		t.Fatal("go.mod has no go directive")
	}
	return m[1]
}

func minor(v string) string {
	p := strings.SplitN(v, ".", 3)
	return p[0] + "." + p[1]
}

func compareVersions(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			return x - y
		}
	}
	return 0
}

// TestDockerfileRuntime: the image runs envguard as a non-root user given
// by number, with ENTRYPOINT ["envguard"], a serve CMD on 0.0.0.0 with a
// token file, a HEALTHCHECK on /healthz and only NVML's driver capability.
func TestDockerfileRuntime(t *testing.T) {
	d := readDockerfile(t)
	final := d.stages[len(d.stages)-1]

	users := commands[*instructions.UserCommand](final)
	if len(users) == 0 {
		t.Fatal("the runtime stage sets no USER: the image would run as root")
	}
	user := users[len(users)-1].User
	uid, _, _ := strings.Cut(user, ":")
	if n, err := strconv.Atoi(uid); err != nil || n == 0 {
		t.Errorf("USER %s: want a non-zero numeric uid (runAsNonRoot checks numbers)", user)
	}

	eps := commands[*instructions.EntrypointCommand](final)
	if len(eps) != 1 || eps[0].PrependShell || strings.Join(eps[0].CmdLine, " ") != "envguard" {
		t.Errorf(`want one ENTRYPOINT ["envguard"] in exec form`)
	}
	cmds := commands[*instructions.CmdCommand](final)
	if len(cmds) != 1 || cmds[0].PrependShell {
		t.Fatal("want one CMD in exec form")
	}
	cmd := cmds[0].CmdLine
	if len(cmd) == 0 || cmd[0] != "serve" || flagValue(cmd, "--addr") != "0.0.0.0:8080" || flagValue(cmd, "--token-file") == "" {
		t.Errorf("CMD %q: want serve --addr 0.0.0.0:8080 --token-file FILE", cmd)
	}

	hcs := commands[*instructions.HealthCheckCommand](final)
	if len(hcs) != 1 || len(hcs[0].Health.Test) < 3 || hcs[0].Health.Test[0] != "CMD" ||
		hcs[0].Health.Test[1] != "envguard" || hcs[0].Health.Test[2] != "health" {
		t.Fatalf("want HEALTHCHECK CMD [\"envguard\", \"health\", …]")
	}
	_, servePort, _ := net.SplitHostPort(flagValue(cmd, "--addr"))
	if _, port, _ := net.SplitHostPort(flagValue(hcs[0].Health.Test, "--addr")); port != servePort {
		t.Errorf("the health check asks port %s, serve listens on %s", port, servePort)
	}
	exposed := false
	for _, e := range commands[*instructions.ExposeCommand](final) {
		for _, p := range e.Ports {
			exposed = exposed || strings.TrimSuffix(p, "/tcp") == servePort
		}
	}
	if !exposed {
		t.Errorf("port %s is not EXPOSEd", servePort)
	}

	env := map[string]string{}
	for _, e := range commands[*instructions.EnvCommand](final) {
		for _, kv := range e.Env {
			env[kv.Key] = kv.Value
		}
	}
	if env["NVIDIA_DRIVER_CAPABILITIES"] != "utility" {
		t.Errorf("NVIDIA_DRIVER_CAPABILITIES = %q; envguard needs NVML alone: utility", env["NVIDIA_DRIVER_CAPABILITIES"])
	}

	copied := false
	for _, c := range commands[*instructions.CopyCommand](final) {
		copied = copied || c.From == d.stages[0].Name && c.DestPath == "/usr/local/bin/envguard"
	}
	if !copied {
		t.Errorf("the runtime stage does not copy envguard from %s to /usr/local/bin (on distroless's PATH)", d.stages[0].Name)
	}
}

// commandsCmd returns a stage's CMD in exec form.
func commandsCmd(s instructions.Stage) []string {
	cmds := commands[*instructions.CmdCommand](s)
	if len(cmds) == 0 {
		return nil
	}
	return cmds[len(cmds)-1].CmdLine
}

// commandsOf returns the runtime stage's last USER.
func commandsOf(d dockerfile) string {
	users := commands[*instructions.UserCommand](d.stages[len(d.stages)-1])
	if len(users) == 0 {
		return ""
	}
	return users[len(users)-1].User
}

func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	return ""
}

// TestDockerfileBuildCommand runs the build stage's go build (its ENV, its
// -ldflags with a VERSION; less -trimpath), writing to a temporary file, and
// checks that the binary reports the version: a wrong -X path would leave
// the default silently.
func TestDockerfileBuildCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds envguard")
	}
	d := readDockerfile(t)
	build := d.stages[0]
	var script string
	for _, r := range commands[*instructions.RunCommand](build) {
		if strings.Contains(strings.Join(r.CmdLine, " "), "go build") {
			script = strings.Join(r.CmdLine, " ")
		}
	}
	if script == "" {
		t.Fatal("the build stage has no go build")
	}
	out := filepath.Join(t.TempDir(), "envguard")
	script = strings.Replace(script, "-o /out/envguard", "-o "+out, 1)
	// -trimpath changes every package's build ID, so that with it this one
	// command recompiles the module and its dependencies (minutes on a busy
	// machine); it changes recorded paths, not what is linked, so the test
	// builds without it and keeps the cache.
	script = strings.Replace(script, " -trimpath", "", 1)
	if !strings.Contains(script, out) || !strings.Contains(script, "./cmd/envguard") {
		t.Fatalf("go build does not write /out/envguard from ./cmd/envguard: %s", script)
	}
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "VERSION=v9.9.9-test")
	for _, e := range commands[*instructions.EnvCommand](build) {
		for _, kv := range e.Env {
			cmd.Env = append(cmd.Env, kv.Key+"="+kv.Value)
		}
	}
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, b)
	}
	v, err := exec.Command(out, "--version").Output()
	if err != nil || !strings.Contains(string(v), "v9.9.9-test") {
		t.Errorf("the image's envguard --version says %q (%v); want v9.9.9-test", v, err)
	}
}

// TestDockerfileServeAndHealth runs the image's CMD with the test's envguard
// (the address moved to a free loopback port, the token file to a
// temporary one) and its HEALTHCHECK against it, as the engine would.
func TestDockerfileServeAndHealth(t *testing.T) {
	d := readDockerfile(t)
	final := d.stages[len(d.stages)-1]
	cmdLine := commands[*instructions.CmdCommand](final)[0].CmdLine
	health := commands[*instructions.HealthCheckCommand](final)[0].Health

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	token := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(token, []byte("s3cret-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	args := replaceFlag(replaceFlag(cmdLine, "--addr", fmt.Sprintf("127.0.0.1:%d", port)), "--token-file", token)
	serve := commandOnPath("envguard", args...)
	var serveLog bytes.Buffer
	serve.Stdout, serve.Stderr = &serveLog, &serveLog
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = serve.Process.Kill()
		_ = serve.Wait()
	}()

	probe := replaceFlag(health.Test[1:], "--addr", fmt.Sprintf("127.0.0.1:%d", port))
	deadline := time.Now().Add(60 * time.Second) // a guard against a hang, not a speed bound
	for {
		hc := commandOnPath(probe[0], probe[1:]...)
		out, err := hc.CombinedOutput()
		if err == nil && strings.Contains(string(out), "healthy") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the HEALTHCHECK never passed: %v\n%s\nserve:\n%s", err, out, serveLog.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	// With serve gone, the same check reports unhealthy (exit 1).
	_ = serve.Process.Kill()
	_ = serve.Wait()
	hc := commandOnPath(probe[0], probe[1:]...)
	if code := exitCode(t, hc); code != 1 {
		t.Errorf("HEALTHCHECK with nothing listening: exit %d, want 1", code)
	}
}

func replaceFlag(args []string, name, value string) []string {
	out := append([]string(nil), args...)
	for i, a := range out {
		if a == name && i+1 < len(out) {
			out[i+1] = value
		}
	}
	return out
}
