package lockfile

import (
	"os"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/internal/testshared"
)

// TestSniffFileYAMLRef holds SniffFile's shortcut for .yml files without
// either lock file's keys to the full content sniff it skips.
func TestSniffFileYAMLRef(t *testing.T) {
	srcs := [][]byte{
		[]byte("version: 1\nmetadata:\n  platforms: [linux-64]\npackage:\n- name: x\n"),
		[]byte("version: 6\nenvironments:\n  default: {}\npackages:\n- conda: x\n"),
		[]byte("name: x\nmetadata: 1\n"), []byte("# metadata:\nname: x\ndependencies: [numpy]\n"),
		[]byte("name: x\ndependencies:\n- numpy\n"), []byte(""), []byte("@EXPLICIT\nhttps://x/a-1-0.conda\n"),
	}
	for _, f := range testshared.Corpus(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, src)
	}
	for _, src := range srcs {
		for _, name := range []string{"environment.yml", "x.yaml"} {
			want := envspec.KindEnvFile
			if Sniff(src) == envspec.KindExplicit {
				want = envspec.KindExplicit
			} else if k := sniffContent(src); k == envspec.KindCondaLock || k == envspec.KindPixiLock {
				want = k
			}
			if got := SniffFile(name, src); got != want {
				t.Fatalf("SniffFile(%s, %q) = %v, want %v", name, src, got, want)
			}
		}
	}
}
