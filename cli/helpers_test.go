package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// egRun runs envguard in-process and returns its exit code and streams.
func egRun(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// write puts a file in a fresh temporary directory and returns its path.
func egWrite(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
