package cli

import (
	"archive/zip"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/envguard/envguard/internal/golden"
)

var (
	fatbinDir = filepath.Join("..", "native", "testdata", "fatbin")
	pkgDir    = filepath.Join("..", "native", "testdata", "pkg")
)

// TestInspectGolden: the text and the JSON of inspect over the nvcc
// fixtures, a conda package and an object file named on its own.
func TestInspectGolden(t *testing.T) {
	tests := []struct {
		golden string
		args   []string
	}{
		{"fatbin.txt", []string{"inspect", fatbinDir}},
		{"fatbin.json", []string{"inspect", "--format", "json", fatbinDir}},
		{"pkg.txt", []string{"inspect", filepath.Join(pkgDir, "eg-cuda-1.0-0.tar.bz2"), filepath.Join(fatbinDir, "obj80.o")}},
		{"pkg.json", []string{"inspect", "--format=json", filepath.Join(pkgDir, "eg-cuda-1.0-0.tar.bz2"), filepath.Join(fatbinDir, "obj80.o")}},
		{"symbols.txt", []string{"inspect", "--symbols", filepath.Join(fatbinDir, "sm80.so")}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			code, out, errOut := egRun(t, "", tt.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			golden.Check(t, filepath.Join("testdata", "inspect", tt.golden), []byte(out))
		})
	}
}

// TestInspectJSONFields: the field names scripts read do not drift.
func TestInspectJSONFields(t *testing.T) {
	_, out, _ := egRun(t, "", "inspect", "--format", "json", filepath.Join(fatbinDir, "sm100a.so"))
	var rep map[string]any
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	keys := func(m map[string]any) []string {
		var k []string
		for s := range m {
			k = append(k, s)
		}
		slices.Sort(k)
		return k
	}
	if got := keys(rep); !slices.Equal(got, []string{"errors", "libraries", "summary"}) {
		t.Errorf("report keys %v", got)
	}
	lib := rep["libraries"].([]any)[0].(map[string]any)
	want := []string{"compression", "containers", "entries", "machine", "needed", "path", "ptx", "relocatable", "rpath", "runpath", "sass", "soname", "type", "variants"}
	if got := keys(lib); !slices.Equal(got, want) {
		t.Errorf("library keys %v\nwant %v", got, want)
	}
	ent := lib["entries"].([]any)[0].(map[string]any)
	want = []string{"arch", "compression", "container", "cuobjdump", "flags", "kind", "name", "offset", "raw_kind", "section", "size", "variant"}
	if got := keys(ent); !slices.Equal(got, want) {
		t.Errorf("entry keys %v\nwant %v", got, want)
	}
	if got := keys(rep["summary"].(map[string]any)); !slices.Equal(got, []string{"entries", "errors", "libraries", "with_device_code"}) {
		t.Errorf("summary keys %v", got)
	}
	if ent["name"] != "sm_100a" || ent["cuobjdump"] != "sm_100a" || ent["variant"] != "a" {
		t.Errorf("entry %v", ent)
	}
}

// TestInspectWheel: a wheel's libraries are named wheel!member.
func TestInspectWheel(t *testing.T) {
	p := filepath.Join(t.TempDir(), "eg-1.0-py3-none-manylinux_2_28_x86_64.whl")
	f, _ := os.Create(p)
	zw := zip.NewWriter(f)
	w, _ := zw.Create("eg/lib/libsm90a.so")
	b, _ := os.ReadFile(filepath.Join(fatbinDir, "sm90a.so"))
	w.Write(b)
	zw.Close()
	f.Close()
	code, out, errOut := egRun(t, "", "inspect", p)
	if code != 0 || !strings.HasPrefix(out, p+"!eg/lib/libsm90a.so\n") || !strings.Contains(out, "  sass         sm_90a (2 entries)\n") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

// TestInspectUnreadable: input that cannot be read exits 2 and says why,
// after listing what could be read.
func TestInspectUnreadable(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.so")
	os.WriteFile(text, []byte("not a library"), 0o644)
	tests := []struct {
		args    []string
		out     string
		message string
	}{
		{[]string{"inspect", filepath.Join(dir, "missing.so")}, "0 libraries", "missing.so: stat: no such file or directory"},
		{[]string{"inspect", text}, "0 libraries", "notes.so: not an ELF file"},
		{[]string{"inspect", filepath.Join(pkgDir, "bomb-1.0-0.tar.bz2")}, "0 libraries", "a ratio over the limit of 1000 (a decompression bomb?)"},
		{[]string{"inspect", filepath.Join(fatbinDir, "sm80.so"), text}, "1 library, 1 with device code, 2 fatbin entries, 1 error", "notes.so: not an ELF file"},
		{[]string{"inspect", "--format", "sarif", text}, "", "--format \"sarif\": want text or json"},
		{[]string{"inspect"}, "", "requires at least 1 arg"},
	}
	for _, tt := range tests {
		code, out, errOut := egRun(t, "", tt.args...)
		if code != ExitUsage || !strings.Contains(out, tt.out) || !strings.Contains(errOut, tt.message) {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q", tt.args, code, out, errOut)
		}
	}
	_, out, _ := egRun(t, "", "inspect", "--format", "json", text)
	var rep inspectReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Errors) != 1 || rep.Errors[0].Path != text || rep.Summary.Errors != 1 {
		t.Errorf("JSON errors: %v %+v", err, rep.Errors)
	}
}
