package cli

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeFlagValues: a value that would disable a limit is a usage error,
// said before anything listens.
func TestServeFlagValues(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-body", "-5"}, "--max-body -5: want a positive number of bytes"},
		{[]string{"--max-body", "0"}, "--max-body 0"},
		{[]string{"--request-timeout", "0s"}, "--request-timeout 0s: want a positive duration"},
		{[]string{"--max-concurrent", "0"}, "--max-concurrent 0: want at least 1"},
		{[]string{"--client-share", "0"}, "--client-share 0: want at least 1"},
		{[]string{"--client-share", "-2"}, "--client-share -2: want at least 1"},
		{[]string{"--shutdown-grace", "-1s"}, "--shutdown-grace -1s"},
	} {
		code, _, errs := egRun(t, "", append([]string{"serve", "--addr", "127.0.0.1:0"}, tt.args...)...)
		if code != ExitUsage || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want %d and %q", tt.args, code, errs, ExitUsage, tt.want)
		}
	}
}

// TestShutdownOnSignals: the first signal starts a graceful shutdown; a
// second one during the grace exits at once with ExitShutdown.
func TestShutdownOnSignals(t *testing.T) {
	sigs := make(chan os.Signal, 2)
	exited := make(chan int, 1)
	var logs bytes.Buffer
	ctx := shutdownOnSignals(context.Background(), sigs, slog.New(slog.NewTextHandler(&logs, nil)), func(code int) { exited <- code })
	sigs <- syscall.SIGTERM
	select {
	case <-ctx.Done():
	case <-time.After(30 * time.Second): // a guard against a hang, not a speed bound
		t.Fatal("the first signal did not start the shutdown")
	}
	select {
	case code := <-exited:
		t.Fatalf("exited (%d) on the first signal", code)
	case <-time.After(20 * time.Millisecond):
	}
	sigs <- os.Interrupt
	select {
	case code := <-exited:
		if code != ExitShutdown || code == ExitUsage {
			t.Errorf("second signal: exit %d, want %d", code, ExitShutdown)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the second signal did not exit")
	}
	if !strings.Contains(logs.String(), "second signal") {
		t.Errorf("no log line for the second signal: %q", logs.String())
	}
}

// TestTermSafe: control bytes from a prefix's files are shown escaped.
func TestTermSafe(t *testing.T) {
	var b bytes.Buffer
	_, _ = termSafe{&b}.Write([]byte("torch\x1b]0;owned\x07 2.1\u009b\tok\xff\n"))
	if got, want := b.String(), "torch\\x1b]0;owned\\x07 2.1\\x9b\tok\\xff\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestCheckNotesUnreadableRecords: a conda-meta record that cannot be read
// is named in a note, not skipped silently.
func TestCheckNotesUnreadableRecords(t *testing.T) {
	p := newCondaPrefix(t, "3.10")
	p.condaBase("3.10.13")
	bad := filepath.Join(p.dir, "conda-meta", "broken-1.0-0.json")
	if err := os.WriteFile(bad, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, fakeH100, map[string]string{"CONDA_PREFIX": p.dir}, "check")
	if code != ExitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "note    conda-meta record "+bad+" left out") {
		t.Errorf("no note for the broken record:\n%s", out)
	}
}
