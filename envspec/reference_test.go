package envspec

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The differential tests below run the vectors of conda's and packaging's
// own test suites (testdata/reference/*.tsv, extracted by gen.py there,
// each file naming its repository, path and commit) through envspec. A
// vector on which envspec knowingly differs is listed in
// testdata/reference/divergences.tsv with the reason; for those the test
// asserts that envspec still differs, so a fix that removes the divergence
// must also remove the entry (and its line in docs/semantics.md).

type refVector struct {
	file string
	line int
	args []string // kind first; the origin test is dropped
}

func (v refVector) key() string { return v.file + "\t" + strings.Join(v.args, "\t") }

func refUnescape(t *testing.T, s string) string {
	u, err := strconv.Unquote(`"` + strings.ReplaceAll(s, `"`, `\"`) + `"`)
	if err != nil {
		t.Fatalf("bad escape in %q: %v", s, err)
	}
	return u
}

func readRefVectors(t *testing.T, name string) []refVector {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "reference", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []refVector
	header := map[string]bool{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "# ") {
			if k, _, ok := strings.Cut(line[2:], ":"); ok {
				header[k] = true
			}
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 2 {
			t.Fatalf("%s:%d: fewer than two columns", name, n)
		}
		// the last column names the reference test the vector comes from.
		out = append(out, refVector{file: name, line: n, args: cols[:len(cols)-1]})
	}
	for _, k := range []string{"repository", "path", "commit"} {
		if !header[k] {
			t.Errorf("%s: header has no %q line", name, k)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no vectors", name)
	}
	return out
}

// refDivergences reads divergences.tsv: the vector (file and columns, as in
// its file) and, last, the reason.
func refDivergences(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "reference", "divergences.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		reason := cols[len(cols)-1]
		if len(cols) < 3 || !strings.HasPrefix(reason, "because ") {
			t.Fatalf("divergences.tsv:%d: want file, vector columns and a reason starting with \"because \"", i+1)
		}
		out[strings.Join(cols[:len(cols)-1], "\t")] = reason
	}
	return out
}

// refCheck is one vector's verdict: "" when envspec agrees, else what
// envspec did instead.
type refCheck func(t *testing.T, args []string) string

func runRefVectors(t *testing.T, file string, checks map[string]refCheck) {
	divs := refDivergences(t)
	vecs := readRefVectors(t, file)
	agree, documented := 0, 0
	for _, v := range vecs {
		check, ok := checks[v.args[0]]
		if !ok {
			t.Errorf("%s:%d: unknown kind %q", file, v.line, v.args[0])
			continue
		}
		args := make([]string, len(v.args))
		for i, a := range v.args {
			args[i] = refUnescape(t, a)
		}
		got := check(t, args)
		_, listed := divs[v.key()]
		switch {
		case got == "" && listed:
			t.Errorf("%s:%d: %q now agrees with the reference; drop it from divergences.tsv and docs/semantics.md", file, v.line, v.args)
		case got == "":
			agree++
		case listed:
			documented++
		default:
			t.Errorf("%s:%d: %q: %s", file, v.line, v.args, got)
		}
	}
	t.Logf("%s: %d vectors, %d agree, %d documented divergences", file, len(vecs), agree, documented)
}

func refBool(s string) bool { return s == "true" }

func TestReferenceCondaVersion(t *testing.T) {
	parse := func(s string) (Version, string) {
		v, err := ParseVersion(s)
		if err != nil {
			return v, "ParseVersion: " + err.Error()
		}
		return v, ""
	}
	cmp := func(a []string, ok func(int) bool) string {
		x, e := parse(a[1])
		if e != "" {
			return e
		}
		y, e := parse(a[2])
		if e != "" {
			return e
		}
		if c := x.Compare(y); !ok(c) {
			return "Compare = " + strconv.Itoa(c)
		}
		return ""
	}
	runRefVectors(t, "conda_version.tsv", map[string]refCheck{
		"le": func(t *testing.T, a []string) string { return cmp(a, func(c int) bool { return c <= 0 }) },
		"eq": func(t *testing.T, a []string) string { return cmp(a, func(c int) bool { return c == 0 }) },
		"ne": func(t *testing.T, a []string) string { return cmp(a, func(c int) bool { return c != 0 }) },
		"version-invalid": func(t *testing.T, a []string) string {
			if _, err := ParseVersion(a[1]); err == nil {
				return "accepted"
			}
			return ""
		},
		"spec-invalid": func(t *testing.T, a []string) string {
			if _, err := ParseVersionSpec(a[1]); err == nil {
				return "accepted"
			}
			return ""
		},
		// spec-str: VersionSpec(S).spec, conda's canonical string.
		"spec-str": func(t *testing.T, a []string) string {
			s, err := ParseVersionSpec(a[1])
			if err != nil {
				return "ParseVersionSpec: " + err.Error()
			}
			if s.String() != a[2] {
				return "String() = " + s.String()
			}
			return ""
		},
		// spec-eq, spec-ne: VersionSpec(A) == VersionSpec(B), which conda
		// decides on the canonical strings.
		"spec-eq": func(t *testing.T, a []string) string { return specEq(a, true) },
		"spec-ne": func(t *testing.T, a []string) string { return specEq(a, false) },
		"match": func(t *testing.T, a []string) string {
			s, err := ParseVersionSpec(a[1])
			if err != nil {
				return "ParseVersionSpec: " + err.Error()
			}
			if got := s.MatchString(a[2]); got != refBool(a[3]) {
				return "MatchString = " + strconv.FormatBool(got)
			}
			return ""
		},
	})
}

func specEq(a []string, want bool) string {
	x, err := ParseVersionSpec(a[1])
	if err != nil {
		return "ParseVersionSpec: " + err.Error()
	}
	y, err := ParseVersionSpec(a[2])
	if err != nil {
		return "ParseVersionSpec: " + err.Error()
	}
	if got := x.String() == y.String(); got != want {
		return "String() " + x.String() + " and " + y.String()
	}
	return ""
}

func TestReferenceCondaMatchSpec(t *testing.T) {
	runRefVectors(t, "conda_matchspec.tsv", map[string]refCheck{
		"valid": func(t *testing.T, a []string) string {
			if _, err := ParseMatchSpec(a[1]); err != nil {
				return "ParseMatchSpec: " + err.Error()
			}
			return ""
		},
		// cbform: conda_build_form(), "name[ version[ build]]", with the
		// version as conda writes it ("*" where only a build is given).
		"cbform": func(t *testing.T, a []string) string {
			m, err := ParseMatchSpec(a[1])
			if err != nil {
				return "ParseMatchSpec: " + err.Error()
			}
			got := m.Name
			switch v := m.Version.String(); {
			case m.Build != "":
				if m.Version.IsAny() {
					v = "*"
				}
				got += " " + v + " " + m.Build
			case !m.Version.IsAny():
				got += " " + v
			}
			if got != a[2] {
				return "got " + got
			}
			return ""
		},
		"canon": func(t *testing.T, a []string) string {
			m, err := ParseMatchSpec(a[1])
			if err != nil {
				return "ParseMatchSpec: " + err.Error()
			}
			if m.String() != a[2] {
				return "String() = " + m.String()
			}
			return ""
		},
		"name": func(t *testing.T, a []string) string {
			m, err := ParseMatchSpec(a[1])
			if err != nil {
				return "ParseMatchSpec: " + err.Error()
			}
			if m.Name != a[2] {
				return "Name = " + m.Name
			}
			return ""
		},
		"spec-invalid": func(t *testing.T, a []string) string {
			if _, err := ParseMatchSpec(a[1]); err == nil {
				return "accepted"
			}
			return ""
		},
		// record: does the spec match the package name-version-build?
		"record": func(t *testing.T, a []string) string {
			m, err := ParseMatchSpec(a[1])
			if err != nil {
				return "ParseMatchSpec: " + err.Error()
			}
			j := strings.LastIndexByte(a[2], '-')
			i := strings.LastIndexByte(a[2][:j], '-')
			name, version, build := a[2][:i], a[2][i+1:j], a[2][j+1:]
			got := (m.Name == "*" || m.Name == name) && m.Admits(version) && m.MatchBuild(build)
			if got != refBool(a[3]) {
				return "matches = " + strconv.FormatBool(got)
			}
			return ""
		},
		"parse": func(t *testing.T, a []string) string {
			m, err := ParseMatchSpec(a[1])
			if err != nil {
				return "ParseMatchSpec: " + err.Error()
			}
			want := map[string]string{}
			for _, f := range a[2:] {
				k, v, _ := strings.Cut(f, "=")
				want[k] = v
			}
			got := map[string]string{"name": m.Name, "channel": m.Channel, "subdir": m.Subdir, "build": m.Build}
			if !m.Version.IsAny() {
				got["version"] = m.Version.String()
			}
			// conda's parser keeps "version": "*"; both mean any version.
			if v, ok := want["version"]; ok {
				s, err := ParseVersionSpec(v)
				if err != nil {
					return "expected version " + v + " does not parse: " + err.Error()
				}
				want["version"] = s.String()
				if s.IsAny() {
					delete(want, "version")
				}
			}
			for _, k := range []string{"build_number", "md5"} {
				if _, ok := want[k]; ok {
					got[k] = m.Keys[k]
				}
			}
			var diffs []string
			for _, k := range []string{"name", "channel", "subdir", "version", "build", "build_number", "md5"} {
				if got[k] != want[k] {
					diffs = append(diffs, k+"="+got[k])
				}
			}
			return strings.Join(diffs, " ")
		},
	})
}

func TestReferencePackagingVersion(t *testing.T) {
	parse := func(s string) (PEP440Version, string) {
		v, err := ParsePEP440(s)
		if err != nil {
			return v, "ParsePEP440: " + err.Error()
		}
		return v, ""
	}
	field := func(f func(PEP440Version) string) refCheck {
		return func(t *testing.T, a []string) string {
			v, e := parse(a[1])
			if e != "" {
				return e
			}
			if got := f(v); got != a[2] {
				return "got " + got
			}
			return ""
		}
	}
	runRefVectors(t, "packaging_version.tsv", map[string]refCheck{
		"le": func(t *testing.T, a []string) string {
			x, e := parse(a[1])
			if e != "" {
				return e
			}
			y, e := parse(a[2])
			if e != "" {
				return e
			}
			if c := x.Compare(y); c > 0 {
				return "Compare = " + strconv.Itoa(c)
			}
			return ""
		},
		"valid": func(t *testing.T, a []string) string { _, e := parse(a[1]); return e },
		"invalid": func(t *testing.T, a []string) string {
			if _, e := parse(a[1]); e == "" {
				return "accepted"
			}
			return ""
		},
		"normalized": field(PEP440Version.String),
		"public":     field(PEP440Version.Public),
		"base": field(func(v PEP440Version) string {
			if v.Epoch != 0 {
				return strconv.Itoa(v.Epoch) + "!" + v.BaseRelease()
			}
			return v.BaseRelease()
		}),
		"local":      field(func(v PEP440Version) string { return v.Local }),
		"prerelease": field(func(v PEP440Version) string { return strconv.FormatBool(v.IsPrerelease()) }),
	})
}

func TestReferencePackagingSpecifiers(t *testing.T) {
	// A specifier alone is read as the requirement "x <spec>": with a
	// space, so that an operator-less "2.0" is not taken into the name.
	runRefVectors(t, "packaging_specifiers.tsv", map[string]refCheck{
		"valid": func(t *testing.T, a []string) string {
			if _, err := ParsePipLine("x " + a[1]); err != nil {
				return err.Error()
			}
			return ""
		},
		"invalid": func(t *testing.T, a []string) string {
			if _, err := ParsePipLine("x " + a[1]); err == nil {
				return "accepted"
			}
			return ""
		},
		"match": func(t *testing.T, a []string) string {
			l, err := ParsePipLine("x " + a[1])
			if err != nil {
				return err.Error()
			}
			if got := l.Req.Admits(a[2]); got != refBool(a[3]) {
				return "Admits = " + strconv.FormatBool(got)
			}
			return ""
		},
	})
}

func TestReferencePackagingRequirements(t *testing.T) {
	runRefVectors(t, "packaging_requirements.tsv", map[string]refCheck{
		"valid": func(t *testing.T, a []string) string {
			l, err := ParsePipLine(a[1])
			if err != nil {
				return err.Error()
			}
			r := l.Req
			if r == nil {
				return "not a requirement"
			}
			extras := append([]string(nil), r.Extras...)
			sort.Strings(extras)
			// packaging compares specifier sets, not their order.
			var specs []string
			for _, s := range r.Specifiers {
				specs = append(specs, s.Op+s.Version)
			}
			sort.Strings(specs)
			want := strings.Split(a[4], ",")
			sort.Strings(want)
			var diffs []string
			if r.Name != a[2] {
				diffs = append(diffs, "name="+r.Name)
			}
			if strings.Join(extras, ",") != a[3] {
				diffs = append(diffs, "extras="+strings.Join(extras, ","))
			}
			if r.URL == "" && strings.Join(specs, ",") != strings.Join(want, ",") {
				diffs = append(diffs, "specifiers="+strings.Join(specs, ","))
			}
			if r.URL != a[5] {
				diffs = append(diffs, "url="+r.URL)
			}
			return strings.Join(diffs, " ")
		},
		"invalid": func(t *testing.T, a []string) string {
			if _, err := ParsePipLine(a[1]); err == nil {
				return "accepted"
			}
			return ""
		},
	})
}

func TestReferencePackagingMarkers(t *testing.T) {
	runRefVectors(t, "packaging_markers.tsv", map[string]refCheck{
		"valid": func(t *testing.T, a []string) string {
			if _, err := ParsePipLine("x ; " + a[1]); err != nil {
				return err.Error()
			}
			return ""
		},
		"invalid": func(t *testing.T, a []string) string {
			if _, err := ParsePipLine("x ; " + a[1]); err == nil {
				return "accepted"
			}
			return ""
		},
	})
}

// TestReferenceDivergencesListed: every entry of divergences.tsv names a
// vector that exists, so a regenerated file cannot leave a stale reason.
func TestReferenceDivergencesListed(t *testing.T) {
	have := map[string]bool{}
	for name := range refDivergenceFiles(t) {
		for _, v := range readRefVectors(t, name) {
			have[v.key()] = true
		}
	}
	for k := range refDivergences(t) {
		if !have[k] {
			t.Errorf("divergences.tsv lists %q, which no vector file holds", k)
		}
	}
}

func refDivergenceFiles(t *testing.T) map[string]bool {
	out := map[string]bool{}
	for k := range refDivergences(t) {
		f, _, _ := strings.Cut(k, "\t")
		out[f] = true
	}
	return out
}
