package envspec

import (
	"strings"
	"testing"
)

// The readings below were checked against conda's own parser
// (conda/models/match_spec.py _parse_spec_str and models/version.py
// VersionSpec at conda commit 0f64223f, run on these strings) and against
// libmamba's (libmamba/src/specs/match_spec.cpp, version_spec.cpp at mamba
// commit 03564bf4).

// TestCondaSemanticsRead: specs conda reads, with what they admit. issue
// is "" when no EG103 is attached, or a piece of its message.
func TestCondaSemanticsRead(t *testing.T) {
	tests := []struct {
		in      string
		version string // VersionSpec.String(); "" for none
		build   string
		parens  map[string]string
		admit   []string
		reject  []string
		issue   string
	}{
		// "numpy=": conda's tests say it is "numpy"; libmamba strips the '='.
		{in: "numpy=", admit: []string{"1.26.4", "2.0"}},
		{in: "conda-forge::numpy=", admit: []string{"1.0"}},
		{in: "numpy=[build=py39*]", build: "py39*", admit: []string{"1.0"}},
		// regex version specs: conda's classic solver reads them,
		// libmamba refuses them.
		{in: `numpy ^1\.7\..*$`, version: `^1\.7\..*$`, admit: []string{"1.7.1", "1.7.10"}, reject: []string{"1.8.0", "11.7.1"}, issue: "regular expression"},
		{in: `numpy ^1\.7\.\d+$`, version: `^1\.7\.\d+$`, admit: []string{"1.7.3"}, reject: []string{"1.7.3a1"}, issue: "libmamba"},
		{in: `numpy=^1\.7\..*$`, version: `^1\.7\..*$`, admit: []string{"1.7.1"}, reject: []string{"1.6"}, issue: "regular expression"},
		{in: `numpy ^1\.7\..*$ py39_0`, version: `^1\.7\..*$`, build: "py39_0", admit: []string{"1.7.0"}, issue: "regular expression"},
		{in: `numpy[version='^1\.(7|8)\..*$']`, version: `^1\.(7|8)\..*$`, admit: []string{"1.8.2"}, reject: []string{"1.9.0"}, issue: "regular expression"},
		{in: `numpy >=1,<2|^0\.9$`, version: `>=1,<2|^0\.9$`, admit: []string{"1.5", "0.9"}, reject: []string{"0.8"}, issue: "regular expression"},
		// "=>" and "=<": conda sanitises "=>3.11" into ">3.11*".
		{in: "python=>3.11", version: ">3.11*", admit: []string{"3.11", "3.11.4", "3.12"}, reject: []string{"3.10"}, issue: `conda reads "=>3.11" as ">3.11*", which admits 3.11`},
		{in: "python=<3.11", version: "<3.11*", admit: []string{"3.10.9"}, reject: []string{"3.11", "3.11.1"}, issue: `which does not admit 3.11`},
		{in: "python =>3.11", version: ">3.11*", admit: []string{"3.11"}, issue: "libmamba (mamba, micromamba) refuses"},
		{in: "python==>3.11", version: ">3.11", admit: []string{"3.12"}, reject: []string{"3.11"}, issue: `"==>" is not a conda operator`},
		// parenthesised section: conda parses it and ignores it.
		{in: "foo[build=3](target=x)", build: "3", parens: map[string]string{"target": "x"}, admit: []string{"1.0"}},
		{in: "conda-forge::foo[build=bld](target=blarg,optional)", build: "bld", parens: map[string]string{"target": "blarg", "optional": "true"}},
		{in: "foo(target=x)[build=3]", build: "3", parens: map[string]string{"target": "x"}},
		{in: "foo (optional)", parens: map[string]string{"optional": "true"}},
		{in: "foo 1.2 (optional)", version: "1.2", parens: map[string]string{"optional": "true"}, admit: []string{"1.2.0"}, reject: []string{"1.3"}},
		{in: "foo=1.2(target='a b')", version: "1.2.*", parens: map[string]string{"target": "a b"}},
		{in: "foo()", parens: map[string]string{}},
		// a key libmamba applies but conda ignores.
		{in: "foo (build=3)", parens: map[string]string{"build": "3"}, issue: "conda ignores build=3 inside parentheses"},
		{in: "numpy=1.2 (version=1.3)", version: "1.2.*", parens: map[string]string{"version": "1.3"}, admit: []string{"1.2.5"}, reject: []string{"1.3"}, issue: "libmamba (mamba, micromamba) applies it"},
		// silent neighbours
		{in: "python>=3.11", version: ">=3.11", admit: []string{"3.11"}},
		{in: "numpy 1.7.*", version: "1.7.*", admit: []string{"1.7.3"}},
		{in: "numpy[version='>=3.8,(<3.10|>=3.11)']", version: ">=3.8,(<3.10|>=3.11)", admit: []string{"3.9", "3.12"}, reject: []string{"3.10"}},
		{in: "numpy ~=1.20", version: "~=1.20", admit: []string{"1.21"}, reject: []string{"2.0"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			m, err := ParseMatchSpec(tt.in)
			if err != nil {
				t.Fatalf("ParseMatchSpec(%q): %v", tt.in, err)
			}
			got := ""
			if m.Version != nil {
				got = m.Version.String()
			}
			if got != tt.version {
				t.Errorf("version = %q, want %q", got, tt.version)
			}
			if m.Build != tt.build {
				t.Errorf("build = %q, want %q", m.Build, tt.build)
			}
			if (m.Parens == nil) != (tt.parens == nil) || len(m.Parens) != len(tt.parens) {
				t.Errorf("parens = %v, want %v", m.Parens, tt.parens)
			}
			for k, v := range tt.parens {
				if m.Parens[k] != v {
					t.Errorf("parens[%s] = %q, want %q", k, m.Parens[k], v)
				}
			}
			if tt.parens != nil && !strings.HasPrefix(spanText(tt.in, m.ParensSpan), "(") {
				t.Errorf("ParensSpan covers %q", spanText(tt.in, m.ParensSpan))
			}
			for _, v := range tt.admit {
				if !m.Admits(v) {
					t.Errorf("does not admit %s", v)
				}
			}
			for _, v := range tt.reject {
				if m.Admits(v) {
					t.Errorf("admits %s", v)
				}
			}
			switch {
			case tt.issue == "" && len(m.Issues) > 0:
				t.Errorf("unexpected issue: %s", m.Issues[0].Msg)
			case tt.issue != "" && len(m.Issues) == 0:
				t.Errorf("no issue, want one containing %q", tt.issue)
			case tt.issue != "":
				found := false
				for _, is := range m.Issues {
					found = found || strings.Contains(is.Msg, tt.issue)
					if is.Offset < 0 || is.Offset >= len(tt.in) || is.Hint == "" {
						t.Errorf("issue offset %d / hint %q", is.Offset, is.Hint)
					}
				}
				if !found {
					t.Errorf("issues %q, want one containing %q", m.Issues[0].Msg, tt.issue)
				}
			}
			// the canonical form reads back to the same spec.
			again, err := ParseMatchSpec(m.String())
			if err != nil {
				t.Fatalf("canonical %q does not parse: %v", m.String(), err)
			}
			if again.String() != m.String() {
				t.Errorf("canonical %q reads back as %q", m.String(), again.String())
			}
		})
	}
}

// TestCondaSemanticsRefused: specs conda cannot read as written (it fails,
// or silently reads another spec), reported as EG103 errors.
func TestCondaSemanticsRefused(t *testing.T) {
	tests := []struct {
		in   string
		off  int
		want string
	}{
		// conda takes "[0-9]" for a bracket section and reads ^1\.7\.+$.
		{`numpy ^1\.7\.[0-9]+$`, 13, "'[' inside the version regex"},
		{`numpy=^1\.7\.[0-9]+$`, 13, "conda takes the text from '[' to ']'"},
		// conda's bracket regex runs to the last ']' and fails.
		{`numpy[version='^1\.7\.[0-9]+$']`, 22, "'[' inside a quoted bracket value"},
		{`pytorch[build='^py3\.1[01]_cuda.*$']`, 22, "cannot read a bracket inside a value"},
		// conda strips "(...)" outside brackets: a version group is lost.
		{"python >=3.8,(<3.10|>=3.11)", 13, `conda drops parenthesised text "(<3.10|>=3.11)"`},
		{"numpy (>=1,<2)|>3", 6, "conda drops parenthesised text"},
		{`numpy ^1\.(7|8)\..*$`, 10, "conda drops parenthesised text"},
		{"foo (a) (b=1)", 4, "conda drops parenthesised text"},
		{"foo[build=3](target=x) 1.2", 12, "unexpected text"},
		// "numpy==" and "numpy= x": conda raises "invalid operator".
		{"numpy==", 5, "missing version after operator"},
		{"numpy =", 6, "missing version after operator"},
		// "~=2": conda fails on every version >= 2, libmamba reads >=2.
		{"python~=2", 6, `conda accepts ~=2 but fails with "empty version string"`},
		{"python ~=3", 7, "libmamba (mamba, micromamba) reads it as >=3"},
	}
	for _, tt := range tests {
		_, err := ParseMatchSpec(tt.in)
		se, ok := err.(*SpecError)
		if !ok {
			t.Errorf("ParseMatchSpec(%q) error = %v, want *SpecError", tt.in, err)
			continue
		}
		if se.Offset != tt.off || !strings.Contains(se.Msg, tt.want) {
			t.Errorf("ParseMatchSpec(%q) = offset %d %q, want offset %d containing %q", tt.in, se.Offset, se.Msg, tt.off, tt.want)
		}
	}
}

func TestChannelName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"conda-forge", "conda-forge"},
		{"Conda-Forge", "conda-forge"},
		{"https://conda.anaconda.org/conda-forge", "conda-forge"},
		{"https://conda.anaconda.org/conda-forge/", "conda-forge"},
		{"https://conda.anaconda.org/conda-forge/linux-64", "conda-forge"},
		{"http://conda.anaconda.org/pytorch", "pytorch"},
		{"https://conda.anaconda.org/nvidia/label/cuda-12.1.0", "nvidia/label/cuda-12.1.0"},
		{"https://conda.anaconda.org/t/tk-123/pytorch-nightly", "pytorch-nightly"},
		{"conda-forge/linux-64", "conda-forge"},
		{"defaults", "defaults"},
		{"pkgs/main", "defaults"},
		{"pkgs/r/", "defaults"},
		{"https://repo.anaconda.com/pkgs/main", "defaults"},
		{"https://repo.anaconda.com/pkgs/main/linux-64", "defaults"},
		{"https://repo.anaconda.com/pkgs/msys2", "defaults"},
		{"https://repo.anaconda.com/pkgs/free", "defaults"},
		{"https://mirror.example.org/pkgs/main", "defaults"}, // conda matches defaults' members by name
		{"https://mirror.example.org/conda-forge", "https://mirror.example.org/conda-forge"},
		{"https://user:pw@mirror.example.org/conda/x/", "https://mirror.example.org/conda/x"},
		{"file:///opt/channel", "file:///opt/channel"},
		{"file:///opt/pkgs/main", "file:///opt/pkgs/main"},
		{"./local-channel", "./local-channel"},
		{"main", "main"},
		{"", ""},
	} {
		if got := ChannelName(c.in); got != c.want {
			t.Errorf("ChannelName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"https://conda.anaconda.org/conda-forge::numpy", "conda-forge"},
		{"https://conda.anaconda.org/conda-forge/linux-64::numpy", "conda-forge"},
		{"https://repo.anaconda.com/pkgs/main::numpy", "defaults"},
		{"pytorch::pytorch", "pytorch"},
		{"numpy", ""},
	} {
		m, err := ParseMatchSpec(c.in)
		if err != nil {
			t.Fatalf("ParseMatchSpec(%q): %v", c.in, err)
		}
		if got := m.ChannelName(); got != c.want {
			t.Errorf("ParseMatchSpec(%q).ChannelName() = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestSourceChannel: mirrors as the corpus writes them are read by their
// layout, so a pytorch mirror is not taken for defaults.
func TestSourceChannel(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"conda-forge", "conda-forge"},
		{"pytorch/label/nightly", "pytorch"},
		{"https://conda.anaconda.org/nvidia/label/cuda-12.1.0", "nvidia"},
		{"https://repo.anaconda.com/pkgs/main", "defaults"},
		{"https://mirrors.tuna.tsinghua.edu.cn/anaconda/pkgs/main/", "defaults"},
		{"http://mirrors.aliyun.com/anaconda/pkgs/r", "defaults"},
		{"https://mirrors.ustc.edu.cn/anaconda/pkgs/free/", "defaults"},
		{"https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud/pytorch/", "pytorch"},
		{"https://mirrors.ustc.edu.cn/anaconda/cloud/conda-forge/", "conda-forge"},
		{"https://mirrors.ustc.edu.cn/anaconda/cloud/menpo/", "menpo"},
		{"https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud/Paddle/", "paddle"},
		{"https://mirror.example.org/conda-forge", "conda-forge"},
		{"https://mirror.example.org/conda/pytorch/label/dev/linux-64", "pytorch"},
		{"https://mirror.example.org", "https://mirror.example.org"},
		{"file:///opt/channel", "file:///opt/channel"},
		{"./local-channel", "./local-channel"},
		{"", ""},
	} {
		if got := SourceChannel(c.in); got != c.want {
			t.Errorf("SourceChannel(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestCondaSemanticsEnvFile: the findings a file gets for the specs above,
// firing and silent.
func TestCondaSemanticsEnvFile(t *testing.T) {
	tests := []struct {
		name string
		deps string // the dependency lines
		chs  string // the channels lines
		want []string
		kept bool
	}{
		{"regex kept with EG103", "  - numpy ^1\\.7\\..*$\n", "  - conda-forge\n", []string{"EG103 3:11 regular expression"}, true},
		{"=> kept with EG103", "  - python=>3.11\n", "  - conda-forge\n", []string{"EG103 3:11 is not a conda operator"}, true},
		{"numpy= silent", "  - numpy=\n", "  - conda-forge\n", nil, false},
		{"parens silent", "  - foo[build=3](target=x)\n", "  - conda-forge\n", nil, false},
		{"parens build key", "  - foo (build=3)\n", "  - conda-forge\n", []string{"EG103 3:10 conda ignores build=3"}, true},
		{"version group outside brackets", "  - python >=3.8,(<3.10|>=3.11)\n", "  - conda-forge\n", []string{"EG103 3:18 conda drops parenthesised text"}, false},
		{"~=2", "  - python~=2\n", "  - conda-forge\n", []string{"EG103 3:11 needs a version with at least two components"}, false},
		{"url channels mixed", "  - numpy\n", "  - https://conda.anaconda.org/conda-forge/\n  - https://repo.anaconda.com/pkgs/main\n", []string{"EG108"}, false},
		{"url channel near miss", "  - numpy\n", "  - https://conda.anaconda.org/conda_forge\n", []string{"EG112"}, false},
		{"url channels silent", "  - numpy\n", "  - https://conda.anaconda.org/conda-forge/label/main\n  - https://conda.anaconda.org/pytorch\n", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// the dependency is on line 3.
			src := "name: t\ndependencies:\n" + tt.deps + "channels:\n" + tt.chs
			env := Parse("environment.yml", []byte(src), ParseOptions{Platform: "linux-64"})
			var got []string
			for _, d := range env.Diags {
				got = append(got, d.Code+" "+itoa(d.Pos.Line)+":"+itoa(d.Pos.Col)+" "+d.Message)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("findings %q, want %d like %q", got, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				f := strings.Fields(w)
				if !strings.HasPrefix(got[i], f[0]) {
					t.Errorf("finding %q, want %q", got[i], w)
					continue
				}
				if len(f) > 1 && !strings.HasPrefix(got[i], f[0]+" "+f[1]+" ") {
					t.Errorf("finding %q, want at %s", got[i], f[1])
				}
				if len(f) > 2 && !strings.Contains(got[i], strings.Join(f[2:], " ")) {
					t.Errorf("finding %q, want it to say %q", got[i], strings.Join(f[2:], " "))
				}
			}
			// a spec with an issue is kept, so the other checks still run.
			if tt.kept && (len(env.Deps) != 1 || env.Deps[0].Spec == nil) {
				t.Errorf("the spec was not kept")
			}
		})
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}
