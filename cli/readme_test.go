package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMEExample keeps the README's 30-second example true: the output it
// shows is what `envguard validate` prints for the demo file today.
func TestREADMEExample(t *testing.T) {
	root := filepath.Join("..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	const cmd = "$ ./bin/envguard validate testdata/demo/environment.yml\n"
	s := string(readme)
	i := strings.Index(s, cmd)
	j := strings.Index(s, "$ echo $?")
	if i < 0 || j < i {
		t.Fatal("README.md lost its validate example")
	}
	shown := s[i+len(cmd) : j]

	t.Chdir(root)
	var out, errOut bytes.Buffer
	code := Main([]string{"validate", "testdata/demo/environment.yml"}, strings.NewReader(""), &out, &errOut)
	if code != ExitFindings {
		t.Errorf("exit %d, the README says 1", code)
	}
	if out.String() != shown {
		t.Errorf("README.md shows an output validate no longer prints; update it.\n--- README ---\n%s--- now ---\n%s", shown, out.String())
	}
}

// A newcomer's first `go run` compiles for minutes and prints nothing:
// README must say so before its first command, or it looks hung (issue 27).
func TestREADMEWarnsOfFirstBuild(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	note := strings.Index(s, "The first `go run` or `go build` compiles")
	second := strings.Index(s, "curl -s --data-binary")
	if note < 0 || second < 0 || note > second || !strings.Contains(s[note:second], "a minute or two") {
		t.Error("README.md no longer says, right after its first command, that the first build takes a minute or two")
	}
}
