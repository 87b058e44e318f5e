package lockfile

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// Sniff tells an explicit package list (`conda list --explicit`, whose first
// line that is not a comment is `@EXPLICIT`) from an environment file.
func Sniff(src []byte) envspec.Kind {
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		line = bytes.TrimSpace(bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")))
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if bytes.Equal(line, []byte("@EXPLICIT")) {
			return envspec.KindExplicit
		}
		return envspec.KindEnvFile
	}
	return envspec.KindEnvFile
}

// ReadExplicitMax reads a `conda list --explicit` file: `@EXPLICIT` and one
// package URL per line (`.../conda-forge/linux-64/numpy-1.26.4-py311h64a7726_0.conda#md5`).
// Each URL becomes a CondaDep with Installed filled and the Spec
// `channel/subdir::name==version=build`. It reads at most maxItems package
// lines (0 means envspec.DefaultMaxItems) and says with EG101 where it
// stopped. It never returns nil.
func ReadExplicitMax(file string, src []byte, maxItems int) *envspec.Env {
	return ReadExplicitWith(file, src, Options{MaxItems: maxItems})
}

// ReadExplicitWith is ReadExplicitMax bounded by opt.MaxItems and stopped by
// opt.Context, which it looks at every 64 lines; the other options say
// nothing to an explicit file, which names its own platform.
func ReadExplicitWith(file string, src []byte, opt Options) *envspec.Env {
	maxItems := opt.MaxItems
	if maxItems <= 0 {
		maxItems = envspec.DefaultMaxItems
	}
	env := &envspec.Env{File: file, Kind: envspec.KindExplicit, Lines: envspec.SplitLines(src)}
	sawMarker := false
	items := 0
	for i, raw := range env.Lines {
		lineNo := i + 1
		if opt.Context != nil && i%64 == 63 && opt.Context.Err() != nil {
			break // the caller is told by Context.Err()
		}
		if t := strings.TrimSpace(raw); t != "" && t[0] != '#' && t != "@EXPLICIT" {
			if items++; items > maxItems {
				env.Diags = append(env.Diags, finding.Diagnostic{Pos: finding.Pos{File: file, Line: lineNo}, Severity: envspec.RuleEG101.Severity, Code: envspec.RuleEG101.Code,
					Message: fmt.Sprintf("the file holds more than %d package lines: envguard checked the first %d, up to line %d, and read nothing after it", maxItems, maxItems, lineNo-1),
					Hint:    "no environment needs this many packages: remove the generated or repeated lines, or split the file"})
				env.Lines = env.Lines[:lineNo]
				break
			}
		}
		line := strings.TrimSpace(strings.TrimPrefix(raw, "\ufeff"))
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "#"):
			// conda writes `# platform: linux-64` in the header.
			if v, ok := strings.CutPrefix(line, "# platform:"); ok && env.Platform == "" {
				env.Platform = strings.TrimSpace(v)
			}
			continue
		case line == "@EXPLICIT":
			sawMarker = true
			continue
		}
		col := strings.Index(raw, line) + 1
		ps := finding.Pos{File: file, Line: lineNo, Col: col}
		if !sawMarker {
			env.Diags = append(env.Diags, finding.Diagnostic{Pos: ps, Severity: envspec.RuleEG101.Severity, Code: envspec.RuleEG101.Code,
				Message: "a package line before `@EXPLICIT`: conda reads this file as a list of specs, not of URLs",
				Hint:    "put `@EXPLICIT` on a line of its own before the URLs"})
			sawMarker = true
		}
		inst, err := envspec.ParsePackageURL(line)
		if err != nil {
			env.Diags = append(env.Diags, finding.Diagnostic{Pos: ps, Severity: envspec.RuleEG103.Severity, Code: envspec.RuleEG103.Code,
				Message: fmt.Sprintf("invalid package URL %q: %v", envspec.Clip(line, 80), err),
				Hint:    "each line after @EXPLICIT is CHANNEL/SUBDIR/NAME-VERSION-BUILD.conda (or .tar.bz2), optionally #md5"})
			continue
		}
		inst.Path = file
		if env.Platform == "" && inst.Subdir != "noarch" {
			env.Platform = inst.Subdir
		}
		env.Deps = append(env.Deps, &envspec.CondaDep{
			Raw:       envspec.String{Value: line, Pos: ps},
			Spec:      envspec.PinnedSpec(inst),
			Installed: inst,
		})
	}
	env.Diags.Sort()
	return env
}
