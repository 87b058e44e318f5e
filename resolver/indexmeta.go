package resolver

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/envguard/envguard/resolver/kb"
)

// cudaRuntimePin finds the CUDA runtime wheel among a release's pins
// ("nvidia-cuda-runtime-cu12==12.8.90; platform_system == \"Linux\"",
// "nvidia-cuda-runtime==13.0.96"): the toolkit the release was built with.
var cudaRuntimePin = regexp.MustCompile(`(?i)^nvidia[-_.]cuda[-_.]runtime(?:[-_.]cu\d+)?\s*(?:\[[^\]]*\])?\s*==\s*(\d+\.\d+)`)

// indexReleaseNote says what the index_releases table knows of a release
// the other tables lack: Requires-Python, the CUDA wheels it pins and what
// that toolkit implies (the driver it needs, the architectures it can
// target), and the data's date. "" when the table has no row. It never
// names the architectures the release was built for: no index says.
func indexReleaseNote(k *kb.KB, pkg, version string) string {
	r, ok := k.IndexRelease(pkg, version)
	if !ok {
		return ""
	}
	var parts []string
	head := fmt.Sprintf("the package index lists %s %s", r.Package, r.Version)
	if r.Uploaded != "" {
		head += " (uploaded " + r.Uploaded + ")"
	}
	parts = append(parts, head)
	if r.RequiresPython != "" {
		parts = append(parts, "Requires-Python "+r.RequiresPython)
	}
	if len(r.CUDAPins) > 0 {
		parts = append(parts, "its Linux wheel pins "+strings.Join(r.CUDAPins, ", "))
	}
	for _, p := range r.CUDAPins {
		m := cudaRuntimePin.FindStringSubmatch(p)
		if m == nil {
			continue
		}
		cuda := m[1]
		s := "built with CUDA " + cuda
		if d, ok := k.DriverFloor(cuda); ok {
			s += fmt.Sprintf(", which needs Linux driver >= %s", d.LinuxMin)
		}
		if t, ok := k.ToolkitArch(cuda); ok {
			s += fmt.Sprintf("; a CUDA %s toolkit can target sm_%s … sm_%s (PTX up to compute_%s), and which of these the release holds is not known",
				cuda, archDigits(t.MinSASS), archDigits(t.MaxSASS), archDigits(t.MaxPTX))
		}
		parts = append(parts, s)
		break
	}
	if r.RequiresPython == "" && len(r.CUDAPins) == 0 {
		parts = append(parts, "its Requires-Python and CUDA pins were not read")
	}
	return strings.Join(parts, "; ") + fmt.Sprintf(" (index data read %s, %s)", r.Read, r.Source)
}

func archDigits(cc string) string { return strings.ReplaceAll(cc, ".", "") }

// pipMetaCUDAMajor is the CUDA major a pip metapackage pinned to an exact
// release brings, where the index_releases table names the CUDA-major
// package it installs (tensorrt 10.8.0.43 → tensorrt-cu12 → CUDA 12), and
// that package; 0 where the table says nothing. The name carries no CUDA
// of its own, so only the table can tell.
func pipMetaCUDAMajor(k *kb.KB, p pipItem) (int, string) {
	if k == nil || p.Dep == nil || p.Dep.Line == nil || p.Dep.Line.Req == nil {
		return 0, ""
	}
	sp := p.Dep.Line.Req.Specifiers
	if len(sp) != 1 || (sp[0].Op != "==" && sp[0].Op != "===") || strings.Contains(sp[0].Version, "*") {
		return 0, ""
	}
	r, ok := k.IndexRelease(p.Name, sp[0].Version)
	if !ok {
		return 0, ""
	}
	for _, pin := range r.CUDAPins {
		name := strings.ToLower(strings.TrimSpace(pin))
		if i := strings.IndexAny(name, "=<>!~;[ ("); i >= 0 {
			name = name[:i]
		}
		name = strings.ReplaceAll(name, "_", "-")
		if m := cudaSuffixRe().FindStringSubmatch(name); m != nil {
			return cudaMajorOfTag(m[1]), name
		}
	}
	return 0, ""
}
