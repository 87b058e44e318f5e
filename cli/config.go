package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/internal/discover"
	"github.com/envguard/envguard/report"
)

// ConfigName is the project configuration file envguard looks for.
const ConfigName = discover.ConfigName

// configPath returns the configuration that governs an input found in dir:
// --config when given, else the first .envguard.yml from dir up to the
// repository root (the directory holding .git), or up to the filesystem
// root outside a repository, as ruff and actionlint look for theirs. ""
// when there is none.
func (e *env) configPath(dir string) (string, error) {
	if e.configFile != "" {
		return e.configFile, nil
	}
	abs, err := e.absPath(dir)
	if err != nil {
		return "", err
	}
	// Every directory on the way up gets the same answer, remembered: a
	// tree of 10,000 files then costs a look at each directory once.
	if e.configDirs == nil {
		e.configDirs = map[string]string{}
	}
	var seen []string
	found := func(p string) (string, error) {
		for _, d := range seen {
			e.configDirs[d] = p
		}
		return p, nil
	}
	for d := abs; ; {
		if p, ok := e.configDirs[d]; ok {
			return found(p)
		}
		seen = append(seen, d)
		p := filepath.Join(d, ConfigName)
		// A directory validate's search listed is answered from its
		// listing; a link is still stat'ed, to see what it points at.
		if facts, listed := e.dirFacts[d]; listed {
			if facts.Config {
				return found(p)
			}
			if facts.ConfigLink {
				if st, err := os.Stat(p); err == nil && !st.IsDir() {
					return found(p)
				}
			}
			if facts.Git {
				return found("") // the repository root: a config above it belongs to something else
			}
		} else {
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return found(p)
			}
			if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
				return found("")
			}
		}
		up := filepath.Dir(d)
		if up == d {
			return found("")
		}
		d = up
	}
}

// absPath is filepath.Abs without its os.Getwd (two stat calls) on every
// call: the working directory is read once.
func (e *env) absPath(p string) (string, error) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	if e.wd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		e.wd = wd
	}
	return filepath.Join(e.wd, p), nil
}

// inputDir is the directory whose configuration governs an input: the
// file's own, or for standard input the directory of --stdin-filename,
// else the working directory.
func (e *env) inputDir(name string) string {
	if name == "-" {
		if e.stdinFilename != "" {
			return filepath.Dir(e.stdinFilename)
		}
		return "."
	}
	return filepath.Dir(name)
}

// loadConfig reads and parses a configuration once per process; "" is no
// configuration (nil). --select and --ignore are applied on top.
func (e *env) loadConfig(path string) (*report.Config, error) {
	if e.configs == nil {
		e.configs = map[string]*report.Config{}
	}
	if c, ok := e.configs[path]; ok {
		return c, nil
	}
	var cfg *report.Config
	if path != "" {
		src, err := os.ReadFile(path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && e.configFile != "" {
				return nil, usageErr("--config %s: no such file", path)
			}
			return nil, usageErr("config: %v", err)
		}
		if cfg, err = report.ParseConfig(path, src); err != nil {
			return nil, usageErr("%v", err)
		}
	}
	cfg, err := e.applySelection(cfg)
	if err != nil {
		return nil, err
	}
	e.configs[path] = cfg
	return cfg, nil
}

// config is the configuration governing the working directory (check,
// serve, build).
func (e *env) config() (*report.Config, error) {
	p, err := e.configPath(".")
	if err != nil {
		return nil, usageErr("config: %v", err)
	}
	return e.loadConfig(p)
}

// applySelection applies --select and --ignore to a copy of cfg: a code
// that --select does not name, or --ignore names, is off. Entries are codes
// (EG201) or prefixes of them (EG2, EG20), as ruff reads its selectors.
func (e *env) applySelection(cfg *report.Config) (*report.Config, error) {
	if len(e.selectCodes) == 0 && len(e.ignoreCodes) == 0 {
		return cfg, nil
	}
	out := &report.Config{Severity: map[string]finding.Severity{}, Off: map[string]bool{}}
	if cfg != nil {
		c := *cfg
		out = &c
		out.Off = map[string]bool{}
		for k, v := range cfg.Off {
			out.Off[k] = v
		}
	}
	sel, err := expandCodes("--select", e.selectCodes)
	if err != nil {
		return nil, err
	}
	ign, err := expandCodes("--ignore", e.ignoreCodes)
	if err != nil {
		return nil, err
	}
	for _, r := range report.Catalog() {
		if len(e.selectCodes) > 0 && !sel[r.Code] || ign[r.Code] {
			out.Off[r.Code] = true
		}
	}
	return out, nil
}

// expandCodes reads comma-separated codes and prefixes into the set of
// catalogue codes they name; one that names none is a usage error, since
// a typo would silently select nothing.
func expandCodes(flag string, entries []string) (map[string]bool, error) {
	set := map[string]bool{}
	for _, entry := range entries {
		for _, c := range strings.Split(entry, ",") {
			c = strings.ToUpper(strings.TrimSpace(c))
			if c == "" {
				continue
			}
			n := 0
			for _, r := range report.Catalog() {
				if strings.HasPrefix(r.Code, c) {
					set[r.Code] = true
					n++
				}
			}
			if n == 0 {
				return nil, usageErr("%s %s: no rule code starts with it (`envguard rules` lists them)", flag, c)
			}
		}
	}
	return set, nil
}

// showConfig prints which configuration governs each input, and what it
// sets; validate --show-config prints this instead of validating.
func (e *env) showConfig(files []string) error {
	var paths []string
	seen := map[string]bool{}
	for _, f := range files {
		p, err := e.configPath(e.inputDir(f))
		if err != nil {
			return usageErr("config: %v", err)
		}
		name := f
		if f == "-" && e.stdinFilename != "" {
			name = e.stdinFilename
		}
		if p == "" {
			fmt.Fprintf(e.stdout, "%s: no %s from its directory up to the repository root; the defaults apply\n", name, ConfigName)
		} else {
			fmt.Fprintf(e.stdout, "%s: %s\n", name, p)
		}
		if !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	for _, p := range paths {
		cfg, err := e.loadConfig(p)
		if err != nil {
			return err
		}
		label := p
		if p == "" {
			label = "defaults"
		}
		fmt.Fprintf(e.stdout, "\n%s\n", label)
		fail := "error"
		if cfg != nil && cfg.FailOn != nil {
			fail = failOnWord(*cfg.FailOn)
		}
		fmt.Fprintf(e.stdout, "  fail_on  %s\n", fail)
		if cfg == nil {
			fmt.Fprintf(e.stdout, "  rules    every rule at its default severity\n  targets  none\n")
			continue
		}
		var off, sev []string
		for c := range cfg.Off {
			off = append(off, c)
		}
		for c, s := range cfg.Severity {
			if !cfg.Off[c] {
				sev = append(sev, c+"="+s.String())
			}
		}
		sort.Strings(off)
		sort.Strings(sev)
		rules := "every rule at its default severity"
		if len(off)+len(sev) > 0 {
			var parts []string
			if len(sev) > 0 {
				parts = append(parts, strings.Join(sev, ", "))
			}
			if len(off) > 0 {
				parts = append(parts, "off: "+strings.Join(off, ", "))
			}
			rules = strings.Join(parts, "; ")
		}
		fmt.Fprintf(e.stdout, "  rules    %s\n", rules)
		var ts []string
		for _, t := range cfg.Targets {
			ts = append(ts, t.Name)
		}
		if len(ts) == 0 {
			ts = []string{"none"}
		}
		fmt.Fprintf(e.stdout, "  targets  %s\n", strings.Join(ts, ", "))
		if len(cfg.Include) > 0 {
			fmt.Fprintf(e.stdout, "  include  %s\n", strings.Join(cfg.Include, ", "))
		}
		if len(cfg.Exclude) > 0 {
			fmt.Fprintf(e.stdout, "  exclude  %s\n", strings.Join(cfg.Exclude, ", "))
		}
	}
	return nil
}

func failOnWord(f report.FailOn) string {
	switch {
	case f.Severity == finding.SeverityInfo:
		return "info"
	case f.Severity == finding.SeverityWarning:
		return "warning"
	case f.Unknown:
		return "unknown"
	}
	return "error"
}
