package kb

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCuDNNPreTuringRows reads cudalibs.yaml's cudnn rows: cuDNN 9.11
// dropped the device code for every compute capability below Turing
// (7.5), and nothing from Turing on through Hopper.
func TestCuDNNPreTuringRows(t *testing.T) {
	k := Default()
	for _, cc := range []string{"5.0", "5.2", "5.3", "6.0", "6.1", "6.2", "7.0", "7.2"} {
		rows := k.CUDALibArchOf("cudnn", cc)
		if len(rows) != 1 || rows[0].Until != "9.11.0" || rows[0].Since != "" {
			t.Errorf("cudnn %s: %+v, want one row until 9.11.0", cc, rows)
			continue
		}
		if rows[0].Source == "" {
			t.Errorf("cudnn %s: no source", cc)
		}
	}
	if rows := k.CUDALibArchOf("cudnn", "7.5"); len(rows) != 0 {
		t.Errorf("cudnn 7.5: %+v, want no row", rows)
	}
	// Ampere, Ada and Hopper have the rows of the releases that carry
	// nothing for them and are not forward compatible (cuDNN 7 for 8.x,
	// cuDNN through 8.5.0 for 9.0); Ada and Hopper also the first
	// release whose support matrix was read listing them, 8.9.1, for
	// builds whose CUDA can compile their SASS (11.8 on).
	for cc, through := range map[string]string{"8.0": "7.6.5", "8.6": "7.6.5", "8.9": "7.6.5", "9.0": "8.5.0"} {
		var none, since []CUDALibArch
		for _, r := range k.CUDALibArchOf("cudnn", cc) {
			if r.NoneThrough != "" {
				none = append(none, r)
			} else {
				since = append(since, r)
			}
		}
		if len(none) != 1 || none[0].NoneThrough != through || none[0].Since != "" || none[0].Until != "" || none[0].CUDA != "" {
			t.Errorf("cudnn %s: %+v, want one row none_through %s", cc, none, through)
		}
		wantSince := cc == "8.9" || cc == "9.0"
		if !wantSince && len(since) != 0 {
			t.Errorf("cudnn %s: %+v, want no other row", cc, since)
		}
		if wantSince && (len(since) != 1 || since[0].Since != "8.9.1" || since[0].CUDA != ">=11.8" || since[0].Until != "" || since[0].Source == "") {
			t.Errorf("cudnn %s: %+v, want one row since 8.9.1 for CUDA >= 11.8", cc, since)
		}
	}
}

// TestCuDNNBlackwellRows: the support matrix read lists 10.0 and 12.0
// from 9.10.2 and only beside CUDA 12.8 or later, so each row holds for a
// build for 12.8, 12.9 or 13.0 and not for 12.6; a pip name's major 12
// leaves it open, 13 decides it. No family row (10.3, 12.1) was read.
func TestCuDNNBlackwellRows(t *testing.T) {
	k := Default()
	for _, cc := range []string{"10.0", "12.0"} {
		var rows []CUDALibArch
		for _, r := range k.CUDALibArchOf("cudnn", cc) {
			if r.NoneThrough != "" {
				// cuDNN 8, which no CUDA condition saves (cuDNN before
				// 9.0.0 is not forward compatible in any build), and
				// cuDNN 9 built for CUDA 11 (forward compatible only in
				// builds for CUDA 12 or later).
				switch {
				case r.Since != "":
					t.Errorf("cudnn %s: %+v, a none_through row with since", cc, r)
				case r.NoneThrough == "8.9.7" && r.CUDA == "":
				case r.NoneThrough == "9.5.1" && r.CUDA != "":
					cond, err := ParseCUDACond(r.CUDA)
					if err != nil {
						t.Fatalf("cudnn %s: %v", cc, err)
					}
					for cuda, want := range map[string]bool{"11.8": true, "11": true, "12.0": false, "12.4": false, "12": false} {
						if got, decided := cond.Holds(cuda); !decided || got != want {
							t.Errorf("cudnn %s none_through 9.5.1, CUDA %s: holds %v decided %v, want %v", cc, cuda, got, decided, want)
						}
					}
				default:
					t.Errorf("cudnn %s: %+v, want none_through 8.9.7 for every build or 9.5.1 for CUDA 11 builds", cc, r)
				}
				continue
			}
			rows = append(rows, r)
		}
		if len(rows) != 1 || rows[0].Since != "9.10.2" || rows[0].Until != "" {
			t.Fatalf("cudnn %s: %+v, want one row since 9.10.2", cc, rows)
		}
		cond, err := ParseCUDACond(rows[0].CUDA)
		if err != nil {
			t.Fatalf("cudnn %s: %v", cc, err)
		}
		for cuda, want := range map[string]bool{"12.8": true, "12.9": true, "13.0": true, "13": true, "12.6": false, "12.0": false, "11": false} {
			if got, decided := cond.Holds(cuda); !decided || got != want {
				t.Errorf("cudnn %s, CUDA %s: holds %v decided %v, want %v", cc, cuda, got, decided, want)
			}
		}
		if _, decided := cond.Holds("12"); decided {
			t.Errorf("cudnn %s: CUDA 12 alone decided the row", cc)
		}
	}
	for _, cc := range []string{"10.1", "10.3", "11.0", "12.1"} {
		if rows := k.CUDALibArchOf("cudnn", cc); len(rows) != 0 {
			t.Errorf("cudnn %s: %+v, want no row", cc, rows)
		}
	}
}

func TestCUDACondHolds(t *testing.T) {
	tests := []struct {
		cond, cuda     string
		holds, decided bool
	}{
		{">=12.8", "12.8", true, true},
		{">=12.8", "12.10", true, true}, // minors compare as numbers
		{">=12.8", "12.6", false, true},
		{">=12.8", "12", false, false},
		{">=12.8", "13", true, true},
		{">=12.8", "11", false, true},
		{">=12.0", "12", true, true},
		{"<12.0", "12", false, true},
		{"< 13.0", "12", true, true},
		{">12.8", "12.8", false, true},
		{"<=12.8", "12.8", true, true},
		{"==12.8", "12", false, false},
		{"==12.8", "12.8", true, true},
		{"==12.8", "11", false, true},
		{">=12.8", "", false, false},
		{">=12.8", "12.x", false, false},
		{">=12.8", "12.8.1", false, false},
	}
	for _, tt := range tests {
		c, err := ParseCUDACond(tt.cond)
		if err != nil {
			t.Fatalf("%q: %v", tt.cond, err)
		}
		if h, d := c.Holds(tt.cuda); h != tt.holds || d != tt.decided {
			t.Errorf("%q holds for %q: %v decided %v, want %v %v", tt.cond, tt.cuda, h, d, tt.holds, tt.decided)
		}
	}
}

func TestParseCUDACondRejects(t *testing.T) {
	for s, want := range map[string]string{
		"12.8":         `does not start with`,
		"=>12.8":       `does not start with`,
		">=12":         `"12" is not a CUDA major\.minor`,
		">=12.8.1":     `is not a CUDA major\.minor`,
		">=12.08":      `is not a CUDA major\.minor`,
		">=":           `"" is not a CUDA major\.minor`,
		"!=12.8":       `does not start with`,
		">=12.8,<13.0": `is not a CUDA major\.minor`,
	} {
		_, err := ParseCUDACond(s)
		if err == nil || !regexp.MustCompile(want).MatchString(err.Error()) {
			t.Errorf("ParseCUDACond(%q) = %v, want an error matching %s", s, err, want)
		}
	}
}

// TestCUDALibArchConditionValidation: the loader refuses a row whose
// condition it cannot read, and says which row and why.
func TestCUDALibArchConditionValidation(t *testing.T) {
	dir := copyData(t)
	p := filepath.Join(dir, "cudalibs.yaml")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	old := `{lib: cudnn, cc: "12.0", since: "9.10.2", cuda: ">=12.8"`
	if !strings.Contains(string(b), old) {
		t.Fatalf("cudalibs.yaml does not contain %q", old)
	}
	bad := strings.Replace(string(b), old, `{lib: cudnn, cc: "12.0", since: "9.10.2", cuda: "12.8+"`, 1)
	if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(dir)
	if err == nil {
		t.Fatal("Load accepted a cuda_lib_arch row with an unreadable cuda condition")
	}
	if !regexp.MustCompile(`cuda_lib_arch.*cuda condition "12\.8\+" does not start with`).MatchString(err.Error()) {
		t.Errorf("error %q does not name the row and its condition", err)
	}
}

// FuzzParseCUDACond: whatever it accepts prints back as its operator and
// version, and a release it is held against never decides a malformed one.
func FuzzParseCUDACond(f *testing.F) {
	for _, s := range []string{">=12.8", "< 13.0", "==11.8", "12.8", ">=12", "", ">=1.2.3"} {
		f.Add(s, "12.8")
	}
	f.Fuzz(func(t *testing.T, s, cuda string) {
		c, err := ParseCUDACond(s)
		if err != nil {
			return
		}
		back, err := ParseCUDACond(c.Op + c.Version)
		if err != nil || back != c {
			t.Fatalf("%q read as %+v, which reads back as %+v (%v)", s, c, back, err)
		}
		h, d := c.Holds(cuda)
		if !d && h {
			t.Fatalf("%+v against %q: holds without being decided", c, cuda)
		}
		if d && !cudaMinorRE.MatchString(cuda) && !cudaMajorRE.MatchString(cuda) {
			t.Fatalf("%+v decided for the malformed release %q", c, cuda)
		}
		if cudaMinorRE.MatchString(cuda) && !d {
			t.Fatalf("%+v left the release %q open", c, cuda)
		}
	})
}
