package resolver

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// newFinding builds a diagnostic of a rule at a position.
func newFinding(r *Rule, pos finding.Pos, end int, msg, hint string, related ...finding.Pos) finding.Diagnostic {
	d := finding.Diagnostic{Pos: pos, EndCol: end, Severity: r.Severity, Code: r.Code, Message: msg, Hint: hint}
	for _, p := range related {
		if p.IsValid() {
			d.Related = append(d.Related, p)
		}
	}
	return d
}

// at renders " (line N)" for a position, "" when it has no line.
func at(p finding.Pos) string {
	if !p.IsValid() {
		return ""
	}
	return " (line " + strconv.Itoa(p.Line) + ")"
}

// describeCUDA says what a piece of CUDA evidence says, naming the item and
// its line: "pytorch 1.13.1 is built for CUDA 11.6 (line 7)".
func describeCUDA(e Evidence) string {
	ln := at(e.Pos)
	switch e.Kind {
	case EvidenceInstalled:
		return fmt.Sprintf("the installed %s is built for CUDA %s", e.Item, e.Says)
	case EvidenceBuild:
		who := e.Package
		if e.Version != "" {
			who += " " + e.Version
		}
		if e.AtLeast {
			return fmt.Sprintf("%s is built for CUDA %s or a newer %d.x%s", who, e.Says, majorOf(e.Says), ln)
		}
		return fmt.Sprintf("%s is built for CUDA %s%s", who, e.Says, ln)
	case EvidenceLocal:
		return fmt.Sprintf("%s%s is the CUDA %s wheel", e.Item, ln, e.Says)
	case EvidenceIndex:
		return fmt.Sprintf("%s%s serves CUDA %s wheels", e.Item, ln, e.Says)
	case EvidencePytorchCUDA:
		return fmt.Sprintf("%s%s selects CUDA %s", e.Item, ln, e.Says)
	case EvidenceCUDAVersion:
		return fmt.Sprintf("%s%s pins CUDA %s", e.Item, ln, e.Says)
	}
	return fmt.Sprintf("%s%s installs CUDA %s", e.Item, ln, e.Says)
}

// fixCUDA says how to bring e in line with CUDA version want.
func fixCUDA(e Evidence, want string) string {
	switch e.Kind {
	case EvidenceCudatoolkit:
		// cudatoolkit ends at 11.8; CUDA 12 ships as cuda-version and the
		// cuda-* packages, so "cudatoolkit=12.1" would be a fix that cannot
		// be installed (EG205 says so of it).
		if majorOf(want) >= 12 {
			return fmt.Sprintf("replace %s with cuda-version=%s (cudatoolkit ends at 11.8)", e.Package, want)
		}
		return fmt.Sprintf("use %s=%s", e.Package, want)
	case EvidencePytorchCUDA, EvidenceCUDAVersion, EvidenceCUDAPackage:
		return fmt.Sprintf("use %s=%s", e.Package, want)
	case EvidenceLocal:
		return fmt.Sprintf("use the +cu%s wheel", strings.ReplaceAll(want, ".", ""))
	case EvidenceIndex:
		return fmt.Sprintf("use the .../whl/cu%s index", strings.ReplaceAll(want, ".", ""))
	case EvidenceBuild:
		return fmt.Sprintf("pick the %s build for CUDA %s", e.Package, want)
	}
	return "make both name the same CUDA version"
}

// hasMinor reports whether a CUDA version says major.minor.
func hasMinor(v string) bool { return strings.Contains(v, ".") }

// minorOf returns the minor of "11.8" (-1 when absent).
func cudaMinorOf(v string) int {
	i := strings.IndexByte(v, '.')
	if i < 0 {
		return -1
	}
	m := leadingDigits(v[i+1:])
	if m == "" {
		return -1
	}
	n := 0
	for _, c := range m {
		n = n*10 + int(c-'0')
	}
	return n
}

// cudaConflict reports whether two CUDA claims cannot both hold. A claim
// with AtLeast holds for any runtime of its major at or above its minor.
func cudaConflict(a, b Evidence) bool {
	if majorOf(a.Says) != majorOf(b.Says) {
		return true
	}
	if !hasMinor(a.Says) || !hasMinor(b.Says) || a.Says == b.Says {
		return false
	}
	switch {
	case a.AtLeast && b.AtLeast:
		return false
	case a.AtLeast:
		return cudaMinorOf(b.Says) < cudaMinorOf(a.Says)
	case b.AtLeast:
		return cudaMinorOf(a.Says) < cudaMinorOf(b.Says)
	}
	return true
}

// listItems names items with their lines: "pytorch-cuda=11.8 (line 6), cudatoolkit (line 7)".
func listItems(es []Evidence) string {
	var parts []string
	for _, e := range es {
		parts = append(parts, e.Item+at(e.Pos))
	}
	return strings.Join(parts, ", ")
}

// fwLabel names the framework as messages do: "pytorch 2.0.1", or the spec.
func fwLabel(f *Framework) string {
	if f.Version != "" {
		return f.Name + " " + f.Version
	}
	if f.Installed != "" {
		return f.Name + " " + f.Installed
	}
	if f.Item != "" {
		return f.Item
	}
	return f.Name
}

// pyIn reports whether Python minor py is in a supported list whose entries
// are minors ("3.10") or inclusive ranges ("3.8-3.11").
func pyIn(list []string, py string) bool {
	for _, s := range list {
		s = strings.TrimSpace(s)
		if lo, hi, ok := strings.Cut(s, "-"); ok {
			if cmpMinor(py, lo) >= 0 && cmpMinor(py, hi) <= 0 {
				return true
			}
			continue
		}
		if majorMinor(s) == py {
			return true
		}
	}
	return false
}

// cmpMinor compares two major.minor strings numerically.
func cmpMinor(a, b string) int {
	if d := majorOf(a) - majorOf(b); d != 0 {
		return sign(d)
	}
	return sign(cudaMinorOf(a) - cudaMinorOf(b))
}

func sign(d int) int {
	switch {
	case d < 0:
		return -1
	case d > 0:
		return 1
	}
	return 0
}

// pyRange renders a supported list as "3.8–3.11".
func pyRange(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	if len(list) == 1 {
		return list[0]
	}
	return list[0] + "–" + list[len(list)-1]
}

// pyMax is the newest Python minor of a supported list.
func pyMax(list []string) string {
	if len(list) == 0 {
		return ""
	}
	last := strings.TrimSpace(list[len(list)-1])
	if _, hi, ok := strings.Cut(last, "-"); ok {
		return strings.TrimSpace(hi)
	}
	return majorMinor(last)
}

// place names where an item was read: "line 7" in a file, or the file of
// an installed prefix the item came from ("conda-meta/pytorch-2.1.2-….json"),
// whose items have no line.
func place(p finding.Pos) string {
	if p.IsValid() {
		return fmt.Sprintf("line %d", p.Line)
	}
	if p.File != "" {
		return filepath.Join(filepath.Base(filepath.Dir(p.File)), filepath.Base(p.File))
	}
	return "no line"
}

// cudaPlatform reports whether CUDA builds exist for a conda subdir:
// NVIDIA ships no CUDA for macOS, and no framework publishes CUDA builds for
// win-arm64. An unknown subdir ("") counts as one that has them.
func cudaPlatform(subdir string) bool {
	s := strings.ToLower(strings.TrimSpace(subdir))
	return !strings.HasPrefix(s, "osx-") && s != "win-arm64"
}

// anyCUDAPlatform reports whether the environment targets at least one
// platform with CUDA builds: the `platforms:` list when the file has one,
// else the platform it was read for (--platform, or the host's).
func anyCUDAPlatform(env *envspec.Env) bool {
	if env == nil {
		return true
	}
	if len(env.Platforms) > 0 {
		for _, p := range env.Platforms {
			if cudaPlatform(p.Value) {
				return true
			}
		}
		return false
	}
	return cudaPlatform(env.Platform)
}

// linuxPlatform reports whether the environment may be installed on Linux
// (where torch wheels require triton).
func linuxPlatform(env *envspec.Env) bool {
	if env == nil {
		return true
	}
	if len(env.Platforms) > 0 {
		for _, p := range env.Platforms {
			if v := strings.ToLower(p.Value); v == "" || strings.HasPrefix(v, "linux-") {
				return true
			}
		}
		return false
	}
	return env.Platform == "" || strings.HasPrefix(strings.ToLower(env.Platform), "linux-")
}
