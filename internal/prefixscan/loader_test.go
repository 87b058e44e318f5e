package prefixscan

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// cc builds a shared library from C source with gcc; CI installs gcc
// (.ci/run), so a machine without it skips rather than fails only outside
// CI.
func cc(t *testing.T, dir, name, src string, args ...string) string {
	t.Helper()
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("gcc is needed in CI")
		}
		t.Skip("no gcc")
	}
	c := filepath.Join(dir, name+".c")
	if err := os.WriteFile(c, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, name)
	cmd := exec.Command(gcc, append([]string{"-shared", "-fPIC", "-o", out, c}, args...)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gcc %s: %v\n%s", name, err, b)
	}
	return out
}

func missingOf(t *testing.T, dir string) map[string][]string {
	t.Helper()
	b := Scan(dir, Options{SysRoot: t.TempDir()})
	out := map[string][]string{}
	for _, l := range b.Libraries {
		var m []string
		for _, n := range l.Missing {
			if !strings.HasPrefix(n, "libc.so") { // the empty sysroot has no libc
				m = append(m, n)
			}
		}
		out[l.Rel] = m
	}
	return out
}

// A library with no RUNPATH finds its DT_NEEDED through the DT_RPATH of
// the library that loads it (glibc's chain of loaders); a DT_RUNPATH
// breaks the chain.
func TestRPATHChain(t *testing.T) {
	build := t.TempDir()
	leaf := cc(t, build, "libleaf.so", "int leaf(void) { return 1; }\n", "-Wl,-soname,libleaf.so")
	mid := cc(t, build, "libmid.so", "int leaf(void);\nint mid(void) { return leaf(); }\n",
		"-Wl,-soname,libmid.so", "-L"+build, "-l:libleaf.so")
	midRunpath := cc(t, build, "libmidrun.so", "int leaf(void);\nint midrun(void) { return leaf(); }\n",
		"-Wl,-soname,libmidrun.so", "-L"+build, "-l:libleaf.so", "-Wl,--enable-new-dtags,-rpath,$ORIGIN/nowhere")
	top := cc(t, build, "top.so", "int mid(void);\nint midrun(void);\nint top(void) { return mid() + midrun(); }\n",
		"-L"+build, "-l:libmid.so", "-l:libmidrun.so", "-Wl,--disable-new-dtags,-rpath,$ORIGIN/../deps:$ORIGIN/../mids")

	dir := t.TempDir()
	sp := filepath.Join(dir, "lib", "python3.11", "site-packages")
	put := func(src, rel string) {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(sp, rel), string(b))
	}
	put(top, "pkg/ext/top.so")
	put(mid, "pkg/mids/libmid.so")
	put(midRunpath, "pkg/mids/libmidrun.so")
	put(leaf, "pkg/deps/libleaf.so")

	got := missingOf(t, dir)
	rel := func(p string) string { return "lib/python3.11/site-packages/" + p }
	if m := got[rel("pkg/ext/top.so")]; len(m) != 0 {
		t.Errorf("top.so: missing %v; its own RPATH holds them", m)
	}
	if m := got[rel("pkg/mids/libmid.so")]; len(m) != 0 {
		t.Errorf("libmid.so (no RUNPATH): missing %v; top.so's RPATH provides libleaf.so", m)
	}
	if m := got[rel("pkg/mids/libmidrun.so")]; !slices.Equal(m, []string{"libleaf.so"}) {
		t.Errorf("libmidrun.so (RUNPATH): missing %v, want [libleaf.so]: a RUNPATH stops the RPATH chain", m)
	}
}

// $LIB in an RPATH expands to the directories the loader would use.
func TestRPATHLibToken(t *testing.T) {
	build := t.TempDir()
	leaf := cc(t, build, "libleaf.so", "int leaf(void) { return 1; }\n", "-Wl,-soname,libleaf.so")
	top := cc(t, build, "top.so", "int leaf(void);\nint top(void) { return leaf(); }\n",
		"-L"+build, "-l:libleaf.so", "-Wl,--disable-new-dtags,-rpath,$ORIGIN/../$LIB")
	dir := t.TempDir()
	sp := filepath.Join(dir, "lib", "python3.11", "site-packages")
	for src, rel := range map[string]string{top: "pkg/ext/top.so", leaf: "pkg/lib64/libleaf.so"} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(sp, rel), string(b))
	}
	if m := missingOf(t, dir)["lib/python3.11/site-packages/pkg/ext/top.so"]; len(m) != 0 {
		t.Errorf("missing %v with libleaf.so in $ORIGIN/../lib64", m)
	}
	// Somewhere no expansion of $LIB reaches, it is missing.
	if err := os.Rename(filepath.Join(sp, "pkg", "lib64"), filepath.Join(sp, "pkg", "other")); err != nil {
		t.Fatal(err)
	}
	if m := missingOf(t, dir)["lib/python3.11/site-packages/pkg/ext/top.so"]; !slices.Equal(m, []string{"libleaf.so"}) {
		t.Errorf("missing %v, want [libleaf.so]", m)
	}
}
