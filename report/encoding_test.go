package report

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf16"
)

// A UTF-16 file with a byte-order mark is judged as its UTF-8 twin is; a
// binary file is one EG100 that says what it is.
func TestValidateEncodings(t *testing.T) {
	src := "name: x\nchannels: [conda-forge]\ndependencies:\n  - pytorch=2.1.0\n  - pytorch-cuda=11.8\n  - cudatoolkit=11.3\n"
	want := Validate("env.yml", []byte(src), Options{Platform: "linux-64"})
	if want.Summary.Errors == 0 {
		t.Fatalf("the UTF-8 file should have errors: %s", want.JSON())
	}
	le := []byte{0xff, 0xfe}
	for _, u := range utf16.Encode([]rune(src)) {
		le = append(le, byte(u), byte(u>>8))
	}
	got := Validate("env.yml", le, Options{Platform: "linux-64"})
	if !bytes.Equal(got.JSON(), want.JSON()) {
		t.Errorf("UTF-16LE with BOM:\n%s\nwant the UTF-8 report:\n%s", got.JSON(), want.JSON())
	}
	bin := Validate("env.yml", []byte("\x7fELF\x02\x01\x01\x00"), Options{Platform: "linux-64"})
	if len(bin.Findings) != 1 || bin.Findings[0].Code != "EG100" || !strings.Contains(bin.Findings[0].Message, "ELF binary") {
		t.Errorf("ELF file: %s", bin.JSON())
	}
}

// Text output quotes the input; escape sequences in it are shown escaped,
// never passed to the terminal.
func TestWriteTextEscapesControlBytes(t *testing.T) {
	src := "name: \"x\x1b]0;owned\x07\"\nchannels: [conda-forge]\ndependency:\n  - numpy \x1b[2J\n"
	var b strings.Builder
	if err := Validate("env.yml", []byte(src), Options{Platform: "linux-64"}).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Fatalf("control bytes reached the output:\n%q", out)
	}
	if !strings.Contains(out, `\x1b`) {
		t.Errorf("the escape is not shown as \\x1b:\n%s", out)
	}
	if got := TermEscape("a\tb\nc\x7f\xc2\x9b\xff"); got != "a\tb\nc\\x7f\\x9b\\xff" {
		t.Errorf("TermEscape = %q", got)
	}
}

// An installed environment has no lines to carry an ignore comment: its
// hints point at .envguard.yml instead.
func TestPrefixHintsSuggestNoIgnoreComment(t *testing.T) {
	for _, h := range []string{
		"move jupyter (line 3) to a separate development environment, or silence it with `# envguard: ignore EG505` if the environment is meant for notebooks",
		"the knowledge base covers pytorch 1.0 … 2.9: pin a covered release to get the CUDA, Python and companion checks, or silence this line with `# envguard: ignore EG206`",
	} {
		got := prefixHint(h, "EG505")
		if strings.Contains(got, "# envguard: ignore") || !strings.Contains(got, "rules: {EG505: off}") {
			t.Errorf("prefixHint(%q) = %q", h, got)
		}
	}
	if got := prefixHint("use cudatoolkit=11.6", "EG201"); got != "use cudatoolkit=11.6" {
		t.Errorf("a hint without an ignore comment changed: %q", got)
	}
}
