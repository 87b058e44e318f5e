package report

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"gopkg.in/yaml.v3"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/gpucheck"
)

// Config is a project's .envguard.yml: machines it runs on, per-rule
// severities, and what fails CI.
//
//	fail_on: unknown    # error (default), unknown, warning or info
//	targets:
//	  - name: h100-pool
//	    driver: "550.54.15"
//	    gpus: ["H100"]
//	rules:
//	  EG107: off        # or info, warning, error
//	include: ["ci/**/*.yml"]
//	exclude: ["vendor/**"]
type Config struct {
	File    string
	Targets []gpucheck.Target
	// Severity maps a code to its project severity; a missing code keeps
	// the rule's default.
	Severity map[string]finding.Severity
	// Off lists codes the project turned off.
	Off map[string]bool
	// FailOn is the project's fail level (fail_on: error, unknown or
	// warning); nil leaves the command line's default. A --fail-on flag
	// given on the command line wins.
	FailOn *FailOn
	// Include and Exclude are the directory search's globs (doublestar
	// syntax: `*` within a path element, `**` across them), relative to
	// the configuration's directory: a file Include matches is validated
	// whatever its name and content; a file or directory Exclude matches
	// is never searched. Exclude wins. Files named on the command line
	// are read whatever they say.
	Include []string `json:",omitempty"`
	Exclude []string `json:",omitempty"`
}

// Compiled on first use (sync.OnceValue): Go runs every linked package's
// initialisation on every CLI start, and most runs need few of these.
var yamlErrRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

// ParseConfig reads .envguard.yml. Errors carry file:line:col.
func ParseConfig(file string, src []byte) (*Config, error) {
	c := &Config{File: file, Severity: map[string]finding.Severity{}, Off: map[string]bool{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		// yaml.v3 gives a line but no column; keep the file:line: shape.
		if m := yamlErrRe().FindStringSubmatch(err.Error()); m != nil {
			return nil, fmt.Errorf("%s:%s: invalid YAML: %s", file, m[1], m[2])
		}
		return nil, fmt.Errorf("%s: invalid YAML: %v", file, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) == 0 {
		return c, nil
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d:%d: .envguard.yml must be a mapping with keys fail_on, rules, targets, include and exclude", file, top.Line, top.Column)
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		switch k.Value {
		case "targets":
			ts, err := gpucheck.ParseTargets(file, src)
			if err != nil {
				return nil, err
			}
			c.Targets = ts
		case "rules":
			if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
				continue // `rules:` with nothing under it yet
			}
			if v.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("%s:%d:%d: rules must map codes to off, info, warning or error", file, v.Line, v.Column)
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				code, sev := v.Content[j], v.Content[j+1]
				// A code the catalogue lacks is a typo, and a typo would
				// leave the rule at its default without a word.
				if code.Kind != yaml.ScalarNode || Lookup(code.Value) == nil {
					return nil, fmt.Errorf("%s:%d:%d: %q is not a rule code (`envguard rules` lists them)", file, code.Line, code.Column, code.Value)
				}
				if sev.Kind != yaml.ScalarNode {
					return nil, fmt.Errorf("%s:%d:%d: rule %s: want off, info, warning or error", file, sev.Line, sev.Column, code.Value)
				}
				switch strings.ToLower(sev.Value) {
				case "off", "false", "ignore":
					c.Off[code.Value] = true
				default:
					s, err := finding.ParseSeverity(sev.Value)
					if err != nil {
						return nil, fmt.Errorf("%s:%d:%d: rule %s: severity %q: want off, info, warning or error", file, sev.Line, sev.Column, code.Value, sev.Value)
					}
					c.Severity[code.Value] = s
				}
			}
		case "include", "exclude":
			globs, err := parseGlobs(file, k.Value, v)
			if err != nil {
				return nil, err
			}
			if k.Value == "include" {
				c.Include = globs
			} else {
				c.Exclude = globs
			}
		case "fail_on":
			if v.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("%s:%d:%d: fail_on must be error, unknown, warning or info", file, v.Line, v.Column)
			}
			f, err := ParseFailOn(v.Value)
			if err != nil {
				return nil, fmt.Errorf("%s:%d:%d: fail_on %v", file, v.Line, v.Column, err)
			}
			c.FailOn = &f
		default:
			keys := []string{"exclude", "fail_on", "include", "rules", "targets"}
			sort.Strings(keys)
			return nil, fmt.Errorf("%s:%d:%d: unknown key %q in .envguard.yml (expected one of: %s)", file, k.Line, k.Column, k.Value, strings.Join(keys, ", "))
		}
	}
	return c, nil
}

// severity returns the severity a code gets in this project and whether it
// is reported at all. A nil Config keeps every default.
func (c *Config) severity(code string, def finding.Severity) (finding.Severity, bool) {
	if c == nil {
		return def, true
	}
	if c.Off[code] {
		return def, false
	}
	if s, ok := c.Severity[code]; ok {
		return s, true
	}
	return def, true
}

// parseGlobs reads include: or exclude:, a list of doublestar globs
// relative to the configuration's directory (a single glob is taken as a
// list of one). A glob that is not valid, absolute, or climbs out with ..
// is an error at its position: it would match nothing, without a word.
func parseGlobs(file, key string, v *yaml.Node) ([]string, error) {
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return nil, nil
	}
	items := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		items = v.Content
	}
	var out []string
	for _, n := range items {
		if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
			return nil, fmt.Errorf("%s:%d:%d: %s must be a list of globs (strings such as \"envs/**/*.yml\")", file, n.Line, n.Column, key)
		}
		g := strings.TrimPrefix(n.Value, "./")
		switch {
		case g == "":
			return nil, fmt.Errorf("%s:%d:%d: %s: an empty glob matches nothing", file, n.Line, n.Column, key)
		case strings.HasPrefix(g, "/"), strings.Contains(g, "\\"):
			return nil, fmt.Errorf("%s:%d:%d: %s %q: globs are relative to the directory of %s, with / between names (no leading /, no \\)", file, n.Line, n.Column, key, n.Value, filepath.Base(file))
		case g == ".." || strings.HasPrefix(g, "../") || strings.Contains(g, "/../") || strings.HasSuffix(g, "/.."):
			return nil, fmt.Errorf("%s:%d:%d: %s %q: a glob cannot reach above the directory of %s", file, n.Line, n.Column, key, n.Value, filepath.Base(file))
		case !doublestar.ValidatePattern(g):
			return nil, fmt.Errorf("%s:%d:%d: %s %q is not a valid glob (an unclosed [ or {, or a trailing \\)", file, n.Line, n.Column, key, n.Value)
		}
		out = append(out, strings.TrimSuffix(g, "/"))
	}
	return out, nil
}
