package envspec

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/internal/testshared"
)

// pipSummary renders what ParsePipLine found in one line, spans as the text
// they cover, so a table row states everything at once.
func pipSummary(l *PipLine) string {
	var f []string
	add := func(k, v string) {
		if v != "" {
			f = append(f, k+"="+v)
		}
	}
	flag := func(k string, b bool) {
		if b {
			f = append(f, k)
		}
	}
	text := func(sp Span) string {
		if sp.End == 0 {
			return ""
		}
		return l.Raw[sp.Start:sp.End]
	}
	if r := l.Req; r != nil {
		f = append(f, "req")
		add("name", r.Name)
		if r.Normalized != r.Name {
			add("norm", r.Normalized)
		}
		if r.Extras != nil {
			f = append(f, "extras=["+strings.Join(r.Extras, ",")+"]")
		}
		var specs []string
		for _, sp := range r.Specifiers {
			specs = append(specs, sp.Op+sp.Version)
			// A wheel's version span covers the file name's version only.
			if got := text(sp.Span); r.URL == "" && strings.ReplaceAll(got, " ", "") != sp.Op+sp.Version {
				specs = append(specs, "BADSPAN:"+got)
			}
		}
		add("spec", strings.Join(specs, ","))
		add("marker", r.Marker)
		add("url", r.URL)
		flag("editable", r.Editable)
		flag("bare", r.Bare)
		flag("path", r.Path)
		add("vcs", r.VCS)
		add("ref", r.Ref)
		if t := text(r.NameSpan); t != r.Name {
			add("@name", t)
		}
		add("@spec", text(r.SpecSpan))
		if t := text(r.MarkerSpan); t != r.Marker {
			add("@marker", t)
		}
		for _, o := range r.Options {
			add("opt", o.Name+"="+o.Value)
		}
	}
	for _, o := range l.Options {
		add("opt", strings.TrimSuffix(o.Name+"="+o.Value, "="))
		flag("cli-only", !o.InRequirementsFile)
		if t := text(o.ValueSpan); t != o.Value {
			add("@value", t)
		}
	}
	return strings.Join(f, " ")
}

func TestParsePipLine(t *testing.T) {
	tests := []struct{ in, want string }{
		// PEP 508 requirements.
		{"torch", "req name=torch"},
		{"torch==2.0.1+cu118", "req name=torch spec===2.0.1+cu118 @spec===2.0.1+cu118"},
		{"  torch == 2.0.1+cu118  ", "req name=torch spec===2.0.1+cu118 @spec=== 2.0.1+cu118"},
		{"PyYAML>=6.0", "req name=PyYAML norm=pyyaml spec=>=6.0 @spec=>=6.0"},
		{"Foo__Bar.baz-1", "req name=Foo__Bar.baz-1 norm=foo-bar-baz-1"},
		{"jax[cuda12]>=0.4.20", "req name=jax extras=[cuda12] spec=>=0.4.20 @spec=>=0.4.20"},
		{"deeplabcut[gui,tf]", "req name=deeplabcut extras=[gui,tf]"},
		{"pkg[ a , b ] (>=1.0, <2)", "req name=pkg extras=[a,b] spec=>=1.0,<2 @spec=>=1.0, <2"},
		{"pkg[]", "req name=pkg extras=[]"},
		{"ray[tune]>=2.2.0", "req name=ray extras=[tune] spec=>=2.2.0 @spec=>=2.2.0"},
		{"huggingface-hub>=1.3.0,<2.0", "req name=huggingface-hub spec=>=1.3.0,<2.0 @spec=>=1.3.0,<2.0"},
		{"coremltools~=6.0", "req name=coremltools spec=~=6.0 @spec=~=6.0"},
		{"matplotlib!=3.5.0", "req name=matplotlib spec=!=3.5.0 @spec=!=3.5.0"},
		{"tensorflow==2.13.*", "req name=tensorflow spec===2.13.* @spec===2.13.*"},
		{"numpy!=1.*", "req name=numpy spec=!=1.* @spec=!=1.*"},
		{"foo===1.0-weird", "req name=foo spec====1.0-weird @spec====1.0-weird"},
		{"pyqtgraph>=0.11.0rc0", "req name=pyqtgraph spec=>=0.11.0rc0 @spec=>=0.11.0rc0"},
		{"torch==v2.0", "req name=torch spec===v2.0 @spec===v2.0"},
		{`cucim>=21.8.2; platform_system == "Linux"`, `req name=cucim spec=>=21.8.2 marker=platform_system == "Linux" @spec=>=21.8.2`},
		{`imagecodecs; platform_system == "Linux"`, `req name=imagecodecs marker=platform_system == "Linux"`},
		{`pytype>=2020.6.1; platform_system != "Windows"`, `req name=pytype spec=>=2020.6.1 marker=platform_system != "Windows" @spec=>=2020.6.1`},
		{`foo ; (python_version < "3.8" or sys_platform == 'win32') and platform_machine in 'x86_64 aarch64'`,
			`req name=foo marker=(python_version < "3.8" or sys_platform == 'win32') and platform_machine in 'x86_64 aarch64'`},
		{`foo; extra not in "a b"`, `req name=foo marker=extra not in "a b"`},
		{`foo;os.name=="nt"`, `req name=foo marker=os.name=="nt"`},
		// escapes Python reads, one it keeps as written (\d) and a \N name.
		{`foo; os_name == "a\\b\n\t\d\x41\u00e9\U0001F600\101\N{LATIN SMALL LETTER A}"`, `req name=foo marker=os_name == "a\\b\n\t\d\x41\u00e9\U0001F600\101\N{LATIN SMALL LETTER A}"`},
		{"jax-md @ git+https://github.com/google/jax-md.git@05221c551e71f1b5f64458c0e3533452c22efec0",
			"req name=jax-md url=git+https://github.com/google/jax-md.git@05221c551e71f1b5f64458c0e3533452c22efec0 vcs=git ref=05221c551e71f1b5f64458c0e3533452c22efec0"},
		{"reciprocalspaceship @ git+https://github.com/rs-station/reciprocalspaceship",
			"req name=reciprocalspaceship url=git+https://github.com/rs-station/reciprocalspaceship vcs=git"},
		{`pip @ https://example.org/pip-24.0.tar.gz ; python_version >= "3.8"`,
			`req name=pip marker=python_version >= "3.8" url=https://example.org/pip-24.0.tar.gz`},
		{"torch @ https://download.pytorch.org/whl/cu118/torch-2.0.1%2Bcu118-cp310-cp310-linux_x86_64.whl#sha256=ab",
			"req name=torch spec===2.0.1+cu118 url=https://download.pytorch.org/whl/cu118/torch-2.0.1%2Bcu118-cp310-cp310-linux_x86_64.whl#sha256=ab @spec=2.0.1%2Bcu118"},
		{"foo @ git+https://host/repo.git@v2?x=1#egg=bar", "req name=foo url=git+https://host/repo.git@v2?x=1#egg=bar vcs=git ref=v2"},
		{"foo[x]@git+ssh://git@host/repo.git@v1", "req name=foo extras=[x] url=git+ssh://git@host/repo.git@v1 vcs=git ref=v1"},
		{"setuptools==44.0.0         # see note below", "req name=setuptools spec===44.0.0 @spec===44.0.0"},
		{"ftfy # needed for dino.txt", "req name=ftfy"},
		{"torch==2.0.1 --hash=sha256:abc --config-settings editable_mode=compat",
			"req name=torch spec===2.0.1 @spec===2.0.1 opt=--hash=sha256:abc opt=--config-settings=editable_mode=compat"},

		// Bare URLs and paths.
		{"git+https://github.com/Dao-AILab/flash-attention.git@5b838a8",
			"req url=git+https://github.com/Dao-AILab/flash-attention.git@5b838a8 bare vcs=git ref=5b838a8"},
		{"git+https://github.com/philferriere/cocoapi.git#egg=pycocotools&subdirectory=PythonAPI",
			"req name=pycocotools url=git+https://github.com/philferriere/cocoapi.git#egg=pycocotools&subdirectory=PythonAPI bare vcs=git"},
		{"git+git://github.com/aleaf/sfrmaker@develop", "req url=git+git://github.com/aleaf/sfrmaker@develop bare vcs=git ref=develop"},
		{"git+ssh://git@github.com/org/repo.git", "req url=git+ssh://git@github.com/org/repo.git bare vcs=git"},
		{"https://storage.googleapis.com/jax-releases/cuda101/jaxlib-0.1.51-cp37-none-manylinux2010_x86_64.whl",
			"req name=jaxlib spec===0.1.51 url=https://storage.googleapis.com/jax-releases/cuda101/jaxlib-0.1.51-cp37-none-manylinux2010_x86_64.whl bare @spec=0.1.51"},
		{"https://download.pytorch.org/whl/cu118/torch-2.0.1%2Bcu118-cp310-cp310-linux_x86_64.whl",
			"req name=torch spec===2.0.1+cu118 url=https://download.pytorch.org/whl/cu118/torch-2.0.1%2Bcu118-cp310-cp310-linux_x86_64.whl bare @spec=2.0.1%2Bcu118"},
		{`https://example.org/x-1.0.tar.gz ; sys_platform == "linux"`, `req marker=sys_platform == "linux" url=https://example.org/x-1.0.tar.gz bare`},
		{"file:.", "req url=file:. bare"},
		{".", "req url=. bare path"},
		{"./pkg", "req url=./pkg bare path"},
		{"..[test]", "req extras=[test] url=.. bare path"},
		{"submodules/simple-knn", "req url=submodules/simple-knn bare path"},
		{"dist/foo-1.0-py3-none-any.whl", "req url=dist/foo-1.0-py3-none-any.whl bare path"},
		{`C:\src\pkg`, `req url=C:\src\pkg bare path`},

		// Editables.
		{"-e .", "req url=. editable bare path"},
		{"-e.", "req url=. editable bare path"},
		{"--editable=.[gpu]", "req extras=[gpu] url=. editable bare path"},
		{"-e git+https://github.com/openai/CLIP.git@main#egg=clip",
			"req name=clip url=git+https://github.com/openai/CLIP.git@main#egg=clip editable bare vcs=git ref=main"},
		{"-e git+https://github.com/hlky/k-diffusion-sd#egg=k_diffusion",
			"req name=k_diffusion norm=k-diffusion url=git+https://github.com/hlky/k-diffusion-sd#egg=k_diffusion editable bare vcs=git"},

		// Options.
		{"--extra-index-url https://download.pytorch.org/whl/cu118", "opt=--extra-index-url=https://download.pytorch.org/whl/cu118"},
		{"--index-url=https://download.pytorch.org/whl/rocm6.4", "opt=--index-url=https://download.pytorch.org/whl/rocm6.4"},
		{"-i https://pypi.org/simple", "opt=--index-url=https://pypi.org/simple"},
		{"-ihttps://pypi.org/simple", "opt=--index-url=https://pypi.org/simple"},
		{"--find-links https://storage.googleapis.com/jax-releases/jax_cuda_releases.html", "opt=--find-links=https://storage.googleapis.com/jax-releases/jax_cuda_releases.html"},
		{"-f https://data.pyg.org/whl/torch-2.0.0+cu118.html", "opt=--find-links=https://data.pyg.org/whl/torch-2.0.0+cu118.html"},
		{"-r requirements.txt  # Install additional packages", "opt=--requirement=requirements.txt"},
		{"--requirement requirements/base.txt", "opt=--requirement=requirements/base.txt"},
		{"-c constraints.txt", "opt=--constraint=constraints.txt"},
		{"--pre", "opt=--pre"},
		{"--no-binary :all:", "opt=--no-binary=:all:"},
		{"--only-binary=torch", "opt=--only-binary=torch"},
		{"--prefer-binary", "opt=--prefer-binary"},
		{"--trusted-host download.pytorch.org", "opt=--trusted-host=download.pytorch.org"},
		{"--no-index", "opt=--no-index"},
		{"--use-feature fast-deps", "opt=--use-feature=fast-deps"},
		{"--no-deps", "opt=--no-deps cli-only"},
		{"-U", "opt=--upgrade cli-only"},
		{"--upgrade", "opt=--upgrade cli-only"},
		{"-i https://a.example/simple --trusted-host a.example", "opt=--index-url=https://a.example/simple opt=--trusted-host=a.example"},
	}
	for _, tt := range tests {
		l, err := ParsePipLine(tt.in)
		if err != nil {
			t.Errorf("ParsePipLine(%q): %v", tt.in, err)
			continue
		}
		if l.Raw != tt.in {
			t.Errorf("ParsePipLine(%q).Raw = %q", tt.in, l.Raw)
		}
		if (l.Req == nil) == (l.Option == nil) {
			t.Errorf("ParsePipLine(%q): want exactly one of Req and Option", tt.in)
		}
		if l.Option != nil && *l.Option != l.Options[0] {
			t.Errorf("ParsePipLine(%q): Option is not Options[0]", tt.in)
		}
		if got := pipSummary(l); got != tt.want {
			t.Errorf("ParsePipLine(%q)\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

func TestParsePipLineErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		msg    string // substring of the message
	}{
		{"", 0, "empty"},
		{"   # only a comment", 0, "empty"},
		{"torch===", 8, "missing version after ==="},
		{"torch==", 7, "missing version after =="},
		{"torch==2.0.1+", 7, `invalid version "2.0.1+"`},
		{"torch[cuda", 5, "unterminated extras"},
		{"torch[cuda,]", 11, "expected an extra name"},
		{"torch[cu da]", 9, "expected ',' or ']'"},
		{"torch>=1.0;", 10, "empty environment marker"},
		{"--index-url", 0, "--index-url needs a value"},
		{"--index-url --pre", 0, "--index-url needs a value"},
		{"--index-url=", 11, "empty value"},
		{"--frobnicate", 0, "unknown pip option --frobnicate"},
		{"-x foo", 0, "unknown pip option -x"},
		{"--pre=yes", 6, "takes no value"},
		{"==1.0", 0, "missing package name"},
		{"torch =1.0", 6, "invalid operator '='"},
		{"nibabel=2.5.1", 7, "invalid operator '='"},
		{"torch 1.0", 6, "expected a version specifier"},
		{"-torch", 0, "unknown pip option -t"},
		{"_torch", 0, "must start with a letter or digit"},
		{"tørch==1.0", 1, "invalid character 'ø' in package name"},
		{"torch*", 5, "invalid character '*'"},
		{"torch-==1.0", 5, "must end with a letter or digit"},
		{"torch==1.0 extra", 11, "unexpected"},
		{"torch>=1.0+cu118", 7, "local version label +cu118 is only allowed with == and !="},
		{"torch>=1.*", 7, "wildcard"},
		{"torch==1.0a1.*", 7, "invalid wildcard version"},
		{"torch~=1", 7, "~= needs at least two release numbers"},
		{"torch=>1.0", 5, "invalid operator '='"},
		{"tensorflow-examples==3fda6151279ba70c334997de7fd62a6a7bc749d3-", 21, "invalid version"},
		{"torch (>=1.0", 6, "unterminated '('"},
		{"torch>=1.0,,<2", 11, "expected a version operator"}, // a trailing comma is accepted (packaging), an empty item is not
		{`torch; python_version < "3.8`, 24, "unterminated string"},
		{`torch; pyver < "3.8"`, 7, `unknown environment marker variable "pyver"`},
		{`torch; python_version = "3.8"`, 22, "invalid operator '='"},
		{`torch; (python_version < "3.8"`, 7, "unterminated '('"},
		{`torch; python_version < "3.8" and`, 33, "expected a marker variable"},
		{`torch; python_version < "3.8" xor os_name == "nt"`, 30, "unexpected"},
		{`torch; python_version not "3.8"`, 26, "expected 'in' after 'not'"},
		// packaging reads a marker's quoted string as a Python literal
		// (test_error_invalid_marker_malformed_quoted_string).
		{`name; os_name == "C:\"`, 20, "backslash before the closing quote"},
		{`name; os_name == "\x"`, 18, `\x needs 2 hex digits`},
		{`name; os_name == 'a\u12g'`, 19, `\u needs 4 hex digits`},
		{`name; os_name == "\U00110000"`, 18, "beyond U+10FFFF"},
		{`name; os_name == "\N"`, 18, `\N needs a character name`},
		{"name; os_name == 'a\x00'", 19, "NUL"},
		{"foo @", 5, "missing URL"},
		{"foo @ not-a-url", 6, "expected a URL"},
		{"foo @ https://x/y.tar.gz bar", 25, "expected ';' or end of line after URL"},
		{"torch==2.0 --index-url https://x", 11, "cannot follow a requirement"},
		{"torch==2.0 --hash", 11, "--hash needs a value"},
		{"-e git+https://h/x#egg=ok -r more.txt", 26, "cannot follow a requirement"},
		{"-e https://example.org/x.whl", 3, "-e needs a local path or a VCS URL"},
		{"--pre -e .", 6, "-e must start its own line"},
		{"git+https://github.com/x/y#egg=-bad", 31, "invalid project name"},
		{"git+https://h/x y", 15, "unexpected space in URL"},
		{"..[a b]", 5, "expected ',' or ']'"},
	}
	for _, tt := range tests {
		l, err := ParsePipLine(tt.in)
		if err == nil {
			t.Errorf("ParsePipLine(%q) = %s, want an error", tt.in, pipSummary(l))
			continue
		}
		var pe *PipError
		if !errors.As(err, &pe) {
			t.Errorf("ParsePipLine(%q) error is %T, want *PipError", tt.in, err)
			continue
		}
		if pe.Offset != tt.offset || !strings.Contains(pe.Msg, tt.msg) {
			t.Errorf("ParsePipLine(%q) = offset %d %q, want offset %d containing %q", tt.in, pe.Offset, pe.Msg, tt.offset, tt.msg)
		}
		if pe.Offset < 0 || pe.Offset > len(tt.in) {
			t.Errorf("ParsePipLine(%q): offset %d outside the line", tt.in, pe.Offset)
		}
	}
}

func TestPipPinned(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" when not pinned
	}{
		{"torch==2.0.1+cu118", "2.0.1+cu118"},
		{"torch===2.0.1", "2.0.1"},
		{"torch>=2.0,==2.1", "2.1"},
		{"torch==2.*", ""},
		{"torch>=2.0", ""},
		{"torch", ""},
		{"https://example.org/torch-2.0.1%2Bcu118-cp310-cp310-linux_x86_64.whl", "2.0.1+cu118"},
	}
	for _, tt := range tests {
		l, err := ParsePipLine(tt.in)
		if err != nil {
			t.Fatalf("ParsePipLine(%q): %v", tt.in, err)
		}
		got, ok := l.Req.Pinned()
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("%q.Pinned() = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}

func TestPipAdmits(t *testing.T) {
	tests := []struct {
		req string
		yes []string
		no  []string
	}{
		{"torch==2.0.1", []string{"2.0.1", "2.0.1+cu118", "2.0.1+cpu", "2.0.1.0", "v2.0.1"}, []string{"2.0.2", "2.0.1.post1", "2.0.1rc1", "2.0"}},
		{"torch==2.0.1+cu118", []string{"2.0.1+cu118", "2.0.1+CU118"}, []string{"2.0.1", "2.0.1+cu117", "2.0.1+cu118.1"}},
		{"torch!=2.0.1", []string{"2.0.2", "2.0.0"}, []string{"2.0.1", "2.0.1+cu118"}},
		{"torch!=2.0.1+cu118", []string{"2.0.1", "2.0.1+cpu"}, []string{"2.0.1+cu118"}},
		{"tensorflow==2.13.*", []string{"2.13", "2.13.0", "2.13.1", "2.13.1+cpu", "2.13.0rc1", "2.13.1.post1"}, []string{"2.12.9", "2.14.0", "2.1"}},
		{"numpy!=1.*", []string{"2.0", "0.9"}, []string{"1.0", "1.26.4"}},
		{"x==1!2.*", []string{"1!2.0"}, []string{"2.0"}},
		{"numpy<2", []string{"1.26.4", "1.26.4+local", "1.9"}, []string{"2", "2.0.0", "2.0.0rc1", "2.0.dev0", "2.1"}},
		{"numpy<2.0rc2", []string{"2.0rc1", "1.9"}, []string{"2.0rc2", "2.0"}},
		{"x<=2.0", []string{"2.0", "2.0+local", "1.0"}, []string{"2.0.post1", "2.1"}},
		{"x>1.0", []string{"1.1", "1.0.1", "2.0rc1"}, []string{"1.0", "1.0.post1", "1.0+local", "0.9"}},
		{"x>1.0.post1", []string{"1.0.post2", "1.1"}, []string{"1.0.post1", "1.0"}},
		// > and < exclude the pre-, post- and local releases of V itself,
		// not of every version with V's release numbers (packaging's
		// bounds_for_spec; its test_specifiers vectors).
		{"x>1.0.dev1", []string{"1.0.dev2", "1.0+local", "1.0a1", "1.0"}, []string{"1.0.dev1", "1.0.dev1+local", "1.0.dev0"}},
		{"x>1.0a1", []string{"1.0a2+local", "1.0.post1", "1.0"}, []string{"1.0a1", "1.0a1+local", "1.0a1.post1", "1.0a1.post1.dev1"}},
		{"x>1.0.post1", []string{"1.0.post2+local", "1.0.post2.dev0"}, []string{"1.0.post1+local", "1.0.post1.dev5"}},
		{"x>1.0", []string{"1.0.1", "1!0.1"}, []string{"1.0.0.post1", "1.0.0+local", "1.0.post1.dev1+x"}},
		{"x<1.0.post1", []string{"1.0a1", "1.0.dev5", "1.0", "1.0+local"}, []string{"1.0.post1.dev0", "1.0.post1"}},
		{"x<1.0", []string{"0.9+local", "0.9.post1"}, []string{"1.0.dev0", "1.0rc1", "1.0.dev0+local"}},
		{"x>=1.0", []string{"1.0", "1.0+cu118", "1.0.post1", "3"}, []string{"1.0rc1", "0.9"}},
		{"coremltools~=6.0", []string{"6.0", "6.3", "6.99.1"}, []string{"5.9", "7.0", "6.0rc1"}},
		{"x~=1.4.5", []string{"1.4.5", "1.4.9"}, []string{"1.5.0", "1.4.4"}},
		{"x~=2.2.post3", []string{"2.2.post3", "2.9"}, []string{"2.2", "3.0"}},
		{"huggingface-hub>=1.3.0,<2.0", []string{"1.3.0", "1.99"}, []string{"1.2.9", "2.0", "2.0rc1"}},
		{"x===1.0-weird", []string{"1.0-weird", "1.0-WEIRD"}, []string{"1.0", "1.0-weird2"}},
		{"x", []string{"1.0", "not a version"}, nil},
		{"x>=1.0", nil, []string{"not a version", ""}},
	}
	for _, tt := range tests {
		l, err := ParsePipLine(tt.req)
		if err != nil {
			t.Fatalf("ParsePipLine(%q): %v", tt.req, err)
		}
		for _, v := range tt.yes {
			if !l.Req.Admits(v) {
				t.Errorf("%q should admit %q", tt.req, v)
			}
		}
		for _, v := range tt.no {
			if l.Req.Admits(v) {
				t.Errorf("%q should not admit %q", tt.req, v)
			}
		}
	}
}

func TestNormalizePipName(t *testing.T) {
	tests := map[string]string{
		"Foo":            "foo",
		"foo_bar":        "foo-bar",
		"Foo.._-Bar":     "foo-bar",
		"cupy-cuda12x":   "cupy-cuda12x",
		"ruamel.yaml":    "ruamel-yaml",
		"Segment_Models": "segment-models",
		"foo_":           "foo-", // pip reads the name (packaging); canonicalize_name keeps the separator
	}
	for in, want := range tests {
		if got := NormalizePipName(in); got != want {
			t.Errorf("NormalizePipName(%q) = %q, want %q", in, got, want)
		}
	}
}

// pipCorpusDir finds the shared corpus beside the module root.
func pipCorpusDir(t *testing.T) string {
	t.Helper()
	return testshared.Dir(t, "corpus/realworld")
}

// corpusPipLines extracts the items of `- pip:` blocks, YAML quotes and
// comments removed: enough YAML for these files, not a YAML parser.
func corpusPipLines(t *testing.T, path string) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	pipIndent := -1
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimLeft(line, " \t")
		indent := len(line) - len(trimmed)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if strings.HasPrefix(trimmed, "- pip:") {
			pipIndent = indent
			continue
		}
		if pipIndent < 0 {
			continue
		}
		if indent <= pipIndent || !strings.HasPrefix(trimmed, "- ") {
			pipIndent = -1
			continue
		}
		item := strings.TrimSpace(trimmed[2:])
		if len(item) >= 2 && (item[0] == '"' || item[0] == '\'') {
			if end := strings.LastIndexByte(item, item[0]); end > 0 {
				item = item[1:end]
			}
		}
		out = append(out, item)
	}
	return out
}

func TestPipCorpus(t *testing.T) {
	dir := pipCorpusDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.yml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files in %s: %v", dir, err)
	}
	// Lines pip itself rejects.
	invalid := map[string]bool{
		"nibabel=2.5.1": true, // single '=' is conda syntax
		"tensorflow-examples==3fda6151279ba70c334997de7fd62a6a7bc749d3-": true, // not a PEP 440 version
	}
	var n, reqs, opts int
	seenInvalid := map[string]bool{}
	for _, file := range files {
		for _, line := range corpusPipLines(t, file) {
			n++
			l, err := ParsePipLine(line)
			if invalid[line] {
				seenInvalid[line] = true
				if err == nil {
					t.Errorf("%s: %q should be rejected", filepath.Base(file), line)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: %q: %v", filepath.Base(file), line, err)
				continue
			}
			if l.Req != nil {
				reqs++
			} else {
				opts++
			}
		}
	}
	for line := range invalid {
		if !seenInvalid[line] {
			t.Errorf("corpus no longer has %q: update the list", line)
		}
	}
	// The corpus has about 2,400 pip lines; far fewer means the extraction broke.
	if n < 1000 {
		t.Errorf("extracted only %d pip lines", n)
	}
	t.Logf("%d pip lines: %d requirements, %d options", n, reqs, opts)
}

// ExamplePipRequirement_Admits shows local-version matching.
func ExamplePipRequirement_Admits() {
	l, _ := ParsePipLine("torch==2.0.1")
	fmt.Println(l.Req.Admits("2.0.1+cu118"))
	l, _ = ParsePipLine("torch==2.0.1+cu118")
	fmt.Println(l.Req.Admits("2.0.1+cu117"))
	// Output:
	// true
	// false
}
