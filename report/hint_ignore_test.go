package report

import (
	"regexp"
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
)

// TestHintIgnoreHasReason (review forty-three F26): a hint that offers an
// ignore comment offers one EG113 accepts, with a reason after the code;
// a bare `# envguard: ignore EG206` swaps one warning for another.
func TestHintIgnoreHasReason(t *testing.T) {
	src := "name: old\nchannels: [pytorch]\ndependencies:\n  - python=3.6\n  - pytorch<=0.3.0\n  - matplotlib\n"
	comment := regexp.MustCompile("`(# envguard: ignore [^`]*)`")
	seen := map[string]bool{}
	for _, f := range Validate("environment.yml", []byte(src), Options{Platform: "linux-64"}).Diagnostics() {
		for _, m := range comment.FindAllStringSubmatch(f.Hint, -1) {
			seen[f.Code] = true
			ig, problem := envspec.ParseIgnore(m[1])
			if problem != "" || ig == nil || ig.Reason == "" || !strings.Contains(strings.Join(ig.Codes, ","), f.Code) {
				t.Errorf("%s hint offers %q: problem %q, want its code and a reason", f.Code, m[1], problem)
			}
		}
	}
	for _, code := range []string{"EG206", "EG505"} {
		if !seen[code] {
			t.Errorf("no %s hint offering an ignore comment", code)
		}
	}
}
