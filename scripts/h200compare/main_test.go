package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/envguard/envguard/cli"
)

const fixtureDir = "../../native/testdata/fatbin"

// An H200 list file as scripts/h200-cuobjdump-list.sh writes it.
const h200List = `ELF file    1: libx.1.sm_75.cubin
ELF file    2: libx.2.sm_90a.cubin
ELF file    3: libx.3.sm_90a.cubin
--- rc=0
PTX file    1: libx.1.sm_120.ptx
--- rc=0
`

const noCode = `cuobjdump info    : File '/opt/torch/.venv/lib/libz.so' does not contain device code
--- rc=255
cuobjdump info    : File '/opt/torch/.venv/lib/libz.so' does not contain device code
--- rc=255
`

func TestParseList(t *testing.T) {
	l, err := parseList(strings.NewReader(h200List))
	if err != nil || l.sass["sm_90a"] != 2 || l.sass["sm_75"] != 1 || len(l.sass) != 2 || l.ptx["sm_120"] != 1 || len(l.ptx) != 1 {
		t.Errorf("%v %v", l, err)
	}
	l, err = parseList(strings.NewReader(noCode))
	if err != nil || len(l.sass)+len(l.ptx) != 0 {
		t.Errorf("no device code: %v %v", l, err)
	}
}

// inspectJSON runs envguard inspect in-process and writes its JSON.
func inspectJSON(t *testing.T, prefix string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := cli.Main([]string{"inspect", "--format", "json", prefix}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("inspect exit %d: %s", code, errb.String())
	}
	p := filepath.Join(t.TempDir(), "inspect.json")
	os.WriteFile(p, out.Bytes(), 0o644)
	return p
}

// TestCompareFixtures: over the nvcc fixtures, envguard and cuobjdump
// agree; a list changed by hand is found and said.
func TestCompareFixtures(t *testing.T) {
	lists := filepath.Join(t.TempDir(), "lists")
	if err := listsFromFixtures(fixtureDir, lists); err != nil {
		t.Fatal(err)
	}
	js := inspectJSON(t, fixtureDir)
	res, err := compare(fixtureDir, lists, js)
	if err != nil {
		t.Fatal(err)
	}
	if res.libraries != 14 || res.withCode != 14 || res.equal != 14 || res.differ != 0 || len(res.lines) != 0 {
		t.Fatalf("%+v", res)
	}

	// cuobjdump lists one sm_86 fewer and an sm_89 more for mode_size.so,
	// and nothing for sm80.so.
	p := filepath.Join(lists, "lists", "mode_size.so.txt")
	b, _ := os.ReadFile(p)
	s := strings.Replace(string(b), "ELF file    3: mode_size.3.sm_86.cubin\n", "ELF file    3: mode_size.3.sm_89.cubin\n", 1)
	os.WriteFile(p, []byte(s), 0o644)
	os.WriteFile(filepath.Join(lists, "lists", "sm80.so.txt"), []byte(noCode), 0o644)
	res, err = compare(fixtureDir, lists, js)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"mode_size.so: sass only envguard: sm_86 x1; sass only cuobjdump: sm_89 x1",
		"sm80.so: sass only envguard: sm_80 x2",
	}
	if res.differ != 2 || res.equal != 12 || strings.Join(res.lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("%+v\n%s", res, strings.Join(res.lines, "\n"))
	}
}

// TestScript runs scripts/h200-compare.sh as CI and the GPU machine do,
// with envguard and the comparer built.
func TestScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds envguard")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "../../cmd/envguard", ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	compare := filepath.Join(bin, "h200compare")
	if runtime.GOOS == "windows" {
		t.Skip("bash script")
	}
	lists := filepath.Join(t.TempDir(), "lists")
	mk := exec.Command(compare, "-make-lists", fixtureDir, lists)
	if out, err := mk.CombinedOutput(); err != nil {
		t.Fatalf("-make-lists: %v\n%s", err, out)
	}
	run := func() (string, int) {
		cmd := exec.Command("bash", "../h200-compare.sh", fixtureDir, lists)
		cmd.Env = append(os.Environ(), "ENVGUARD="+filepath.Join(bin, "envguard"), "H200_COMPARE="+compare)
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	if out, code := run(); code != 0 || out != "14 libraries, 14 with device code, 14 equal, 0 differ\n" {
		t.Errorf("exit %d:\n%s", code, out)
	}
	os.WriteFile(filepath.Join(lists, "lists", "ptx120.so.txt"), []byte("PTX file    1: ptx120.1.sm_121.ptx\n"), 0o644)
	if out, code := run(); code != 1 || out != "ptx120.so: ptx only envguard: sm_120 x1; ptx only cuobjdump: sm_121 x1\n14 libraries, 14 with device code, 13 equal, 1 differ\n" {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"a"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "usage: h200compare PREFIX LISTS_DIR INSPECT_JSON") {
		t.Errorf("exit %d: %s", code, errb.String())
	}
	if code := run([]string{"x", t.TempDir(), filepath.Join(t.TempDir(), "none.json")}, &out, &errb); code != 2 {
		t.Errorf("a missing JSON: exit %d", code)
	}
}

// FuzzParseList: any bytes as a list file.
func FuzzParseList(f *testing.F) {
	f.Add([]byte(h200List))
	f.Add([]byte(noCode))
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := parseList(bytes.NewReader(b))
		if err != nil {
			return
		}
		for k, n := range l.sass {
			if n <= 0 || !strings.HasPrefix(k, "sm_") {
				t.Fatalf("sass %q: %d", k, n)
			}
		}
	})
}

// TestRelocatableSkipped: entries of __nv_relfatbin are not held to
// cuobjdump's lists, which do not show them.
func TestRelocatableSkipped(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "lists"), 0o755)
	os.WriteFile(filepath.Join(dir, "libraries.tsv"), []byte("10\tlib/libnccl.so.2\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "lists", "lib%libnccl.so.2.txt"), []byte("ELF file    1: libnccl.1.sm_90.cubin\n--- rc=0\n--- rc=255\n"), 0o644)
	js := filepath.Join(dir, "inspect.json")
	os.WriteFile(js, []byte(`{"libraries": [{"path": "/p/lib/libnccl.so.2", "entries": [
		{"kind": "sass", "cuobjdump": "sm_90", "section": ".nv_fatbin"},
		{"kind": "sass", "cuobjdump": "sm_90", "section": "__nv_relfatbin"},
		{"kind": "ptx", "cuobjdump": "sm_90", "section": "__nv_relfatbin"}]}], "errors": []}`), 0o644)
	res, err := compare("/p", dir, js)
	if err != nil || res.equal != 1 || res.differ != 0 {
		t.Errorf("%+v %v", res, err)
	}
}
