package lockfile_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/internal/golden"
	"github.com/envguard/envguard/lockfile"
	"github.com/envguard/envguard/report"
	"github.com/envguard/envguard/resolver/kb"
)

// realPlatforms: the files of testdata/real that lock no linux-64 are read
// for the platform they lock; every other file for linux-64.
var realPlatforms = map[string]string{
	"conda-lock/bertchen/ppc64le.conda-lock.yml":     "linux-ppc64le",
	"conda-lock/numtimeprobe/ppc64le.conda-lock.yml": "linux-ppc64le",
}

// TestRealGolden: every lock file and requirements file of testdata/real —
// copied unchanged from public repositories, each cited in
// testdata/real/README.md — read by the reader its name picks and judged by
// report.Validate against the two targets of TestLockGolden. FILE.out holds
// the reader's kind and item counts, the stack line and one line per
// finding. go test ./lockfile/ -run TestRealGolden -update
// rewrites them.
func TestRealGolden(t *testing.T) {
	k := kb.Default()
	var hosts []*gpucheck.Host
	for _, tg := range []gpucheck.Target{
		{Name: "a100", Driver: "535.104.05", GPUs: []string{"A100"}},
		{Name: "old-driver", Driver: "470.57.02", GPUs: []string{"V100"}},
	} {
		h, err := tg.Host(k)
		if err != nil {
			t.Fatal(err)
		}
		hosts = append(hosts, h)
	}
	root := filepath.Join("testdata", "real")
	perKind := map[envspec.Kind]int{}
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".out") && !strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	for _, f := range files {
		rel := filepath.ToSlash(strings.TrimPrefix(f, root+string(filepath.Separator)))
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		platform := realPlatforms[rel]
		if platform == "" {
			platform = "linux-64"
		}
		kind := lockfile.SniffFile(rel, src)
		perKind[kind]++
		env := lockfile.Read(rel, src, lockfile.Options{Platform: platform})
		r := report.Validate(rel, src, report.Options{Platform: platform, KB: k, Hosts: hosts})

		got := fmt.Sprintf("kind=%s platform=%s conda=%d pip=%d\n", kind, platform, len(env.Deps), len(env.Pip)) + reportSummary(r)
		for _, fd := range r.Findings {
			// A real file the tools wrote is never "unreadable".
			if fd.Code == "EG100" || fd.Code == "EG101" {
				t.Errorf("%s: %s %s", rel, fd.Code, fd.Message)
			}
			if fd.Line < 1 || fd.Line > strings.Count(string(src), "\n")+1 {
				t.Errorf("%s: %s on line %d, outside the file", rel, fd.Code, fd.Line)
			}
		}
		if len(env.Deps)+len(env.Pip) == 0 {
			t.Errorf("%s: no package read", rel)
		}
		golden.Check(t, f+".out", []byte(got))
	}
	// The floor: five real files of each of these.
	for _, kd := range []envspec.Kind{envspec.KindCondaLock, envspec.KindPixiLock, envspec.KindUVLock, envspec.KindRequirements} {
		if perKind[kd] < 5 {
			t.Errorf("%d real %s files, want at least 5", perKind[kd], kd)
		}
	}
}
