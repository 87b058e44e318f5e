package kb

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestIndexSdistRows: the embedded data's source-build rows are the ones
// the resolver decides a pip compile by (architectures fixed, an import
// check of CUDA major.minor), and the loader refuses a row that names the
// torch or CUDA it was built for, since the install machine decides them,
// or an import check on a row of prebuilt wheels.
func TestIndexSdistRows(t *testing.T) {
	k := Default()
	decided := map[string]bool{}
	for _, b := range k.ExtensionBuilds {
		if b.Dist == DistIndexSdist && b.ArchKnown && b.ImportCUDACheck == ImportCUDAMajorMinor {
			decided[b.Name+" "+b.Version] = true
		}
	}
	for _, want := range []string{"torch-scatter 2.0.4", "torch-sparse 0.6.1", "torch-cluster 1.5.4", "torch-spline-conv 1.2.0"} {
		if !decided[want] {
			t.Errorf("no decided %s row for %s", DistIndexSdist, want)
		}
	}
	if decided["torch-spline-conv 1.2.1"] || decided["torch-scatter 2.0.9"] {
		t.Errorf("a release whose import check compares the CUDA major alone, or whose architectures the install machine picks, is decided: %v", decided)
	}

	for _, tc := range []struct{ old, bad, want string }{
		{`{name: torch-scatter, version: "2.0.4", dist: index-sdist, torch: []`, `{name: torch-scatter, version: "2.0.4", dist: index-sdist, torch: ["1.4"]`, `extension_builds.*index-sdist row names no torch`},
		{`dist: index-sdist, torch: [], sass: ["3.5"], ptx: ["3.5"], arch_known: true, import_cuda_check: major.minor`, `dist: index-sdist, torch: [], sass: ["3.5"], ptx: ["3.5"], arch_known: true, import_cuda_check: minor`, `import_cuda_check "minor" is not`},
		{`{name: torch-sparse, version: "0.6.18", dist: pyg-index,`, `{name: torch-sparse, version: "0.6.18", import_cuda_check: major, dist: pyg-index,`, `import_cuda_check is for index-sdist rows, not pyg-index`},
	} {
		dir := copyData(t)
		p := filepath.Join(dir, "extensions.yaml")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), tc.old) {
			t.Fatalf("extensions.yaml does not contain %q", tc.old)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), tc.old, tc.bad, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = Load(dir)
		if err == nil || !regexp.MustCompile(tc.want).MatchString(err.Error()) {
			t.Errorf("Load with %q: %v, want an error matching %s", tc.bad, err, tc.want)
		}
	}
}
