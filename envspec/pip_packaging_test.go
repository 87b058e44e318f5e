package envspec

import (
	"strings"
	"testing"
)

// pip reads requirement lines with the packaging library it vendors
// (src/packaging/_parser.py, _tokenizer.py, requirements.py at packaging
// commit 053c8846). Each accepted/refused row below was run through
// packaging.requirements.Requirement at that commit.

func TestPipPackagingAccepts(t *testing.T) {
	tests := []struct {
		in     string
		name   string
		specs  string // the specifiers joined by ','
		extras string
		marker string
		issue  string // "" when no EG104 is attached
	}{
		// a trailing comma after the specifier list: packaging's
		// version_many stops at a comma not followed by a specifier.
		{in: "torch>=2.0,", name: "torch", specs: ">=2.0"},
		{in: "torch>=2.0, ", name: "torch", specs: ">=2.0"},
		{in: "torch >=2.0 ,", name: "torch", specs: ">=2.0"},
		{in: "torch>=2.0,<3,", name: "torch", specs: ">=2.0,<3"},
		{in: "torch==2.0.*,", name: "torch", specs: "==2.0.*"},
		{in: `torch>=2.0,;python_version>"3"`, name: "torch", specs: ">=2.0", marker: `python_version>"3"`},
		{in: `torch>=2.0, ; python_version>"3"`, name: "torch", specs: ">=2.0", marker: `python_version>"3"`},
		{in: "torch (>=2.0,)", name: "torch", specs: ">=2.0"},
		// a name or extra ending in '_': packaging's IDENTIFIER token ends
		// at a word boundary, and '_' is a word character; PEP 508 says no.
		{in: "foo_", name: "foo_", issue: `ends with '_': pip reads it`},
		{in: "a_b_>=1", name: "a_b_", specs: ">=1", issue: "PEP 508 and the core metadata name rule"},
		{in: `foo_ ; python_version>"3"`, name: "foo_", marker: `python_version>"3"`, issue: `pip normalises it to "foo-"`},
		{in: "torch[dev_]", name: "torch", extras: "dev_", issue: `an extra name "dev_" ends with '_'`},
		// silent neighbours
		{in: "torch==2.0.1", name: "torch", specs: "==2.0.1"},
		{in: "Foo__Bar", name: "Foo__Bar"},
		{in: "torch[]", name: "torch"},
		{in: "torch==2.0+cu118", name: "torch", specs: "==2.0+cu118"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			l, err := ParsePipLine(tt.in)
			if err != nil {
				t.Fatalf("ParsePipLine(%q): %v", tt.in, err)
			}
			r := l.Req
			if r == nil {
				t.Fatalf("no requirement")
			}
			var specs []string
			for _, s := range r.Specifiers {
				specs = append(specs, s.Op+s.Version)
			}
			if r.Name != tt.name || strings.Join(specs, ",") != tt.specs || strings.Join(r.Extras, ",") != tt.extras || r.Marker != tt.marker {
				t.Errorf("name %q specs %q extras %q marker %q, want %q %q %q %q", r.Name, strings.Join(specs, ","), strings.Join(r.Extras, ","), r.Marker, tt.name, tt.specs, tt.extras, tt.marker)
			}
			switch {
			case tt.issue == "" && len(l.Issues) > 0:
				t.Errorf("unexpected issue %q", l.Issues[0].Msg)
			case tt.issue != "" && len(l.Issues) != 1:
				t.Errorf("issues %v, want one containing %q", l.Issues, tt.issue)
			case tt.issue != "":
				if is := l.Issues[0]; !strings.Contains(is.Msg, tt.issue) || is.Hint == "" || is.Offset < 0 || is.Offset >= len(tt.in) || tt.in[is.Offset] != '_' {
					t.Errorf("issue at %d %q (hint %q), want one on the '_' containing %q", is.Offset, is.Msg, is.Hint, tt.issue)
				}
			}
			// the canonical form reads back to the same requirement.
			again, err := ParsePipLine(r.String())
			if err != nil || again.Req.String() != r.String() {
				t.Errorf("canonical %q reads back as %v, %v", r.String(), again, err)
			}
		})
	}
}

func TestPipPackagingRefuses(t *testing.T) {
	tests := []struct {
		in   string
		off  int
		want string
	}{
		{"torch>=2.0,,<3", 11, "expected a version operator"},
		{"torch (,)", 7, "expected a version operator"},
		{"torch,", 5, "invalid character ','"},
		{"foo-", 3, "must end with a letter or digit"},
		{"foo.", 3, "must end with a letter or digit"},
		{"_foo", 0, "must start with a letter or digit"},
		{"torch[a,]", 8, "expected an extra name"},
		{"torch~=2", 7, "~= needs at least two release numbers"},
		{"torch>=2.0+cu118", 7, "local version label"},
	}
	for _, tt := range tests {
		_, err := ParsePipLine(tt.in)
		pe, ok := err.(*PipError)
		if !ok {
			t.Errorf("ParsePipLine(%q) error = %v, want *PipError", tt.in, err)
			continue
		}
		if pe.Offset != tt.off || !strings.Contains(pe.Msg, tt.want) {
			t.Errorf("ParsePipLine(%q) = offset %d %q, want offset %d containing %q", tt.in, pe.Offset, pe.Msg, tt.off, tt.want)
		}
	}
}

func TestPipPackagingEnvFile(t *testing.T) {
	tests := []struct {
		line string
		want string // "" for no finding, else "EG104 line:col text"
	}{
		{"torch>=2.0,", ""},
		{"torch==2.0.1", ""},
		{"foo_==1.0", "EG104 6:10 ends with '_'"},
		{"torch>=2.0,,<3", "EG104 6:18 expected a version operator"},
	}
	for _, tt := range tests {
		src := "name: t\nchannels: [conda-forge]\ndependencies:\n  - pip\n  - pip:\n    - " + tt.line + "\n"
		env := Parse("environment.yml", []byte(src), ParseOptions{Platform: "linux-64"})
		var got []string
		for _, d := range env.Diags {
			got = append(got, d.Code+" "+itoa(d.Pos.Line)+":"+itoa(d.Pos.Col)+" "+d.Message)
		}
		switch {
		case tt.want == "" && len(got) > 0:
			t.Errorf("%q: findings %q, want none", tt.line, got)
		case tt.want != "" && len(got) != 1:
			t.Errorf("%q: findings %q, want one like %q", tt.line, got, tt.want)
		case tt.want != "":
			f := strings.SplitN(tt.want, " ", 3)
			if !strings.HasPrefix(got[0], f[0]+" "+f[1]+" ") || !strings.Contains(got[0], f[2]) {
				t.Errorf("%q: finding %q, want %q", tt.line, got[0], tt.want)
			}
		}
		if len(env.Pip) != 1 {
			t.Fatalf("%q: %d pip items", tt.line, len(env.Pip))
		}
		if strings.HasPrefix(tt.line, "foo_") && env.Pip[0].Line == nil {
			t.Errorf("%q: the line pip reads was dropped", tt.line)
		}
	}
}
