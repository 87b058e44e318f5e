package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fakeInstaller writes an installer script into bin that logs its
// arguments to log, prints a line to stdout and one to stderr, and lays the
// template prefix out where the real installer would put the environment.
// extra runs before the exit (an exit status, a wait).
func fakeInstaller(t *testing.T, bin, name, template, log, extra string) {
	t.Helper()
	var lay string
	switch name {
	case "uv":
		// uv venv --python X PREFIX; uv pip install --python PREFIX ...
		lay = `if [ "$1" = venv ]; then eval "prefix=\${$#}"; mkdir -p "$prefix" && cp -R '` + template + `'/. "$prefix"; fi`
	case "pixi":
		// pixi init --import FILE PREFIX; pixi install --all --manifest-path PREFIX/pixi.toml
		lay = `if [ "$1" = init ]; then eval "prefix=\${$#}"; mkdir -p "$prefix" && touch "$prefix/pixi.toml"; fi
if [ "$1" = install ]; then eval "m=\${$#}"; d="$(dirname "$m")/.pixi/envs/default"; mkdir -p "$d" && cp -R '` + template + `'/. "$d"; fi`
	default:
		lay = `prefix=; while [ $# -gt 0 ]; do [ "$1" = --prefix ] && prefix="$2"; shift; done
mkdir -p "$prefix" && cp -R '` + template + `'/. "$prefix"`
	}
	// The script's own tools come from the system; envguard's PATH holds
	// only the fake installers.
	src := "#!/bin/sh\nPATH=\"$PATH:/usr/bin:/bin\"\necho \"" + name + " $*\" >> '" + log + "'\necho \"" + name + ": solving environment\"\necho \"" + name + ": a warning\" >&2\n" +
		extra + "\n" + lay + "\n"
	if err := os.WriteFile(filepath.Join(bin, name), []byte(src), 0o755); err != nil {
		t.Fatal(err)
	}
}

// torchTemplate is what the installers lay out: torch 2.1.2 for CUDA cuda
// from the pytorch channel.
func torchTemplate(t *testing.T, cuda string) string {
	p := newCondaPrefix(t, "3.11")
	p.condaBase("3.11.7")
	p.condaTorch21(cuda)
	return p.dir
}

func readLog(t *testing.T, log string) string {
	b, err := os.ReadFile(log)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

func TestBuildCreate(t *testing.T) {
	fleet := fleetFile(t)
	good := torchTemplate(t, "12.1")
	h100 := []string{"pytorch=2.1", "--targets", fleet, "--target", "h100"}
	tests := []struct {
		name       string
		installers []string // on PATH
		extra      string   // the installers' last words
		template   string
		args       []string
		exit       int
		ran        string   // the log's first word: the installer that ran ("" none)
		log        []string // in the log
		stderr     []string
		stdout     []string
	}{
		{name: "micromamba comes first", installers: []string{"uv", "conda", "mamba", "micromamba"}, args: h100,
			ran: "micromamba", log: []string{"micromamba create --yes --prefix "}, stdout: []string{"verdict    OK"},
			stderr: []string{"micromamba: solving environment", "micromamba: a warning", "envguard: running micromamba create --yes --prefix"}},
		{name: "then mamba", installers: []string{"uv", "conda", "mamba", "pixi"}, args: h100, ran: "mamba", stdout: []string{"verdict    OK"}},
		{name: "then conda, with env create", installers: []string{"uv", "pixi", "conda"}, args: h100,
			ran: "conda", log: []string{"conda env create --prefix "}, stdout: []string{"verdict    OK"}},
		{name: "then pixi, and its workspace's environment is checked", installers: []string{"uv", "pixi"}, args: h100,
			ran: "pixi", log: []string{"pixi init --import ", "pixi install --all --manifest-path "},
			stderr: []string{"/.pixi/envs/default"}, stdout: []string{"verdict    OK"}},
		{name: "--installer names one further down", installers: []string{"micromamba", "conda"},
			args: append([]string{"--installer", "conda"}, h100...), ran: "conda", stdout: []string{"verdict    OK"}},
		{name: "uv installs a --via pip build's pip lines", installers: []string{"uv"},
			args: append([]string{"--via", "pip"}, h100...), ran: "uv",
			log:    []string{"uv venv --python 3.11 ", "uv pip install --python ", " --index-url https://download.pytorch.org/whl/cu121 torch==2.1.2+cu121 torchvision==0.16.2+cu121 torchaudio==2.1.2+cu121"},
			stdout: []string{"verdict    OK"}},
		{name: "uv alone cannot install a conda build", installers: []string{"uv"}, args: h100, exit: 2,
			stderr: []string{"only uv is on PATH", "--via pip"}},
		{name: "--installer uv for a conda build", installers: []string{"uv", "conda"},
			args: append([]string{"--installer", "uv"}, h100...), exit: 2, stderr: []string{"--installer uv installs pip packages only", "--via pip"}},
		{name: "no installer", args: h100, exit: 2,
			stderr: []string{"no installer on PATH; looked for micromamba, mamba, conda, pixi, uv"}},
		{name: "--installer not on PATH", installers: []string{"conda"},
			args: append([]string{"--installer", "mamba"}, h100...), exit: 2, stderr: []string{"--installer mamba: not found on PATH"}},
		{name: "an unknown --installer", installers: []string{"conda"},
			args: append([]string{"--installer", "pip"}, h100...), exit: 2, stderr: []string{`--installer "pip": want one of micromamba, mamba, conda, pixi, uv`}},
		{name: "the installer fails: its status is reported", installers: []string{"micromamba"}, extra: "exit 3", args: h100,
			exit: 1, ran: "micromamba", stderr: []string{"micromamba failed (exit status 3) while running: micromamba create", "may hold a partial environment"}},
		{name: "the post-check fails: a CUDA 12.1 build on a driver-470 V100", installers: []string{"micromamba"},
			template: good, args: []string{"pytorch=2.1", "--targets", fleet, "--target", "v100"},
			exit: 1, ran: "micromamba", stdout: []string{"verdict    STOP", "error   EG401"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bin, log := t.TempDir(), filepath.Join(t.TempDir(), "log")
			tmpl := good
			if tc.template != "" {
				tmpl = tc.template
			}
			for _, n := range tc.installers {
				fakeInstaller(t, bin, n, tmpl, log, tc.extra)
			}
			prefix := filepath.Join(t.TempDir(), "env")
			args := append([]string{"build", "--create", prefix}, tc.args...)
			code, stdout, stderr := runCLI(t, nil, map[string]string{"PATH": bin}, args...)
			if code != tc.exit {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.exit, stdout, stderr)
			}
			got := readLog(t, log)
			if first, _, _ := strings.Cut(got, " "); first != tc.ran {
				t.Errorf("ran %q, want %q; log:\n%s", first, tc.ran, got)
			}
			for _, w := range tc.log {
				if !strings.Contains(got, w) {
					t.Errorf("log lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tc.stderr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			for _, w := range tc.stdout {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
			if strings.Contains(stdout, "dependencies:") {
				t.Errorf("--create printed the file on stdout:\n%s", stdout)
			}
		})
	}
}

func TestBuildCreateRefusesExistingPrefix(t *testing.T) {
	fleet := fleetFile(t)
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "log")
	fakeInstaller(t, bin, "micromamba", torchTemplate(t, "12.1"), log, "")
	prefix := t.TempDir()
	keep := filepath.Join(prefix, "train.py")
	if err := os.WriteFile(keep, []byte("print(1)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{prefix, file} {
		code, _, stderr := runCLI(t, nil, map[string]string{"PATH": bin},
			"build", "pytorch=2.1", "--targets", fleet, "--target", "h100", "--create", p)
		if code != 2 || !strings.Contains(stderr, "--create "+p+": ") {
			t.Errorf("%s: exit %d, stderr %q; want 2 naming it", p, code, stderr)
		}
	}
	if got := readLog(t, log); got != "" {
		t.Errorf("the installer ran for a prefix that was refused: %s", got)
	}
	ents, _ := os.ReadDir(prefix)
	if b, err := os.ReadFile(keep); err != nil || string(b) != "print(1)\n" || len(ents) != 1 {
		t.Errorf("the existing prefix changed: %v %q %d entries", err, b, len(ents))
	}
	// An empty directory is a prefix to build into.
	empty := t.TempDir()
	code, _, stderr := runCLI(t, nil, map[string]string{"PATH": bin},
		"build", "pytorch=2.1", "--targets", fleet, "--target", "h100", "--create", empty)
	if code != 0 {
		t.Errorf("an empty prefix: exit %d\n%s", code, stderr)
	}
	code, _, stderr = runCLI(t, nil, map[string]string{"PATH": bin},
		"build", "pytorch=2.1", "--targets", fleet, "--target", "h100", "--installer", "conda")
	if code != 2 || !strings.Contains(stderr, "add --create") {
		t.Errorf("--installer without --create: exit %d, %q", code, stderr)
	}
}

// signalWriter closes seen the first time what it is written holds want.
type signalWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

// The installer's output reaches the user while it runs, not when it ends:
// the fake installer waits, after its first line, for a file the test
// writes only once that line has arrived.
func TestBuildCreateStreams(t *testing.T) {
	fleet := fleetFile(t)
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "log")
	gate := filepath.Join(t.TempDir(), "gate")
	wait := "i=0; while [ ! -e '" + gate + "' ]; do i=$((i+1)); [ $i -gt 3000 ] && { echo 'never released' >&2; exit 9; }; sleep 0.1; done"
	fakeInstaller(t, bin, "micromamba", torchTemplate(t, "12.1"), log, wait)
	w := &signalWriter{want: "micromamba: a warning", seen: make(chan struct{})}
	go func() {
		<-w.seen
		_ = os.WriteFile(gate, nil, 0o644)
	}()
	var out bytes.Buffer
	vars := map[string]string{"PATH": bin}
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: w,
		getenv:     func(k string) string { return vars[k] },
		lookupEnv:  func(k string) (string, bool) { v, ok := vars[k]; return v, ok },
		configFile: emptyConfig(t)}
	code := run([]string{"build", "pytorch=2.1", "--targets", fleet, "--target", "h100",
		"--create", filepath.Join(t.TempDir(), "env")}, e)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), w.buf.String())
	}
}
