package report

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/envguard/envguard/internal/testshared"
)

// TestCorpus runs every real-world file through the whole pipeline: no
// panic, every finding on a line and under a catalogued code, and each file
// either read as an environment or refused with a positioned EG100/EG101.
func TestCorpus(t *testing.T) {
	files := testshared.Corpus(t)
	byCode := map[string]int{}
	var clean, eg100, eg101 int
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		var r *Report
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%s: panic: %v", name, p)
				}
			}()
			r = Validate(name, src, Options{Platform: "linux-64"})
		}()
		if r == nil {
			continue
		}
		var has100, has101 bool
		for _, f := range r.Findings {
			byCode[f.Code]++
			if Lookup(f.Code) == nil {
				t.Errorf("%s:%d: code %s is not in the catalogue", name, f.Line, f.Code)
			}
			// Every finding points at a line: the whole-file rules (EG107
			// no channels, EG100 on an empty file) still name line 1.
			if f.Line < 1 {
				t.Errorf("%s: %s %q has no line", name, f.Code, f.Message)
			}
			switch f.Code {
			case "EG100":
				has100 = true
			case "EG101":
				has101 = true
			}
		}
		if len(r.Findings) == 0 {
			clean++
		}
		if has100 {
			eg100++
			t.Logf("%s: EG100 (not YAML)", name)
		}
		if has101 {
			eg101++
			t.Logf("%s: EG101 (wrong shape)", name)
		}
		// YAML that did not parse leaves nothing to judge: the stack
		// rules must stay quiet rather than report on an empty file.
		if has100 {
			for _, f := range r.Findings {
				if f.Code >= "EG2" {
					t.Errorf("%s: %s on a file that is not YAML", name, f.Code)
				}
			}
		}
	}
	var codes []string
	for c := range byCode {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	var b strings.Builder
	for _, c := range codes {
		fmt.Fprintf(&b, " %s:%d", c, byCode[c])
	}
	t.Logf("%d files: %d without findings, %d with EG100, %d with EG101", len(files), clean, eg100, eg101)
	t.Logf("findings by code:%s", b.String())
}
