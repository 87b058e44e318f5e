package report

import (
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/envguard/envguard/finding"
)

func TestParseConfig(t *testing.T) {
	src := `# project settings
targets:
  - name: h100-pool
    driver: "550.54.15"
    gpus: ["H100"]
  - name: old
    cuda_driver: "11.4"
    compute_capabilities: ["7.0"]
rules:
  EG107: off
  EG108: error
  EG505: Warning
`
	c, err := ParseConfig(".envguard.yml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Targets) != 2 || c.Targets[0].Name != "h100-pool" || c.Targets[1].CUDADriver != "11.4" {
		t.Errorf("targets = %+v", c.Targets)
	}
	if !c.Off["EG107"] {
		t.Error("EG107 not off")
	}
	if c.Severity["EG108"] != finding.SeverityError || c.Severity["EG505"] != finding.SeverityWarning {
		t.Errorf("severities = %v", c.Severity)
	}
	if s, on := c.severity("EG201", finding.SeverityError); !on || s != finding.SeverityError {
		t.Errorf("EG201 (not configured) = %v %v, want its default", s, on)
	}
	if _, on := c.severity("EG107", finding.SeverityWarning); on {
		t.Error("EG107 is on")
	}
	var nilCfg *Config
	if s, on := nilCfg.severity("EG107", finding.SeverityWarning); !on || s != finding.SeverityWarning {
		t.Error("a nil Config must keep defaults")
	}
}

// TestParseConfigGlobs: include and exclude are lists of globs relative to
// the configuration's directory; a lone glob is a list of one, ./ and a
// trailing / are dropped, and an empty key is no list.
func TestParseConfigGlobs(t *testing.T) {
	c, err := ParseConfig(".envguard.yml", []byte("include:\n  - ci/**/*.yml\n  - ./gpu/stack.yaml\nexclude: vendor/\n"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.Include, " ") != "ci/**/*.yml gpu/stack.yaml" || strings.Join(c.Exclude, " ") != "vendor" {
		t.Errorf("include %q, exclude %q", c.Include, c.Exclude)
	}
	c, err = ParseConfig(".envguard.yml", []byte("include:\nexclude: []\n"))
	if err != nil || c.Include != nil || len(c.Exclude) != 0 {
		t.Errorf("empty keys: %+v, %v", c, err)
	}
}

func TestParseConfigEmpty(t *testing.T) {
	for _, src := range []string{"", "# nothing yet\n", "rules:\n"} {
		c, err := ParseConfig("c.yml", []byte(src))
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if len(c.Targets) != 0 || len(c.Off) != 0 || len(c.Severity) != 0 {
			t.Errorf("%q: %+v", src, c)
		}
	}
}

func TestParseConfigErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"- a\n", "c.yml:1:1: .envguard.yml must be a mapping"},
		{"rules:\n  EG107: loud\n", `c.yml:2:10: rule EG107: severity "loud"`},
		{"rules:\n  EG999: off\n", `c.yml:2:3: "EG999" is not a rule code`},
		{"rules:\n  EG199: off\n", `c.yml:2:3: "EG199" is not a rule code`},
		{"rules:\n  eg107: off\n", `c.yml:2:3: "eg107" is not a rule code`},
		{"rules:\n  EG107: [off]\n", "c.yml:2:10: rule EG107: want off"},
		{"rules: [EG107]\n", "c.yml:1:8: rules must map codes"},
		{"rules:\n  EG107: off\nfoo: 1\n", `c.yml:3:1: unknown key "foo" in .envguard.yml (expected one of: exclude, fail_on, include, rules, targets)`},
		{"include: 3\n", `c.yml:1:10: include must be a list of globs`},
		{"exclude:\n  - [a]\n", `c.yml:2:5: exclude must be a list of globs`},
		{"exclude:\n  - vendor/**\n  - \"\"\n", `c.yml:3:5: exclude: an empty glob matches nothing`},
		{"include: [\"/abs/*.yml\"]\n", `c.yml:1:11: include "/abs/*.yml": globs are relative to the directory of c.yml`},
		{"include: [\"a\\\\b.yml\"]\n", `c.yml:1:11: include "a\\b.yml": globs are relative`},
		{"exclude: [\"../x/**\"]\n", `c.yml:1:11: exclude "../x/**": a glob cannot reach above`},
		{"exclude: [\"a/../../x\"]\n", `c.yml:1:11: exclude "a/../../x": a glob cannot reach above`},
		{"include:\n  - \"envs/[ab.yml\"\n", `c.yml:2:5: include "envs/[ab.yml" is not a valid glob`},
		{"include:\n  - \"envs/{a,b.yml\"\n", `c.yml:2:5: include "envs/{a,b.yml" is not a valid glob`},
		// yaml.v3 blames an unclosed flow sequence on the line its context
		// starts, and gives no column.
		{"rules:\n  EG107: [x\n", "c.yml:1: invalid YAML"},
		{"rules:\n\tEG107: off\n", "c.yml:2: invalid YAML"},
		{"targets:\n  - name: a\n    driver: banana\n", "c.yml:3:"},
	} {
		_, err := ParseConfig("c.yml", []byte(tc.src))
		if err == nil {
			t.Errorf("%q: no error, want %q", tc.src, tc.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q:\n got %q\nwant prefix %q", tc.src, err.Error(), tc.want)
		}
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("rules:\n  EG107: off\ntargets:\n  - name: a\n    driver: \"550.54.15\"\n"))
	f.Add([]byte("rules: {EG108: error}\n"))
	f.Add([]byte("targets: [\n"))
	f.Add([]byte("include:\n  - ci/**/stack.yml\nexclude: [vendor, \"{a,b\"]\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		c, err := ParseConfig("c.yml", src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "c.yml") {
				t.Errorf("error without the file name: %v", err)
			}
			return
		}
		for _, g := range append(append([]string(nil), c.Include...), c.Exclude...) {
			if !doublestar.ValidatePattern(g) || strings.HasPrefix(g, "/") {
				t.Errorf("accepted glob %q", g)
			}
		}
		for code := range c.Severity {
			if Lookup(code) == nil {
				t.Errorf("accepted unknown code %q", code)
			}
		}
	})
}
