package lockfile

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/internal/readertest"
)

// joinRequirementLinesRef is joinRequirementLines as it was before issue
// 22 (N2), a string appended to for every continuation: O(n²), and the
// reference the linear one must agree with, position for position.
func joinRequirementLinesRef(lines []string) []reqLine {
	var out []reqLine
	var cur *reqLine
	for i, raw := range lines {
		s := strings.TrimPrefix(raw, "\ufeff")
		isComment := strings.HasPrefix(strings.TrimLeft(s, " \t"), "#")
		if strings.HasSuffix(s, "\\") && !isComment {
			part := strings.Trim(s, "\\")
			if cur == nil {
				cur = &reqLine{line: i + 1}
				lead := len(part) - len(strings.TrimLeft(part, " \t"))
				cur.col = utf8.RuneCountInString(part[:lead]) + 1
				part = part[lead:]
			}
			cur.text += part
			continue
		}
		if cur != nil {
			cur.text += s
			out = append(out, *cur)
			cur = nil
			continue
		}
		lead := len(s) - len(strings.TrimLeft(s, " \t"))
		out = append(out, reqLine{text: s[lead:], line: i + 1, col: utf8.RuneCountInString(s[:lead]) + 1})
	}
	if cur != nil {
		out = append(out, *cur)
	}
	return out
}

func sameJoin(t *testing.T, src string) {
	t.Helper()
	lines := envspec.SplitLines([]byte(src))
	got, want := joinRequirementLines(lines), joinRequirementLinesRef(lines)
	if len(got) != len(want) {
		t.Fatalf("%q: %d logical lines, want %d", src, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%q: line %d = %+v, want %+v", src, i, got[i], want[i])
		}
	}
}

var joinSeeds = []string{
	"", "a", "a\\\n==1\n", "  a \\\n  \\\n  ==1 # c\n", "a\\\n# not continued \\\nb\n",
	"\ufeffa\\\nb\\\n", "\\\\\\\n\\\n\\", "é\\\n\té==1\r\nb\\", "#c\\\n x\\\n\n\\\ny\n",
	"torch==2.1.2+cu121 \\\n    --hash=sha256:00 \\\n    --hash=sha256:11\n",
}

// TestJoinRequirementLinesAsBefore: the linear join gives what the old one
// gave, text, line and column, for every shape of continuation.
func TestJoinRequirementLinesAsBefore(t *testing.T) {
	for _, s := range joinSeeds {
		sameJoin(t, s)
	}
}

func FuzzJoinRequirementLines(f *testing.F) {
	for _, s := range joinSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<12 {
			return // the reference is quadratic
		}
		sameJoin(t, src)
	})
}

// continuations is a requirements file of n backslash continuations, the
// shape of N2: one logical line of n parts.
func continuations(n int) []byte {
	return []byte(strings.Repeat("a\\\n", n) + "==1\n")
}

// TestRequirementsContinuationsCost: 100k continuations (N2) allocate in
// proportion to the input, not its square: the old join allocated 5.3 GB
// for this 300 KB file, the new about 2.4 MB.
func TestRequirementsContinuationsCost(t *testing.T) {
	src := continuations(100_000)
	var env *envspec.Env
	b, n := readertest.Allocated(3, func() { env = ReadRequirements("requirements.txt", src, Options{Platform: "linux-64"}) })
	t.Logf("%d bytes of input: %d bytes in %d allocations", len(src), b, n)
	if limit := uint64(40 * len(src)); b > limit {
		t.Errorf("reading %d bytes allocated %d bytes, over %d", len(src), b, limit)
	}
	if len(env.Pip) != 1 || env.Pip[0].Raw.Pos.Line != 1 || env.Pip[0].Raw.Value != strings.Repeat("a", 100_000)+"==1" {
		t.Errorf("want one requirement on line 1, got %d items", len(env.Pip))
	}
}

func BenchmarkRequirementsContinuations(b *testing.B) {
	src := continuations(100_000)
	b.ReportAllocs()
	for b.Loop() {
		ReadRequirements("requirements.txt", src, Options{Platform: "linux-64"})
	}
}

// TestRequirementsShapesGrowLinearly holds the requirements reader to
// linear cost (readertest.GrowsLinearly) in the shapes the common growth
// test (growth_test.go) does not feed it: standalone ignore comments (each used to scan the rest of
// the block for the line it applies to, O(n²) in every lock reader),
// many includes, -r chains, bad lines, hashes and extras.
func TestRequirementsShapesGrowLinearly(t *testing.T) {
	inc := func(name string) ([]byte, error) {
		if strings.HasSuffix(name, "missing.txt") {
			return nil, fs.ErrNotExist
		}
		if strings.HasSuffix(name, "refused.txt") {
			return nil, &IncludeRefusedError{Reason: "it is outside the repository"}
		}
		if strings.HasSuffix(name, "config") {
			return []byte("[core]\nx = 1\n"), nil
		}
		// A chain as deep as it is allowed to go: c0 → c1 → … → c16.
		var k int
		if _, err := fmt.Sscanf(name[strings.LastIndexByte(name, '/')+1:], "c%d.txt", &k); err == nil {
			return fmt.Appendf(nil, "p%d==1\n-r c%d.txt\n", k, k+1), nil
		}
		return []byte("b==1\n"), nil
	}
	shapes := []struct {
		name string
		gen  func(n int) string
		unit int
	}{
		{"standalone ignores", func(n int) string {
			return strings.Repeat("# envguard: ignore EG304 on purpose\n", n) + "torch==2.1.0\n"
		}, 2000},
		{"ignores and blank lines", func(n int) string { return strings.Repeat("# envguard: ignore EG304 x\n\n#\n", n) + "a\n" }, 1000},
		{"bad lines", func(n int) string { return strings.Repeat("a=1\n", n) }, 1000},
		{"same include", func(n int) string { return strings.Repeat("-r x.txt\n", n) }, 1000},
		{"distinct includes", func(n int) string { return readertest.Seq(n, "-r f%d.txt\n") }, 1000},
		{"missing and refused includes", func(n int) string { return strings.Repeat("-r missing.txt\n-r refused.txt\n", n) }, 500},
		{"not requirements", func(n int) string { return readertest.Seq(n, "-r %d/config\n") }, 500},
		{"include chains", func(n int) string { return readertest.Seq(n, "-r %d/c0.txt\n") }, 50},
		{"many hashes", func(n int) string { return "a==1 " + strings.Repeat("--hash=sha256:00 ", n) + "\n" }, 1000},
		{"many extras", func(n int) string { return "a[" + strings.Repeat("x,", n) + "x]==1\n" }, 2000},
		{"long bad line", func(n int) string { return strings.Repeat("(", n) + "\n" }, 16 << 10},
		{"continued comment", func(n int) string { return "a==1 #" + strings.Repeat(" x \\\n", n) + "\n" }, 2000},
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			readertest.GrowsLinearly(t, func(t *testing.T, scale int) func() {
				src := []byte(sh.gen(sh.unit * scale))
				return func() {
					ReadRequirements("r.txt", src, Options{Platform: "linux-64", MaxItems: readertest.NoBudget, ReadFile: inc})
				}
			})
		})
	}
}

// TestStandaloneIgnoresApplyAsBefore: the ignore comments of a block
// apply to the first line after it that is not a comment, and those with
// nothing after them to their own line.
func TestStandaloneIgnoresApplyAsBefore(t *testing.T) {
	src := "# envguard: ignore EG304 a\n\n# other\n# envguard: ignore EG205 b\ntorch==2.1.0\n# envguard: ignore EG203 c\n#\n"
	env := ReadRequirements("r.txt", []byte(src), Options{})
	var got []string
	for _, ig := range env.Ignores {
		got = append(got, fmt.Sprintf("%d:%d %v", ig.Pos.Line, ig.Pos.Col, ig.Codes))
	}
	sameList(t, "ignores", got, []string{"5:1 [EG304]", "5:1 [EG205]", "6:1 [EG203]"})
}

// TestReadRequirementsStopsWithContext: a done context stops the reading
// between lines, and between an include's lines.
func TestReadRequirementsStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src := []byte(readertest.Seq(10_000, "p%d==1\n"))
	env := ReadRequirements("r.txt", src, Options{Context: ctx, MaxItems: 1 << 30})
	if n := len(env.Pip); n >= 100 {
		t.Errorf("a done context read %d of 10000 lines", n)
	}
	reads := 0
	inc := ReadRequirements("r.txt", []byte("-r a.txt\n"), Options{Context: ctx, ReadFile: func(string) ([]byte, error) {
		reads++
		return src, nil
	}})
	if n := len(inc.Pip); n >= 100 {
		t.Errorf("a done context read %d lines of an include", n)
	}
	live := ReadRequirements("r.txt", src, Options{Context: context.Background(), MaxItems: 1 << 30})
	if n := len(live.Pip); n != 10_000 {
		t.Errorf("a live context read %d of 10000 lines", n)
	}
}

// secretInclude is what a hostile -r points at: a git config with the
// token a CI checkout keeps, then a netrc.
const secretInclude = "[core]\n\trepositoryformatversion = 0\n[http]\n\textraheader = AUTHORIZATION: basic c2VjcmV0LXRva2Vu\nmachine example.org login u password hunter2-SECRET\n"

// TestIncludedFilesAreNeverQuoted: an include that is not a requirements
// file is one finding that says so, and nothing from it is used; a bad
// line of one that is is named by number; a refused one names the path.
func TestIncludedFilesAreNeverQuoted(t *testing.T) {
	files := map[string]string{
		"d/config":     secretInclude,
		"d/netrc":      "machine example.org login u password hunter2-SECRET\n",
		"d/half.txt":   "numpy==1.26\nmachine example.org login u password hunter2-SECRET\n",
		"d/mostly.txt": "numpy==1.26\nscipy==1.11\nhunter2-SECRET = x\n",
		"d/token.txt":  "# a comment\n--index-url https://h/simple\nhunter2-SECRET ==\n",
	}
	read := func(name string) ([]byte, error) {
		if name == "d/outside" {
			return nil, &IncludeRefusedError{Reason: "it is outside the repository (/r)"}
		}
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
	src := "-r config\n-r netrc\n-r half.txt\n-r mostly.txt\n-r token.txt\n-r outside\n"
	env := ReadRequirements("d/requirements.txt", []byte(src), Options{ReadFile: read})
	sameList(t, "diags", diagSummary(env), []string{
		"1:0 EG104 -r config: d/config is not a requirements file: nothing in it was read, and its lines are not shown",
		"2:0 EG104 -r netrc: d/netrc is not a requirements file: nothing in it was read, and its lines are not shown",
		"3:0 EG104 in d/half.txt, line 2 is not a valid requirement or pip option",
		"4:0 EG104 in d/mostly.txt, line 3 is not a valid requirement or pip option",
		"5:0 EG104 in d/token.txt, line 3 is not a valid requirement or pip option",
		"6:4 EG104 -r outside: not followed: it is outside the repository (/r)",
	})
	for _, d := range env.Diags {
		for _, s := range []string{"hunter2", "c2VjcmV0", "machine", "extraheader", "core"} {
			if strings.Contains(d.Message+d.Hint, s) {
				t.Errorf("%s quotes %q", d.Error(), s)
			}
		}
	}
	for _, d := range env.Pip {
		if strings.Contains(d.Raw.Value, "hunter2") || strings.Contains(d.Raw.Value, "extraheader") {
			t.Errorf("an item holds %q", d.Raw.Value)
		}
	}
	// The validated file's own bad lines are still quoted: its reader
	// named it.
	own := ReadRequirements("r.txt", []byte("machine example.org\n"), Options{})
	if d := own.Diags; len(d) != 1 || !strings.Contains(d[0].Message, `"machine example.org"`) {
		t.Errorf("own line not quoted: %q", diagSummary(own))
	}
	if !errors.As(error(&IncludeRefusedError{}), new(*IncludeRefusedError)) {
		t.Fatal("IncludeRefusedError is not an error errors.As finds")
	}
}

// includeMessages are the only shapes an EG104 finding about an include
// (-r inc.txt on line 1) may take: each names a path or a line number,
// none quotes the included text.
var includeMessages = regexp.MustCompile(`^(in inc\.txt, line \d+ (is not a valid requirement or pip option|has a problem pip does not stop on)` +
	`|-r inc\.txt: inc\.txt is not a requirements file: nothing in it was read, and its lines are not shown` +
	`|pip does not accept --[a-z-]+ in a requirements file: ` + "`pip install -r`" + ` stops with an error` +
	`|-r \S+ includes a file already read \(a cycle, or the same file twice\)` +
	`|-r \S+: not followed: it is outside the repository)$`)

// FuzzRequirementsInclude: whatever an included file holds, no finding
// about it quotes it. Its own -r lines lead to inc.txt (a cycle), to the
// validated file, or are refused.
func FuzzRequirementsInclude(f *testing.F) {
	f.Add([]byte(secretInclude))
	f.Add([]byte("numpy\nbad line (\n-r inc.txt\n-r r.txt\n-r other\n--no-deps\n"))
	f.Add([]byte("a \\\n\\\n  ==1 # c\nb\\\n"))
	f.Add([]byte("\ufeff# envguard: ignore EG304 x\ntorch==2.1.0 \\\n --hash=sha256:00\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		read := func(name string) ([]byte, error) {
			if name == "inc.txt" {
				return src, nil
			}
			return nil, &IncludeRefusedError{Reason: "it is outside the repository"}
		}
		env := ReadRequirements("r.txt", []byte("-r inc.txt\n"), Options{Platform: "linux-64", ReadFile: read})
		checkLockEnv(t, env)
		for _, d := range env.Diags {
			if d.Code == "EG104" && !includeMessages.MatchString(d.Message) {
				t.Fatalf("a finding about the include quotes it: %s", d.Error())
			}
		}
	})
}
