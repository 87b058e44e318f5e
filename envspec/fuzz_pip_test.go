package envspec

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

var pipFuzzSeeds = []string{
	"torch==2.0.1+cu118",
	"jax[cuda12]>=0.4.20",
	"ray[tune]>=2.2.0",
	`cucim>=21.8.2; platform_system == "Linux"`,
	`foo ; (python_version < "3.8" or sys_platform == 'win32') and extra not in "a b"`,
	"pkg[ a , b ] (>=1.0, <2)",
	"tensorflow==2.13.*",
	"foo===1.0-weird",
	"jax-md @ git+https://github.com/google/jax-md.git@05221c5",
	"git+https://github.com/philferriere/cocoapi.git#egg=pycocotools&subdirectory=PythonAPI",
	"https://download.pytorch.org/whl/cu118/torch-2.0.1%2Bcu118-cp310-cp310-linux_x86_64.whl",
	"-e git+https://github.com/openai/CLIP.git@main#egg=clip",
	"-e ..[test]",
	"--extra-index-url https://download.pytorch.org/whl/cu118",
	"--index-url=https://x -f https://y --pre",
	"torch==2.0.1 --hash=sha256:abc",
	"setuptools==44.0.0  # note",
	"torch =1.0",
	"torch[cuda",
	"--frobnicate",
	`x; (((python_version>"3"`,
}

// pipReqShape is a requirement without its spans: what must survive a
// round trip through String.
type pipReqShape struct {
	Name, Normalized, Marker, URL, VCS, Ref string
	Extras                                  []string
	Specs                                   []string
	Editable, Bare, Path                    bool
	Options                                 []string
}

func shapeOf(r *PipRequirement) pipReqShape {
	sh := pipReqShape{
		Name: r.Name, Normalized: r.Normalized, Marker: r.Marker, URL: r.URL,
		VCS: r.VCS, Ref: r.Ref, Extras: r.Extras,
		Editable: r.Editable, Bare: r.Bare, Path: r.Path,
	}
	for _, sp := range r.Specifiers {
		sh.Specs = append(sh.Specs, sp.Op+sp.Version)
	}
	for _, o := range r.Options {
		sh.Options = append(sh.Options, o.String())
	}
	return sh
}

func pipLineText(l *PipLine) string {
	if l.Req != nil {
		return l.Req.String()
	}
	parts := make([]string, len(l.Options))
	for i, o := range l.Options {
		parts[i] = o.String()
	}
	return strings.Join(parts, " ")
}

func checkSpan(t *testing.T, in string, what string, sp Span) {
	t.Helper()
	if sp.Start < 0 || sp.End < sp.Start || sp.End > len(in) {
		t.Fatalf("ParsePipLine(%q): %s span %v outside the line", in, what, sp)
	}
}

func FuzzParsePipLine(f *testing.F) {
	for _, s := range pipFuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		l, err := ParsePipLine(in)
		// Parse takes the structs from a slab: the same reading, twice in
		// a row from one slab as in a file's list.
		sl := &slab{left: 2}
		for range 2 {
			if ls, serr := parsePipLine(in, sl); fmt.Sprint(serr) != fmt.Sprint(err) || !reflect.DeepEqual(ls, l) {
				t.Fatalf("%q: from a slab %+v %v, alone %+v %v", in, ls, serr, l, err)
			}
		}
		if err != nil {
			var pe *PipError
			if !errors.As(err, &pe) {
				t.Fatalf("ParsePipLine(%q): error %T, want *PipError", in, err)
			}
			if pe.Offset < 0 || pe.Offset > len(in) {
				t.Fatalf("ParsePipLine(%q): error offset %d outside the line", in, pe.Offset)
			}
			return
		}
		if (l.Req == nil) == (l.Option == nil) {
			t.Fatalf("ParsePipLine(%q): want exactly one of Req and Option", in)
		}
		if r := l.Req; r != nil {
			for _, sp := range []Span{r.NameSpan, r.SpecSpan, r.URLSpan, r.MarkerSpan} {
				checkSpan(t, in, "requirement", sp)
			}
			if !r.Bare && in[r.NameSpan.Start:r.NameSpan.End] != r.Name {
				t.Fatalf("ParsePipLine(%q): NameSpan covers %q, not %q", in, in[r.NameSpan.Start:r.NameSpan.End], r.Name)
			}
			if r.Normalized != NormalizePipName(r.Name) {
				t.Fatalf("ParsePipLine(%q): Normalized %q", in, r.Normalized)
			}
			for _, sp := range r.Specifiers {
				checkSpan(t, in, "specifier", sp.Span)
				if msg := pipCheckSpecVersion(sp.Op, sp.Version); msg != "" {
					t.Fatalf("ParsePipLine(%q): accepted bad specifier %s%s: %s", in, sp.Op, sp.Version, msg)
				}
			}
			// The clause that pins a version must admit that version: a
			// pin that its own clause refuses would make every verdict
			// about the pinned build wrong.
			if v, ok := r.Pinned(); ok {
				for _, sp := range r.Specifiers {
					if sp.Version == v && (sp.Op == "==" || sp.Op == "===") && !sp.Admits(v) {
						t.Fatalf("ParsePipLine(%q): the pin %s%s does not admit %q", in, sp.Op, sp.Version, v)
					}
				}
			}
		}
		for _, o := range l.Options {
			checkSpan(t, in, "option", o.Span)
			checkSpan(t, in, "option value", o.ValueSpan)
		}
		// The canonical text must parse back to the same thing.
		text := pipLineText(l)
		l2, err := ParsePipLine(text)
		if err != nil {
			t.Fatalf("ParsePipLine(%q) gave %q, which does not parse: %v", in, text, err)
		}
		if l.Req != nil {
			if l2.Req == nil {
				t.Fatalf("ParsePipLine(%q): %q re-parses as an option", in, text)
			}
			if a, b := shapeOf(l.Req), shapeOf(l2.Req); !reflect.DeepEqual(a, b) {
				t.Fatalf("ParsePipLine(%q) round trip through %q:\n%+v\n%+v", in, text, a, b)
			}
		} else {
			if l2.Req != nil || pipLineText(l2) != text {
				t.Fatalf("ParsePipLine(%q) round trip through %q changed it", in, text)
			}
		}
		if again := pipLineText(l2); again != text {
			t.Fatalf("canonical text not stable: %q then %q", text, again)
		}
	})
}

func FuzzParsePEP440(f *testing.F) {
	for _, s := range pep440Ordered {
		f.Add(s)
	}
	for _, s := range []string{"v1!2.0-alpha.1-3_dev4+Ab-1", "1.0+", "1..0", " 1.0 ", "1.0.*"} {
		f.Add(s)
	}
	ref, _ := ParsePEP440("1.0")
	f.Fuzz(func(t *testing.T, in string) {
		v, err := ParsePEP440(in)
		if err != nil {
			return
		}
		s := v.String()
		w, err := ParsePEP440(s)
		if err != nil {
			t.Fatalf("ParsePEP440(%q).String() = %q does not parse: %v", in, s, err)
		}
		if w.String() != s || v.Compare(w) != 0 || w.Compare(v) != 0 {
			t.Fatalf("round trip of %q through %q changed it", in, s)
		}
		if v.Compare(v) != 0 || v.Compare(ref) != -ref.Compare(v) {
			t.Fatalf("Compare of %q not antisymmetric", in)
		}
		p, err := ParsePEP440(v.Public())
		if err != nil || p.Local != "" || p.Compare(v) > 0 {
			t.Fatalf("Public() of %q = %q is not the version without its label", in, v.Public())
		}
		if (v.Local == "") != (p.Compare(v) == 0) {
			t.Fatalf("local label of %q should sort after its public version", in)
		}
	})
}
