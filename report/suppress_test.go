package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/gpucheck"
)

// cudaMismatch raises EG201 on line 8 (pytorch-cuda) with line 12 (the pip
// wheel) as its related line, and EG301 on line 12. %s and %s are the
// trailing comments of lines 8 and 12.
const cudaMismatch = `name: pt20_cu118
channels:
  - pytorch
  - nvidia
dependencies:
  - python=3.10
  - pytorch=2.0.1
  - pytorch-cuda=11.7%s
  - pip
  - pip:
    - numpy
    - torch==2.0.1+cu118%s
`

func codes(r *Report) []string {
	var cs []string
	for _, f := range r.Findings {
		cs = append(cs, fmt.Sprintf("%s@%d", f.Code, f.Line))
	}
	return cs
}

func has(r *Report, code string, line int) bool {
	for _, f := range r.Findings {
		if f.Code == code && (line == 0 || f.Line == line) {
			return true
		}
	}
	return false
}

func TestBaselineMismatch(t *testing.T) {
	r := Validate("e.yml", fmt.Appendf(nil, cudaMismatch, "", ""), Options{Platform: "linux-64"})
	if !has(r, "EG201", 8) || !has(r, "EG301", 12) {
		t.Fatalf("the suppression tests need EG201@8 and EG301@12; got %v", codes(r))
	}
	for _, f := range r.Findings {
		if f.Code == "EG201" {
			if len(f.Related) == 0 || f.Related[0].Line != 12 {
				t.Errorf("EG201 related = %+v, want line 12", f.Related)
			}
		}
	}
}

func TestSuppression(t *testing.T) {
	for _, tc := range []struct {
		name          string
		line8, line12 string
		hosts         bool
		want, notWant []string // code@line
	}{
		{
			name:    "on the finding's line",
			line8:   "  # envguard: ignore EG201 the cluster image pins 11.7",
			notWant: []string{"EG201@8", "EG113@8", "EG114@8"},
			want:    []string{"EG301@12"},
		},
		{
			name:    "on the related line",
			line12:  "  # envguard: ignore EG201 the wheel is what we test",
			notWant: []string{"EG201@8", "EG114@12"},
			want:    []string{"EG301@12"},
		},
		{
			name:    "two codes in one comment",
			line12:  "  # envguard: ignore EG201,EG301 both known",
			notWant: []string{"EG201@8", "EG301@12", "EG114@12"},
		},
		{
			name:    "no reason still silences but is reported",
			line8:   "  # envguard: ignore EG201",
			notWant: []string{"EG201@8", "EG114@8"},
			want:    []string{"EG113@8"},
		},
		{
			name:    "silenced nothing",
			line8:   "  # envguard: ignore EG301 wrong line",
			want:    []string{"EG114@8", "EG201@8", "EG301@12"},
			notWant: []string{"EG113@8"},
		},
		{
			name:  "no reason and silenced nothing",
			line8: "  # envguard: ignore EG505",
			want:  []string{"EG113@8", "EG114@8"},
		},
		{
			name:    "machine code without targets is not unused",
			line8:   "  # envguard: ignore EG401 old pool is being retired",
			notWant: []string{"EG114@8"},
			want:    []string{"EG201@8"},
		},
		{
			name:  "machine code with a target that has no EG401 is unused",
			line8: "  # envguard: ignore EG401 old pool is being retired",
			hosts: true,
			want:  []string{"EG114@8"},
		},
		{
			name:  "malformed comment is EG113 from the parser and silences nothing",
			line8: "  # envguard: ignore E201 typo",
			want:  []string{"EG113@8", "EG201@8"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := Options{Platform: "linux-64"}
			if tc.hosts {
				h, err := (&Machines{Targets: []gpucheck.Target{{Name: "h100", Driver: "550.54.15", GPUs: []string{"H100"}}}}).Resolve([]string{"h100"})
				if err != nil {
					t.Fatal(err)
				}
				opt.Hosts = h
			}
			r := Validate("e.yml", fmt.Appendf(nil, cudaMismatch, tc.line8, tc.line12), opt)
			got := strings.Join(codes(r), " ")
			for _, w := range tc.want {
				if !strings.Contains(" "+got+" ", " "+w+" ") {
					t.Errorf("want %s; got %s", w, got)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(" "+got+" ", " "+w+" ") {
					t.Errorf("did not want %s; got %s", w, got)
				}
			}
		})
	}
}

// TestFromEnvTwice: judging one Env twice must give the same report; the
// Used marks of the first run must not hide an unused ignore in the second.
func TestFromEnvTwice(t *testing.T) {
	src := fmt.Appendf(nil, cudaMismatch, "  # envguard: ignore EG201 known", "")
	env := envspec.Parse("e.yml", src, envspec.ParseOptions{Platform: "linux-64"})
	a := FromEnv(env, Options{})
	b := FromEnv(env, Options{Config: &Config{Off: map[string]bool{"EG201": true}}})
	if has(a, "EG114", 8) {
		t.Errorf("first run: EG114 although the ignore silenced EG201: %v", codes(a))
	}
	if has(b, "EG114", 8) {
		// EG201 is off: the rule never ran, so the comment had no chance.
		t.Errorf("second run, EG201 off: EG114 reported: %v", codes(b))
	}
	c := FromEnv(env, Options{})
	if strings.Join(codes(a), " ") != strings.Join(codes(c), " ") {
		t.Errorf("same env, same options, different findings:\n%v\n%v", codes(a), codes(c))
	}
}

func TestSeverityOverride(t *testing.T) {
	src := []byte("name: x\ndependencies:\n  - python=3.10\n")
	base := Validate("e.yml", src, Options{})
	if !has(base, "EG107", 0) {
		t.Fatalf("need EG107 in the baseline: %v", codes(base))
	}
	cfg, err := ParseConfig(".envguard.yml", []byte("rules:\n  EG107: off\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := Validate("e.yml", src, Options{Config: cfg})
	if has(r, "EG107", 0) {
		t.Errorf("EG107 off but reported: %v", codes(r))
	}

	mixed := []byte("name: x\nchannels:\n  - defaults\n  - conda-forge\ndependencies:\n  - python=3.10\n")
	cfg, err = ParseConfig(".envguard.yml", []byte("rules:\n  EG108: error\n"))
	if err != nil {
		t.Fatal(err)
	}
	r = Validate("e.yml", mixed, Options{Config: cfg})
	var found bool
	for _, f := range r.Findings {
		if f.Code == "EG108" {
			found = true
			if f.Severity != "error" {
				t.Errorf("EG108 severity %s, want error", f.Severity)
			}
		}
	}
	if !found {
		t.Fatalf("no EG108: %v", codes(r))
	}
	if r.Summary.Errors == 0 || r.ExitCode(FailOn{Severity: finding.SeverityError}) != 1 {
		t.Errorf("EG108 raised to error: summary %+v, exit %d", r.Summary, r.ExitCode(FailOn{Severity: finding.SeverityError}))
	}
}
