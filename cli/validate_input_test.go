//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// validate reads regular files and standard input only, each up to
// --max-size: /dev/zero, a link to it, - fed from it, a FIFO and a file
// over the limit are usage errors (exit 2) with a clear message, at once
// (issue 11: /dev/zero grew to 24 GB, a FIFO blocked forever).
func TestValidateInputsThatAreNotFiles(t *testing.T) {
	dir := t.TempDir()
	zeroLink := filepath.Join(dir, "environment.yml")
	if err := os.Symlink("/dev/zero", zeroLink); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.yml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	big := egWrite(t, "big.yml", "dependencies:\n"+strings.Repeat("  - numpy\n", 200))
	ok := egWrite(t, "ok.yml", "channels: [conda-forge]\ndependencies:\n  - numpy\n")
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip("no /dev/zero")
	}
	defer zero.Close()
	for _, tt := range []struct {
		name  string
		args  []string
		stdin *os.File
		code  int
		says  string
	}{
		{"/dev/zero", []string{"validate", "/dev/zero"}, nil, 2, "not a regular file"},
		{"a link to /dev/zero", []string{"validate", zeroLink}, nil, 2, "not a regular file"},
		{"a FIFO", []string{"validate", fifo}, nil, 2, "not a regular file"},
		{"- fed from /dev/zero", []string{"validate", "--max-size", "4096", "-"}, zero, 2, "standard input is larger than the limit of 4096 bytes"},
		{"a file over --max-size", []string{"validate", "--max-size", "1000", big}, nil, 2, "over the limit of 1000"},
		{"a bad --max-size", []string{"validate", "--max-size", "-5", ok}, nil, 2, "--max-size -5"},
		{"a regular file within the limit", []string{"validate", ok}, nil, 0, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan struct{})
			var code int
			var stderr string
			go func() {
				defer close(done)
				if tt.stdin == nil {
					code, _, stderr = egRun(t, "", tt.args...)
					return
				}
				code, _, stderr = egRunReader(t, tt.stdin, tt.args...)
			}()
			select {
			case <-done:
			case <-time.After(60 * time.Second): // a guard against a hang
				t.Fatal("validate did not return")
			}
			if code != tt.code || !strings.Contains(stderr, tt.says) {
				t.Errorf("exit %d, want %d; stderr %q does not say %q", code, tt.code, stderr, tt.says)
			}
		})
	}
}

// egRunReader is egRun with a reader (a file) as standard input.
func egRunReader(t *testing.T, stdin *os.File, args ...string) (int, string, string) {
	t.Helper()
	var out, errb strings.Builder
	code := Main(args, stdin, &out, &errb)
	return code, out.String(), errb.String()
}

// A requirements include that is not a regular file is not followed into
// the device: validate ends.
func TestRequirementsIncludeOfADevice(t *testing.T) {
	dir := t.TempDir()
	req := filepath.Join(dir, "requirements.txt")
	if err := os.WriteFile(req, []byte("-r /dev/zero\nnumpy==1.26.4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan int, 1)
	go func() {
		code, _, _ := egRun(t, "", "validate", req)
		done <- code
	}()
	select {
	case code := <-done:
		if code == 3 {
			t.Errorf("internal error")
		}
	case <-time.After(60 * time.Second): // a guard against a hang
		t.Fatal("validate read /dev/zero through an include")
	}
}
