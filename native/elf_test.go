package native

import (
	"debug/elf"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The ELF-only fixtures: a C++ library with DT_NEEDED on another and on
// libm, RUNPATH (or RPATH) with $ORIGIN, exported and imported mangled
// symbols. g++ builds them in the test; CI has it.
const depSource = `
namespace eg { int dep(int x) { return x + 1; } }
`

const libSource = `
#include <cmath>
namespace eg {
int dep(int);
double scale(double x) { return std::cos(x) * dep(2); }
struct Box { int v; int get() const; };
int Box::get() const { return v; }
}
extern "C" double eg_c_api(double x) { return eg::scale(x); }
`

var (
	gccOnce sync.Once
	gccDir  string
	gccErr  error
)

// gccFixtures builds libegdep.so and, against it, libeg_runpath.so
// (DT_RUNPATH) and libeg_rpath.so (DT_RPATH), once per test binary, into
// lib/ of a temporary directory.
func gccFixtures(t *testing.T) string {
	t.Helper()
	gccOnce.Do(func() {
		cxx, err := exec.LookPath("g++")
		if err != nil {
			gccErr = err
			return
		}
		dir, err := os.MkdirTemp("", "native-gcc-")
		if err != nil {
			gccErr = err
			return
		}
		gccDir = dir
		lib := filepath.Join(dir, "lib")
		if err := os.Mkdir(lib, 0o755); err != nil {
			gccErr = err
			return
		}
		os.WriteFile(filepath.Join(dir, "dep.cc"), []byte(depSource), 0o644)
		os.WriteFile(filepath.Join(dir, "eg.cc"), []byte(libSource), 0o644)
		os.WriteFile(filepath.Join(dir, "main.cc"), []byte("int main() { return 0; }\n"), 0o644)
		run := func(args ...string) {
			if gccErr != nil {
				return
			}
			cmd := exec.Command(cxx, args...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				gccErr = errors.New("g++ " + strings.Join(args, " ") + ": " + err.Error() + "\n" + string(out))
			}
		}
		run("-shared", "-fPIC", "-o", "lib/libegdep.so", "-Wl,-soname,libegdep.so", "dep.cc")
		run("-shared", "-fPIC", "-o", "lib/libeg_runpath.so", "eg.cc", "-Llib", "-legdep", "-Wl,--no-as-needed", "-lm",
			"-Wl,-soname,libeg.so.1", "-Wl,--enable-new-dtags", "-Wl,-rpath,$ORIGIN/../lib64:$ORIGIN")
		run("-shared", "-fPIC", "-o", "lib/libeg_rpath.so", "eg.cc", "-Llib", "-legdep", "-Wl,--no-as-needed", "-lm",
			"-Wl,--disable-new-dtags", "-Wl,-rpath,${ORIGIN}/deps")
		run("-pie", "-fPIE", "-o", "lib/eg-pie", "main.cc")
	})
	if gccErr != nil {
		if _, err := exec.LookPath("g++"); err != nil {
			t.Skipf("no g++ to build the ELF fixtures (CI has one): %v", err)
		}
		t.Fatal(gccErr)
	}
	return filepath.Join(gccDir, "lib")
}

func TestMain(m *testing.M) {
	code := m.Run()
	if gccDir != "" {
		os.RemoveAll(gccDir)
	}
	os.Exit(code)
}

func TestLinking(t *testing.T) {
	dir := gccFixtures(t)
	p := filepath.Join(dir, "libeg_runpath.so")
	l, err := Options{Symbols: true}.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if l.SONAME != "libeg.so.1" || l.Type != "shared" || l.Class != "ELF64" {
		t.Errorf("SONAME %q, type %s, class %s", l.SONAME, l.Type, l.Class)
	}
	// debug/elf, reading the whole string table, is the oracle.
	ef, err := elf.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	want, _ := ef.ImportedLibraries()
	if !slices.Equal(l.Needed, want) {
		t.Errorf("Needed %v, debug/elf says %v", l.Needed, want)
	}
	for _, n := range []string{"libegdep.so", "libm.so.6", "libc.so.6"} {
		if !slices.Contains(l.Needed, n) {
			t.Errorf("Needed %v lacks %s", l.Needed, n)
		}
	}
	if l.Needed[0] != "libegdep.so" {
		t.Errorf("Needed %v: link order lost", l.Needed)
	}
	if !slices.Equal(l.RUNPATH, []string{"$ORIGIN/../lib64", "$ORIGIN"}) || l.RPATH != nil {
		t.Errorf("RUNPATH %q, RPATH %q", l.RUNPATH, l.RPATH)
	}
	if got, want := l.SearchPath(), []string{filepath.Join(filepath.Dir(dir), "lib64"), dir}; !slices.Equal(got, want) {
		t.Errorf("SearchPath %v, want %v", got, want)
	}

	exports := map[string]Symbol{}
	for _, s := range l.Exports {
		exports[s.Name] = s
	}
	for _, n := range []string{"_ZN2eg5scaleEd", "_ZNK2eg3Box3getEv", "eg_c_api"} {
		if s, ok := exports[n]; !ok || s.Type != "func" {
			t.Errorf("export %s: %+v (present %v)", n, s, ok)
		}
	}
	imports := map[string]Symbol{}
	for _, s := range l.Imports {
		imports[s.Name] = s
	}
	if s, ok := imports["_ZN2eg3depEi"]; !ok {
		t.Errorf("import eg::dep(int) missing from %d imports", len(l.Imports))
	} else if s.Version != "" {
		t.Errorf("eg::dep has version %q; libegdep has none", s.Version)
	}
	if s := imports["cos"]; s.Library != "libm.so.6" || !strings.HasPrefix(s.Version, "GLIBC_") {
		t.Errorf("import cos: %+v, want version GLIBC_* from libm.so.6", s)
	}
	if _, ok := imports["_ZN2eg5scaleEd"]; ok {
		t.Error("a defined symbol is listed as an import")
	}
	if got := Demangle("_ZNK2eg3Box3getEv"); got != "eg::Box::get() const" {
		t.Errorf("Demangle: %q", got)
	}
	if got := Demangle("eg_c_api"); got != "eg_c_api" {
		t.Errorf("Demangle of a C name: %q", got)
	}
	if l.HasDeviceCode() || l.Containers != 0 {
		t.Errorf("a host-only library has %d entries", len(l.Entries))
	}

	// Without Options.Symbols the symbols are not read.
	l2, err := ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if l2.Exports != nil || l2.Imports != nil || !slices.Equal(l2.Needed, l.Needed) {
		t.Errorf("zero Options: %d exports, %d imports, needed %v", len(l2.Exports), len(l2.Imports), l2.Needed)
	}
}

func TestRPATH(t *testing.T) {
	dir := gccFixtures(t)
	l, err := ReadFile(filepath.Join(dir, "libeg_rpath.so"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(l.RPATH, []string{"${ORIGIN}/deps"}) || l.RUNPATH != nil || l.SONAME != "" {
		t.Errorf("RPATH %q, RUNPATH %q, SONAME %q", l.RPATH, l.RUNPATH, l.SONAME)
	}
	if got := l.SearchPath(); !slices.Equal(got, []string{filepath.Join(dir, "deps")}) {
		t.Errorf("SearchPath %v", got)
	}
}

// TestPIE: a position-independent executable is ET_DYN like a library;
// DT_FLAGS_1's DF_1_PIE says it is an executable.
func TestPIE(t *testing.T) {
	dir := gccFixtures(t)
	l, err := ReadFile(filepath.Join(dir, "eg-pie"))
	if err != nil {
		t.Fatal(err)
	}
	if l.Type != "executable" {
		t.Errorf("type %s", l.Type)
	}
	if l, _ := ReadFile(filepath.Join(dir, "libeg_rpath.so")); l.Type != "shared" {
		t.Errorf("the library's type %s", l.Type)
	}
}

func TestExpandOrigin(t *testing.T) {
	got := ExpandOrigin([]string{"$ORIGIN", "${ORIGIN}/../lib", "$ORIGINAL/x", "/opt/$LIB", "", "$ORIGIN/a/$ORIGIN"}, "/p/lib")
	want := []string{"/p/lib", "/p/lib", "$ORIGINAL/x", "/opt/$LIB", "", "/p/lib/a/p/lib"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if ExpandOrigin(nil, "/x") != nil {
		t.Error("nil in, not nil out")
	}
}

func TestExpandTokens(t *testing.T) {
	got := ExpandTokens([]string{"$ORIGIN/../$LIB", "/opt/${PLATFORM}/x", "$LIBRARY", "/a/$UNKNOWN"}, "/p/lib", "EM_AARCH64")
	want := []string{"/p/lib64", "/p/lib", "/p/lib/aarch64-linux-gnu", "/opt/aarch64/x", "$LIBRARY", "/a/$UNKNOWN"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// A machine whose values are not known keeps the token (no directory).
	if got := ExpandTokens([]string{"/opt/$LIB"}, "/p", "EM_RISCV"); !slices.Equal(got, []string{"/opt/$LIB"}) {
		t.Errorf("EM_RISCV: %q", got)
	}
	if got := ExpandTokens([]string{"$PLATFORM/$LIB"}, "/p", "EM_X86_64"); len(got) != 9 {
		t.Errorf("two tokens: %d expansions, want 3×3: %q", len(got), got)
	}
}

func TestNotELF(t *testing.T) {
	p := filepath.Join(t.TempDir(), "libc.so")
	os.WriteFile(p, []byte("/* GNU ld script */\nGROUP ( /lib/libc.so.6 )\n"), 0o644)
	_, err := ReadFile(p)
	if !errors.Is(err, ErrNotELF) {
		t.Fatalf("a linker script: %v", err)
	}
	if got := err.Error(); got != p+": not an ELF file" {
		t.Errorf("message %q", got)
	}
	_, err = ReadFile(filepath.Join(t.TempDir(), "missing.so"))
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "missing.so: open: no such file") {
		t.Errorf("a missing file: %v", err)
	}
	_, err = ReadFile(t.TempDir())
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
}
