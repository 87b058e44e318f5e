package report

import (
	"strings"
	"testing"

	"github.com/envguard/envguard/gpucheck"
)

// TestSpecCondaReadsIsJudged: review thirty-three F26 (014). conda reads
// `python=>3.11` as python >3.11* (its sanitising strips the leading '='),
// while libmamba refuses it: EG103 stays, but what the file installs is
// conda's reading, not unknown, so the targets are judged. A spec neither
// reads (pytorch='2.1') still leaves them open.
func TestSpecCondaReadsIsJudged(t *testing.T) {
	hosts, err := (&Machines{Targets: StandardFleet()}).Resolve([]string{"a100"})
	if err != nil {
		t.Fatal(err)
	}
	src := "channels: [conda-forge]\ndependencies:\n  - python=>3.11\n  - pytorch=2.4.1=cuda120*\n  - cuda-version=12.0\n"
	r := Validate("environment.yml", []byte(src), Options{Platform: "linux-64", Hosts: hosts})
	eg103 := false
	for _, d := range r.Diagnostics() {
		eg103 = eg103 || d.Code == "EG103"
	}
	if !eg103 {
		t.Errorf("python=>3.11: no EG103 (libmamba refuses it)")
	}
	for _, u := range r.Targets[0].Undecided {
		if u.Reason == "file-not-read" {
			t.Errorf("python=>3.11 left the file unread: %s", u.Why)
		}
	}
	if r.Targets[0].Verdict == gpucheck.VerdictUnknown {
		t.Errorf("python=>3.11 beside a pinned CUDA build on an A100: unknown, want it judged: %+v", r.Targets[0].Undecided)
	}
	bad := strings.Replace(src, "python=>3.11", "python=3.11=(", 1)
	r = Validate("environment.yml", []byte(bad), Options{Platform: "linux-64", Hosts: hosts})
	unread := false
	for _, u := range r.Targets[0].Undecided {
		unread = unread || u.Reason == "file-not-read"
	}
	if r.Targets[0].Verdict != gpucheck.VerdictUnknown || !unread {
		t.Errorf("an invalid spec: verdict %s, want unknown with the file not read", r.Targets[0].Verdict)
	}
}
