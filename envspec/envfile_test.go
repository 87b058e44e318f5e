package envspec

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/envguard/envguard/internal/timebound"

	"github.com/envguard/envguard/finding"
)

func TestPlatformOf(t *testing.T) {
	for _, c := range []struct{ goos, goarch, want string }{
		{"linux", "amd64", "linux-64"},
		{"linux", "arm64", "linux-aarch64"},
		{"linux", "ppc64le", "linux-ppc64le"},
		{"darwin", "arm64", "osx-arm64"},
		{"darwin", "amd64", "osx-64"},
		{"windows", "amd64", "win-64"},
		{"windows", "arm64", "win-arm64"},
		{"windows", "386", "win-32"},
	} {
		if got := platformOf(c.goos, c.goarch); got != c.want {
			t.Errorf("platformOf(%s, %s) = %s, want %s", c.goos, c.goarch, got, c.want)
		}
	}
	if HostPlatform() == "" || !strings.Contains(HostPlatform(), "-") {
		t.Errorf("HostPlatform() = %q", HostPlatform())
	}
}

func TestEvalSelector(t *testing.T) {
	for _, c := range []struct {
		expr, platform string
		want           bool
		err            bool
	}{
		{"linux", "linux-64", true, false},
		{"linux", "osx-arm64", false, false},
		{"linux64", "linux-64", true, false},
		{"linux64", "linux-aarch64", false, false},
		{"aarch64", "linux-aarch64", true, false},
		{"unix", "osx-64", true, false},
		{"unix", "win-64", false, false},
		{"win", "win-64", true, false},
		{"win64", "win-64", true, false},
		{"win32", "win-64", false, false},
		{"osx and arm64", "osx-arm64", true, false},
		{"osx and arm64", "osx-64", false, false},
		{"osx64", "osx-64", true, false},
		{"x86_64", "linux-64", true, false},
		{"x86_64", "osx-arm64", false, false},
		{"not win", "linux-64", true, false},
		{"not win", "win-64", false, false},
		{"linux and not aarch64", "linux-aarch64", false, false},
		{"(osx or win) and x86_64", "win-64", true, false},
		{"osx or win and linux", "osx-64", true, false}, // and binds tighter
		{"ppc64le", "linux-ppc64le", true, false},
		{"linux-64", "linux-64", true, false},
		{"linux-64", "osx-64", false, false},
		{"py<38", "linux-64", false, true},
		{"freebsd", "linux-64", false, true},
		{"", "linux-64", false, true},
		{"linux and", "linux-64", false, true},
		{"(linux", "linux-64", false, true},
		{"linux)", "linux-64", false, true},
		{strings.Repeat("(", 300) + "linux" + strings.Repeat(")", 300), "linux-64", false, true},
	} {
		got, err := evalSelector(c.expr, c.platform)
		if (err != nil) != c.err {
			t.Errorf("evalSelector(%q, %s) error = %v, want error %v", c.expr, c.platform, err, c.err)
			continue
		}
		if err == nil && got != c.want {
			t.Errorf("evalSelector(%q, %s) = %v, want %v", c.expr, c.platform, got, c.want)
		}
	}
}

func TestCommentSelector(t *testing.T) {
	for _, c := range []struct {
		comment, platform string
		keep, isSel       bool
	}{
		{"# [win]", "linux-64", false, true},
		{"# [win]", "win-64", true, true},
		{"#[linux64]", "linux-64", true, true},
		{"# pinned for CUDA [osx]", "linux-64", false, true},
		{"# [linux] envguard: ignore EG201 why", "osx-64", false, true},
		{"# [py<38]", "linux-64", true, false},
		{"# see [docs]", "linux-64", true, false},
		{"# plain comment", "linux-64", true, false},
		{"", "linux-64", true, false},
		{"# [unterminated", "linux-64", true, false},
	} {
		keep, isSel := commentSelector(c.comment, c.platform)
		if keep != c.keep || isSel != c.isSel {
			t.Errorf("commentSelector(%q, %s) = %v, %v; want %v, %v", c.comment, c.platform, keep, isSel, c.keep, c.isSel)
		}
	}
}

// TestSelectorsPerPlatform checks both selector styles against the kept
// dependency names on several platforms.
func TestSelectorsPerPlatform(t *testing.T) {
	src := []byte(`channels: [conda-forge]
dependencies:
  - python
  - pywin32  # [win]
  - patchelf  # [linux]
  - appnope  # [osx and arm64]
  - sel(unix): readline
  - sel(win): m2-base
  - sel(osx): llvm-openmp
  - pip
  - pip:
      - pywinpty  # [win]
      - uvloop  # [not win]
`)
	for _, c := range []struct {
		platform string
		conda    string
		pip      string
	}{
		{"linux-64", "python patchelf readline pip", "uvloop"},
		{"osx-arm64", "python appnope readline llvm-openmp pip", "uvloop"},
		{"osx-64", "python readline llvm-openmp pip", "uvloop"},
		{"win-64", "python pywin32 m2-base pip", "pywinpty"},
	} {
		env := Parse("e.yml", src, ParseOptions{Platform: c.platform})
		if len(env.Diags) != 0 {
			t.Errorf("%s: %v", c.platform, env.Diags)
		}
		var conda, pip []string
		for _, d := range env.Deps {
			conda = append(conda, d.Raw.Value)
		}
		for _, d := range env.Pip {
			pip = append(pip, d.Raw.Value)
		}
		if got := strings.Join(conda, " "); got != c.conda {
			t.Errorf("%s: conda deps %q, want %q", c.platform, got, c.conda)
		}
		if got := strings.Join(pip, " "); got != c.pip {
			t.Errorf("%s: pip deps %q, want %q", c.platform, got, c.pip)
		}
		if env.Platform != c.platform {
			t.Errorf("Env.Platform = %q", env.Platform)
		}
	}
}

func TestParseFields(t *testing.T) {
	src := []byte(`name: train  # the name
channels:
  - conda-forge
dependencies:
  - "numpy>=1.26"  # quoted
  - pytorch=2.5  # envguard: ignore EG207 variant chosen by the cluster image
  - pip
  - pip:
      - 'torch==2.5.1+cu124'   # wheel
variables:
  A: "1"
  B: 2
prefix: /opt/envs/train
platforms: [linux-64]
category: dev
`)
	env := Parse("e.yml", src, ParseOptions{Platform: "linux-64"})
	if env.Kind != KindEnvFile || env.File != "e.yml" {
		t.Errorf("Kind/File = %v %v", env.Kind, env.File)
	}
	if env.Name == nil || env.Name.Value != "train" || env.Name.Pos != (finding.Pos{File: "e.yml", Line: 1, Col: 7}) {
		t.Errorf("Name = %+v", env.Name)
	}
	if len(env.Channels) != 1 || env.Channels[0].Pos != (finding.Pos{File: "e.yml", Line: 3, Col: 5}) {
		t.Errorf("Channels = %+v", env.Channels)
	}
	if len(env.Deps) != 3 {
		t.Fatalf("Deps = %d", len(env.Deps))
	}
	// A quoted scalar's position is its first character, past the quote.
	if d := env.Deps[0]; d.Raw.Value != "numpy>=1.26" || d.Raw.Pos != (finding.Pos{File: "e.yml", Line: 5, Col: 6}) || d.Comment != "quoted" || d.Spec == nil || d.Spec.Name != "numpy" {
		t.Errorf("Deps[0] = %+v spec %+v", d.Raw, d.Spec)
	}
	if d := env.Deps[1]; d.Raw.Pos != (finding.Pos{File: "e.yml", Line: 6, Col: 5}) || !strings.HasPrefix(d.Comment, "envguard: ignore") {
		t.Errorf("Deps[1] = %+v %q", d.Raw, d.Comment)
	}
	if env.PipKey == nil || *env.PipKey != (finding.Pos{File: "e.yml", Line: 8, Col: 5}) {
		t.Errorf("PipKey = %v", env.PipKey)
	}
	if len(env.Pip) != 1 || env.Pip[0].Raw.Pos != (finding.Pos{File: "e.yml", Line: 9, Col: 10}) || env.Pip[0].Comment != "wheel" || env.Pip[0].Line == nil {
		t.Errorf("Pip = %+v", env.Pip[0])
	}
	if len(env.Variables) != 2 || env.Variables[1].Key.Value != "B" || env.Variables[1].Value.Value != "2" || env.Variables[1].Value.Pos != (finding.Pos{File: "e.yml", Line: 12, Col: 6}) {
		t.Errorf("Variables = %+v", env.Variables)
	}
	if env.Prefix == nil || env.Prefix.Value != "/opt/envs/train" {
		t.Errorf("Prefix = %+v", env.Prefix)
	}
	if len(env.Platforms) != 1 || env.Platforms[0].Value != "linux-64" || env.Category == nil || env.Category.Value != "dev" {
		t.Errorf("Platforms/Category = %+v %+v", env.Platforms, env.Category)
	}
	if len(env.Ignores) != 1 {
		t.Fatalf("Ignores = %+v", env.Ignores)
	}
	ig := env.Ignores[0]
	if ig.Pos != (finding.Pos{File: "e.yml", Line: 6, Col: 18}) || strings.Join(ig.Codes, ",") != "EG207" || ig.Reason != "variant chosen by the cluster image" {
		t.Errorf("Ignore = %+v", ig)
	}
	if env.Line(5) != `  - "numpy>=1.26"  # quoted` || env.Line(0) != "" || env.Line(99) != "" {
		t.Errorf("Lines wrong: %q", env.Line(5))
	}
	// Only the prefix finding (info).
	if len(env.Diags) != 1 || env.Diags[0].Code != "EG109" {
		t.Errorf("Diags = %v", env.Diags)
	}
}

func TestParseIgnore(t *testing.T) {
	for _, c := range []struct {
		in      string
		codes   string
		reason  string
		problem bool
		none    bool
	}{
		{"# envguard: ignore EG201 the reason", "EG201", "the reason", false, false},
		{"# envguard: ignore EG201,EG202 two codes", "EG201,EG202", "two codes", false, false},
		{"# envguard: ignore EG201, EG202 spaced", "EG201,EG202", "spaced", false, false},
		{"# envguard: ignore EG201", "EG201", "", false, false},
		{"#envguard:ignore EG101 tight", "EG101", "tight", false, false},
		{"# [linux] envguard: ignore EG203 after a selector", "EG203", "after a selector", false, false},
		{"# envguard: ignore", "", "", true, false},
		{"# envguard: ignore   ", "", "", true, false},
		{"# envguard: ignore eg201 lower", "", "", true, false},
		{"# envguard: ignore EG21 short", "", "", true, false},
		{"# envguard: ignore EG201, reason", "", "", true, false},
		{"# envguard: ignore EG201,", "", "", true, false},
		{"# envguard: ignore because reasons", "", "", true, false},
		{"# envguard: skip EG201", "", "", true, false},
		{"# envguard: ignoreEG201", "", "", true, false},
		{"# just a comment", "", "", false, true},
	} {
		ig, problem := ParseIgnore(c.in)
		switch {
		case c.none:
			if ig != nil || problem != "" {
				t.Errorf("%q: want no directive, got %+v %q", c.in, ig, problem)
			}
		case c.problem:
			if problem == "" || ig != nil {
				t.Errorf("%q: want a problem, got %+v", c.in, ig)
			}
		default:
			if problem != "" || ig == nil {
				t.Errorf("%q: unexpected problem %q", c.in, problem)
				continue
			}
			if strings.Join(ig.Codes, ",") != c.codes || ig.Reason != c.reason {
				t.Errorf("%q: got codes %v reason %q", c.in, ig.Codes, ig.Reason)
			}
		}
	}
}

// TestOwnLineIgnore keeps ignore comments on lines of their own, so the
// suppression code can report them as silencing nothing.
func TestOwnLineIgnore(t *testing.T) {
	src := []byte(`channels: [conda-forge]
dependencies:
  # envguard: ignore EG201 on its own line
  - numpy
  - scipy  # envguard: ignore EG106 trailing
`)
	env := Parse("e.yml", src, ParseOptions{Platform: "linux-64"})
	if len(env.Ignores) != 2 {
		t.Fatalf("Ignores = %+v", env.Ignores)
	}
	got := fmt.Sprintf("%v %v", env.Ignores[0].Pos, env.Ignores[1].Pos)
	if !strings.Contains(got, "e.yml:3:3") || !strings.Contains(got, "e.yml:5:12") {
		t.Errorf("ignore positions %s", got)
	}
}

func TestCaretInsideSpec(t *testing.T) {
	src := []byte("channels: [conda-forge]\ndependencies:\n  - \"numpy>=>1\"\n  - pip\n  - pip:\n    - torch=2.1\n")
	env := Parse("e.yml", src, ParseOptions{Platform: "linux-64"})
	var cols []string
	for _, d := range env.Diags {
		cols = append(cols, fmt.Sprintf("%s@%d:%d", d.Code, d.Pos.Line, d.Pos.Col))
		// The caret must land inside the scalar, never before its start.
		line := env.Line(d.Pos.Line)
		if d.Pos.Col < 1 || d.Pos.Col > len([]rune(line)) {
			t.Errorf("%s: column %d outside line %q", d.Code, d.Pos.Col, line)
		}
	}
	if len(env.Diags) != 2 || env.Diags[0].Code != "EG103" || env.Diags[1].Code != "EG104" {
		t.Fatalf("Diags = %v", env.Diags)
	}
	// "numpy>=>1" starts at column 6 (after the quote); the bad operator is past the name.
	if env.Diags[0].Pos.Col <= 6+len("numpy")-1 {
		t.Errorf("EG103 caret at %v, want on the operator", cols)
	}
	if env.Diags[1].Pos.Col <= 7+len("torch")-1 {
		t.Errorf("EG104 caret at %v, want on the operator", cols)
	}
}

func TestBadEnvName(t *testing.T) {
	for _, c := range []struct {
		name string
		bad  bool
	}{
		{"train", false}, {"torch-2.5_cu124", false}, {"base", true}, {"root", true},
		{"a/b", true}, {"a b", true}, {"a:b", true}, {"a#b", true}, {"", true}, {"Base", false},
	} {
		if got := badEnvName(c.name) != ""; got != c.bad {
			t.Errorf("badEnvName(%q) bad = %v, want %v", c.name, got, c.bad)
		}
	}
}

func TestNearMissChannel(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"default", "defaults"}, {"conda_forge", "conda-forge"}, {"conda-froge", "conda-forge"},
		{"condaforge", "conda-forge"}, {"nodefault", "nodefaults"}, {"pytroch", "pytorch"},
		{"nvidai", "nvidia"}, {"bioconda", ""}, {"conda-forge", ""}, {"pytorch-nightly", ""},
		{"pyg", ""}, {"pytorch3d", ""}, {"fastai", ""}, {"nvidia/label/cuda-12.1.0", ""},
		{"https://conda.anaconda.org/conda-forge", ""}, {"rapidsai-nightly", ""}, {"dglteam", ""},
		{"esri", ""}, {"main", ""}, {"anaconda", ""},
	} {
		if got := nearMissChannel(c.in); got != c.want {
			t.Errorf("nearMissChannel(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestDefaultsChannel(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"defaults", true}, {"https://repo.anaconda.com/pkgs/main", true}, {"https://repo.anaconda.com/pkgs/r/", true},
		{"pkgs/main", true}, {"conda-forge", false}, {"main", false}, {"https://conda.anaconda.org/conda-forge", false},
	} {
		if got := isDefaultsChannel(c.in); got != c.want {
			t.Errorf("isDefaultsChannel(%q) = %v", c.in, got)
		}
	}
}

// TestHostile feeds documents built to exhaust a reader; each must come back
// fast with an EG100 (or plain) answer.
func TestHostile(t *testing.T) {
	laughs := "a: &a [x, x, x, x, x, x, x, x, x]\n"
	for c := 'b'; c <= 'i'; c++ {
		p := string(c - 1)
		laughs += fmt.Sprintf("%c: &%c [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", c, c, p, p, p, p, p, p, p, p, p)
	}
	many := "x: &a numpy\ndependencies: [" + strings.Repeat("*a, ", 5000) + "*a]\n"
	pipAlias := "p: &p [" + strings.Repeat("a, ", 2000) + "a]\ndependencies:\n" + strings.Repeat("  - pip: *p\n", 900)
	for _, c := range []struct {
		name   string
		src    string
		eg100  bool
		within time.Duration
	}{
		{"flow-10000", strings.Repeat("[", 10000) + strings.Repeat("]", 10000), true, 50 * time.Millisecond},
		{"flow-100000", "dependencies: " + strings.Repeat("{a: ", 100000) + "b" + strings.Repeat("}", 100000), true, 50 * time.Millisecond},
		{"block-seq-10000", "dependencies:\n  " + strings.Repeat("- ", 10000) + "x\n", true, 500 * time.Millisecond},
		// The walk would never expand these, but a document built to
		// expand to 9^9 items is refused outright: no environment file
		// needs it, and tools downstream (conda itself) would expand it.
		{"billion-laughs-top", laughs + "dependencies: [*i]\n", true, 50 * time.Millisecond},
		{"billion-laughs-deps", laughs + "dependencies: [*i, *i, *i]\n", true, 50 * time.Millisecond},
		{"one-small-alias", "x: &x [numpy]\ndependencies: *x\n", false, 50 * time.Millisecond},
		{"many-alias-refs", many, true, 100 * time.Millisecond},
		{"pip-alias-expansion", pipAlias, true, 200 * time.Millisecond},
		// Aliases count by the bytes they expand to: few nodes, a gigabyte
		// of text (issue 11: 123 s of CPU and 1.6 GB in the CLI).
		{"aliases-of-a-long-scalar", "x: &x '" + strings.Repeat("y", 1<<20) + "'\ndependencies: [" + strings.Repeat("*x, ", 998) + "*x]\n", true, 500 * time.Millisecond},
		{"one-alias-of-a-long-scalar", "x: &x '" + strings.Repeat("y", 100<<10) + "'\ndependencies: [*x]\n", false, 200 * time.Millisecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			env := Parse("h.yml", []byte(c.src), ParseOptions{Platform: "linux-64"})
			timebound.Within(t, c.name, time.Since(start), c.within)
			has := false
			for _, d := range env.Diags {
				if d.Code == "EG100" {
					has = true
					if d.Pos.Line < 1 {
						t.Errorf("EG100 without a line: %v", d)
					}
				}
			}
			if has != c.eg100 {
				t.Errorf("EG100 raised = %v, want %v: %v", has, c.eg100, env.Diags)
			}
		})
	}
}

func TestYAMLErrorLine(t *testing.T) {
	for _, c := range []struct {
		src  string
		line int
	}{
		{"a: b: c\n", 1},
		{"name: x\nchannels: [conda-forge]\ndependencies:\n  - a\n  - b: c: d\n", 5},
		{"dependencies:\n  - \"unterminated\n", 2},
	} {
		env := Parse("y.yml", []byte(c.src), ParseOptions{Platform: "linux-64"})
		if len(env.Diags) != 1 || env.Diags[0].Code != "EG100" || env.Diags[0].Pos.Line != c.line || env.Diags[0].Pos.Col != 0 {
			t.Errorf("%q: %v, want one EG100 at line %d", c.src, env.Diags, c.line)
		}
	}
}

func TestSyntaxRulesDocumented(t *testing.T) {
	seenCode, seenName := map[string]bool{}, map[string]bool{}
	for _, r := range SyntaxRules {
		if seenCode[r.Code] || seenName[r.Name] {
			t.Errorf("duplicate rule %s %s", r.Code, r.Name)
		}
		seenCode[r.Code], seenName[r.Name] = true, true
		if !isRuleCode(r.Code) || !strings.HasPrefix(r.Code, "EG1") {
			t.Errorf("bad code %q", r.Code)
		}
		if r.Name == "" || strings.ToLower(r.Name) != r.Name || strings.ContainsAny(r.Name, " _") {
			t.Errorf("%s: name %q is not kebab-case", r.Code, r.Name)
		}
		if r.Title == "" || r.Why == "" || r.Fix == "" || r.Before == "" || r.After == "" || r.Since != "0.1.0" {
			t.Errorf("%s: incomplete documentation", r.Code)
		}
	}
	for i := 100; i <= 114; i++ {
		if !seenCode[fmt.Sprintf("EG%d", i)] {
			t.Errorf("EG%d not documented", i)
		}
	}
}

// TestRuleExamples checks each rule's Before fires it and After does not,
// where the reader itself raises the rule.
func TestRuleExamples(t *testing.T) {
	for _, r := range SyntaxRules {
		if r.Code == "EG114" {
			continue
		}
		has := func(src string) bool {
			env := Parse("x.yml", []byte(src), ParseOptions{Platform: "linux-64"})
			for _, d := range env.Diags {
				if d.Code == r.Code {
					return true
				}
			}
			return false
		}
		if !has(r.Before) {
			t.Errorf("%s: Before does not fire it", r.Code)
		}
		if has(r.After) {
			t.Errorf("%s: After still fires it", r.Code)
		}
	}
}

func TestParseNeverNil(t *testing.T) {
	for _, src := range []string{"", "\n", "~", "null", "[]", "{}", "--- \n...\n", "\xff\xfe", "dependencies:\n", "channels:\n"} {
		env := Parse("n.yml", []byte(src), ParseOptions{})
		if env == nil {
			t.Fatalf("%q: nil env", src)
		}
		if env.Platform != HostPlatform() {
			t.Errorf("default platform = %q", env.Platform)
		}
	}
}

func TestTokenEnd(t *testing.T) {
	for _, c := range []struct {
		line string
		col  int
		want int
	}{
		{"  - numpy  # comment", 5, 10},
		{"  - numpy", 5, 10},
		{`  - "numpy>=1"  # q`, 6, 14},
		{"dependency:", 1, 11},
		{"  - sel(linux): pkg", 5, 15},
		{"  - https://repo.anaconda.com/pkgs/main", 5, 40},
		{"  A: expandable_segments:True", 6, 30},
		{"name: my#env", 7, 13},
		{"  - numpy", 0, 0},
		{"  - numpy", 40, 0},
		{"", 1, 0},
		{"  - é=1 # x", 5, 8},
	} {
		if got := TokenEnd(c.line, c.col); got != c.want {
			t.Errorf("TokenEnd(%q, %d) = %d, want %d", c.line, c.col, got, c.want)
		}
	}
}

// In a flow list the caret stops at the item, not at the closing bracket.
func TestTokenEndFlow(t *testing.T) {
	for _, tt := range []struct {
		line     string
		col, end int
	}{
		{"channels: [conda_forge]", 12, 23},
		{"channels: [conda_forge, pytorch]", 25, 32},
		{"  - conda_forge  # note", 5, 16},
		{`channels: ["a,b"]`, 13, 16},
	} {
		if got := TokenEnd(tt.line, tt.col); got != tt.end {
			t.Errorf("TokenEnd(%q, %d) = %d, want %d", tt.line, tt.col, got, tt.end)
		}
	}
}

// A list item indented one space too far is folded into the item above it
// by YAML; the package would silently disappear.
func TestContinuedDependency(t *testing.T) {
	env := Parse("c.yml", []byte("channels: [conda-forge]\ndependencies:\n  - python=3.10\n   - numpy\n  - scipy >=1.2  # a comment\n  - 'quoted value'\n"), ParseOptions{Platform: "linux-64"})
	var got []string
	for _, d := range env.Diags {
		got = append(got, d.Error())
	}
	want := []string{`c.yml:3:5: dependency "python=3.10 - numpy" runs on into line 4: YAML read the next line as part of this item, not as a package of its own [EG103]`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestEG100ExportDumpHint (review forty-six F34, corpus 171): a YAML error
// where the lines are `conda list --export` output pasted under
// dependencies: without list markers says so; another YAML error keeps
// the general hint.
func TestEG100ExportDumpHint(t *testing.T) {
	dump := Parse("e.yml", []byte("name: x\ndependencies:\nabsl-py=0.7.0=pypi_0\nblas=1.0=mkl\n"), ParseOptions{})
	other := Parse("e.yml", []byte("name: x\ndependencies:\n  - a: b: c\n"), ParseOptions{})
	for _, tt := range []struct {
		env  *Env
		want string
	}{
		{dump, "the lines from line 3 are `conda list --export` output (name=version=build) without list markers"},
		{other, "fix the YAML syntax"},
	} {
		found := false
		for _, d := range tt.env.Diags {
			if d.Code == "EG100" {
				found = true
				if !strings.Contains(d.Hint, tt.want) {
					t.Errorf("hint %q, want %q", d.Hint, tt.want)
				}
			}
		}
		if !found {
			t.Errorf("no EG100 (want %q)", tt.want)
		}
	}
}
