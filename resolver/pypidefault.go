package resolver

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/resolver/kb"
)

// A plain `torch==X` that pip takes from PyPI is one known build: on Linux
// x86_64 the CUDA build PyTorch uploads there for the release (2.0.1 is
// CUDA 11.7, 1.10.1 CUDA 10.2), on Windows and macOS the CPU build where
// the knowledge base says so. That build decides the variant, CUDA version,
// architecture list and name just as a `+cuXXX` local version does; the
// knowledge base's pypi rows give it (torch_variants, dist: pypi, default).

// pypiOS is the operating system a conda subdir runs: "linux" (x86_64
// only: PyPI's aarch64 torch is another build), "windows", "macos", or ""
// for any other.
func pypiOS(subdir string) string {
	s := strings.ToLower(strings.TrimSpace(subdir))
	switch {
	case s == "linux-64":
		return "linux"
	case strings.HasPrefix(s, "win-"):
		return "windows"
	case strings.HasPrefix(s, "osx-"):
		return "macos"
	}
	return ""
}

// envOSes are the operating systems an environment may be installed on:
// its `platforms:` list, else the platform it was read for ("" is taken as
// linux-64, where the default build matters).
func envOSes(env *envspec.Env) []string {
	var subdirs []string
	if len(env.Platforms) > 0 {
		for _, p := range env.Platforms {
			subdirs = append(subdirs, p.Value)
		}
	} else {
		p := env.Platform
		if strings.TrimSpace(p) == "" {
			p = "linux-64"
		}
		subdirs = []string{p}
	}
	var out []string
	for _, s := range subdirs {
		out = append(out, pypiOS(s))
	}
	return out
}

// pypiBuild is what a plain pip pin of a torch release gets from PyPI on
// every platform the environment names: the Linux default CUDA version,
// "cpu" where the release is CPU-only on every platform named, "" when
// the platforms get different builds or the knowledge base does not say.
// The row is returned for messages.
func pypiBuild(k *kb.KB, env *envspec.Env, version string) (string, *kb.TorchVariants) {
	if k == nil || env == nil || version == "" {
		return "", nil
	}
	v, ok := k.Variants(seriesOf(version), kb.DistPyPI)
	if !ok || v.NotPublished {
		return "", nil
	}
	says := ""
	for _, os := range envOSes(env) {
		s := ""
		switch {
		case os == "linux":
			s = v.Default
		case os != "" && contains(v.CPUOnlyOn, os):
			s = "cpu"
		}
		if s == "" || (says != "" && s != says) {
			return "", v
		}
		says = s
	}
	return says, v
}

// pypiDefault is the evidence a plain pip pin of the framework's torch
// gives: the build PyPI serves for it. None for an installed environment
// (its torch/version.py says which build it got), a local version, a
// PyTorch wheel index, or a release whose PyPI build is not known.
func (r *resolution) pypiDefault(it *item) (Evidence, bool) {
	f := r.st.Framework
	if r.kb == nil || it.name != "torch" || it.from() != envspec.ProviderPip || it.local != "" || it != r.fw ||
		f == nil || f.Name != "pytorch" || f.Dist != kb.DistPyPI || f.Version == "" ||
		r.env.Torch != nil || r.env.IsInstalled() {
		return Evidence{}, false
	}
	says, _ := pypiBuild(r.kb, r.env, f.Version)
	if says == "" {
		return Evidence{}, false
	}
	// The kind is the local version's: the pin names one wheel as surely as
	// +cuXXX does, so it outranks the conda CUDA packages around it (a
	// cudatoolkit=11.3 beside torch==2.0.1 is EG201, not a cu113 name).
	return Evidence{Item: it.label(), Pos: it.verPos(), Line: it.pos().Line, EndCol: int(it.verEnd),
		Kind: EvidenceLocal, Says: says, Package: it.name, Version: it.exact}, true
}

// pypiDefaultNote is what EG304 adds for a pinned release whose PyPI build
// the knowledge base knows: which build the index serves, per platform.
func pypiDefaultNote(k *kb.KB, env *envspec.Env, version string) string {
	if version == "" {
		return ""
	}
	says, v := pypiBuild(k, env, version)
	if v == nil || v.Default == "" {
		return ""
	}
	cpu := ""
	if len(v.CPUOnlyOn) > 0 {
		var oses []string
		for _, os := range v.CPUOnlyOn {
			oses = append(oses, map[string]string{"windows": "Windows", "macos": "macOS"}[os])
		}
		cpu = fmt.Sprintf(" (the CPU build on %s)", strings.Join(oses, " and "))
	}
	msg := fmt.Sprintf("; PyPI serves torch %s as the CUDA %s build on Linux x86_64%s", version, v.Default, cpu)
	if says != "" {
		msg += ", which the checks take as this file's build"
	}
	return msg
}

// driveLetter starts a Windows path (C:\Users\…, D:/envs/…).
var driveLetter = regexp.MustCompile(`^[A-Za-z]:[\\/]`)

// exportOS is the operating system whose path a `conda env export`'s
// `prefix:` line is: "macos" for a home under /Users/ or Homebrew's
// Apple-silicon prefix /opt/homebrew/, "windows" for a drive letter, ""
// for any other (a Linux path, or one such as /opt/anaconda3 that either
// may have).
func exportOS(env *envspec.Env) string {
	if env == nil || env.Prefix == nil {
		return ""
	}
	switch p := strings.TrimSpace(env.Prefix.Value); {
	case strings.HasPrefix(p, "/Users/"), strings.HasPrefix(p, "/opt/homebrew/"):
		return "macos"
	case driveLetter.MatchString(p):
		return "windows"
	}
	return ""
}

// exportedElsewhere says why a plain pip torch's name is not canonical
// where the file is a `conda env export` made on an operating system on
// which PyPI serves that torch as another build than on the platform it is
// read for: 091.yml, exported on macOS (prefix /Users/…), read for
// linux-64, was named pt111_cu102 after Linux's CUDA 10.2 wheel, where the
// machine it came from has the CPU build (review nine, N90). The targets
// are still judged: a Linux GPU machine gets the Linux build. nil when the
// name stands.
func (r *resolution) exportedElsewhere(e *elsewhereBuild) error {
	if e == nil {
		return nil
	}
	return fmt.Errorf("%s, and it is read for %s, where it is %s: "+
		"the name depends on the machine; pin one build from PyTorch's wheel index (+cpu or +cuXXX) so that every machine gets it, or re-export the file on the machine it is for",
		e.there, r.env.Platform, e.here)
}

// elsewhereBuild says, of a file exported on another operating system
// than the one it is read for, which build PyPI serves its plain torch
// pin there ("the file is a conda env export made on Windows (…), where
// PyPI's torch 2.7.0 is the CPU build") and which here.
type elsewhereBuild struct{ there, here string }

// exportElsewhere is exportedElsewhere's fact, nil where the file was not
// exported elsewhere or both get the same build.
func (r *resolution) exportElsewhere() *elsewhereBuild {
	f := r.st.Framework
	if r.kb == nil || f == nil || f.Name != "pytorch" || f.Dist != kb.DistPyPI || f.Version == "" || r.env.IsInstalled() {
		return nil
	}
	os, from := exportOS(r.env), ""
	if os != "" {
		from = fmt.Sprintf("its prefix, line %d, is %s", r.env.Prefix.Pos.Line, envspec.Clip(r.env.Prefix.Value, 60))
	} else if d := windowsRuntime(r.env); d != nil {
		// no prefix, but conda's Visual C++ runtime, which it publishes
		// for Windows only (review twenty-five: 016's vc=14.42)
		os, from = "windows", fmt.Sprintf("it lists %s, line %d, the Visual C++ runtime conda publishes for Windows only", d.Raw.Value, d.Raw.Pos.Line)
	}
	if os == "" || slices.Contains(envOSes(r.env), os) {
		return nil
	}
	here, v := pypiBuild(r.kb, r.env, f.Version)
	if here == "" || v == nil {
		return nil
	}
	// exportOS names macOS or Windows only, where the knowledge base says
	// no more than whether PyPI's build is the CPU one.
	there := ""
	if contains(v.CPUOnlyOn, os) {
		there = "cpu"
	}
	if there == here {
		return nil
	}
	build := func(s string) string {
		if s == "cpu" {
			return "the CPU build"
		}
		return "the CUDA " + s + " build"
	}
	thereWords := build(there)
	if there == "" {
		thereWords = "a build the knowledge base does not name"
	}
	return &elsewhereBuild{
		there: fmt.Sprintf("the file is a conda env export made on %s (%s), where PyPI's torch %s is %s", exportOSName[os], from, f.Version, thereWords),
		here:  build(here),
	}
}

// windowsRuntime is a dependency on conda's Visual C++ runtime (vc,
// vs2015_runtime, ucrt), which conda publishes for Windows only, nil
// where the file has none.
func windowsRuntime(env *envspec.Env) *envspec.CondaDep {
	for _, d := range env.Deps {
		if d.Spec != nil && windowsOnly[d.Spec.Name] {
			return d
		}
	}
	return nil
}

// compiledEverywhere are conda packages every platform builds from C
// sources with its own compiler, so the hash of a build string differs
// between platforms (conda-build hashes the variant it used, the compiler
// included): a pinned build of one exists only for the platform that made it.
var compiledEverywhere = map[string]bool{
	"python": true, "bzip2": true, "openssl": true, "zlib": true, "libzlib": true, "xz": true,
	"sqlite": true, "libsqlite": true, "libffi": true, "tk": true, "ncurses": true, "readline": true,
}

// exportOSName names exportOS's operating systems in messages.
var exportOSName = map[string]string{"windows": "Windows", "macos": "macOS"}

// windowsOnly are the Visual C++ runtime packages, which conda's channels
// build for Windows only.
var windowsOnly = map[string]bool{"vc": true, "vs2015_runtime": true, "vc14_runtime": true, "ucrt": true}

// ForeignExport says where and why conda cannot create the environment as
// written on the platform it is read for: the file is a `conda env export`
// made on macOS or Windows (its prefix says so) that pins the build of a
// package each platform compiles itself (python=3.10.12=hea58f1e_0_cpython),
// a build the platform read for does not have (review thirteen #1154:
// an osx-arm64 export judged as a Linux environment). ok is false where
// the file is not such an export, names the platform, or pins no such
// build.
func ForeignExport(env *envspec.Env) (pos finding.Pos, why string, ok bool) {
	if env == nil || env.IsInstalled() {
		return finding.Pos{}, "", false
	}
	platform := env.Platform
	if strings.TrimSpace(platform) == "" {
		platform = "linux-64" // as envOSes reads it
	}
	oses := envOSes(env)
	os := ""
	if env.Prefix != nil {
		os = exportOS(env)
	}
	if os == "" && !slices.Contains(oses, "windows") {
		// no prefix, but the Visual C++ runtime packages conda publishes
		// for Windows only (016: vc=14.42, vs2015_runtime)
		if d := windowsRuntime(env); d != nil {
			return d.Raw.Pos, fmt.Sprintf("the file lists %s (line %d), the Visual C++ runtime that conda publishes for Windows only: it was written on Windows, and %s has no such package, so conda cannot create the environment there as written",
				d.Raw.Value, d.Raw.Pos.Line, platform), true
		}
	}
	if os == "" || slices.Contains(oses, os) {
		return finding.Pos{}, "", false
	}
	for _, d := range env.Deps {
		ms := d.Spec
		if ms == nil || !compiledEverywhere[ms.Name] || ms.Build == "" || strings.ContainsAny(ms.Build, "*?[") {
			continue
		}
		return d.Raw.Pos, fmt.Sprintf("the file is a conda env export made on %s (its prefix, line %d, is %s) and pins that platform's builds of compiled packages (%s, line %d); %s has no such build, so conda cannot create the environment there as written",
			exportOSName[os], env.Prefix.Pos.Line, envspec.Clip(env.Prefix.Value, 60), d.Raw.Value, d.Raw.Pos.Line, platform), true
	}
	return finding.Pos{}, "", false
}
