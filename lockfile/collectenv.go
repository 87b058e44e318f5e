package lockfile

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// CollectEnv is what `python -m torch.utils.collect_env` (or vLLM's copy
// of it, `python collect_env.py`) says, each fact with where it was read.
// Two layouts are read: "Key: value" lines (torch before 2.8) and the
// sectioned "Key   : value" layout under ===== headers; warnings printed
// before or between them are skipped.
type CollectEnv struct {
	File          string
	Torch         Fact // "2.1.0+cu121"
	TorchCUDA     Fact // "CUDA used to build PyTorch": "12.1"; "None" for a CPU build
	ROCm          Fact // "ROCM used to build PyTorch"
	Python        Fact // "3.10.12"
	PythonPlat    Fact // "Linux-5.15.0-86-generic-x86_64-with-glibc2.35"
	OS            Fact // "Ubuntu 20.04.2 LTS (x86_64)", "Microsoft Windows 11 Pro", "macOS 14.1 (arm64)"
	CUDAAvailable Fact // "True", "False"
	Driver        Fact // "535.104.05"; empty when "Could not collect"
	// DriverCUDA is the CUDA version the driver supports, where torch's
	// "driver on your system is too old (found version 11040)" warning
	// says it (11.4) and the driver line does not.
	DriverCUDA Fact
	GPUs       []Fact
	Pip        []Fact // "torch==2.1.0" of a [pip3] (or [pip]) line
	Conda      []CondaLine
}

// Fact is one value and where it starts.
type Fact struct {
	Value string
	Pos   finding.Pos
}

// CondaLine is one [conda] line: `conda list`'s columns.
type CondaLine struct {
	Name, Version, Build, Channel string
	Pos                           finding.Pos
}

// CollectEnvError is a collect_env output that cannot be read, at a place.
type CollectEnvError struct {
	Pos finding.Pos
	Msg string
}

func (e *CollectEnvError) Error() string { return e.Pos.String() + ": " + e.Msg }

// Compiled on first use, as the other readers' patterns.
var (
	reCEKey    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_ ()/.-]*?)\s*:(?:\s(.*))?$`) })
	reCEGPU    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^GPU \d+: (.+)$`) })
	reCELib    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[(pip3?|conda)\]\s+(.*)$`) })
	reCEPython = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d+\.\d+(?:\.\d+)?)`) })
	reCEOld    = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`The NVIDIA driver on your system is too old \(found version (\d{4,6})\)`)
	})
)

// IsCollectEnv reports whether src is collect_env's output: a "PyTorch
// version" line and one of the lines every version prints beside it, or,
// for the second half of one pasted alone, its library list beside its GPU
// or driver line.
func IsCollectEnv(src []byte) bool {
	head := src
	if len(head) > 64<<10 {
		head = head[:64<<10]
	}
	libs := bytes.Contains(head, []byte("Versions of relevant libraries:"))
	if !libs && !bytes.Contains(head, []byte("PyTorch version")) {
		return false // every other input, at the cost of one scan
	}
	// The keys of the head's "Key: value" lines, read once.
	keys := map[string]bool{}
	for _, ln := range bytes.Split(head, []byte("\n")) {
		if k, _, ok := bytes.Cut(bytes.TrimSpace(ln), []byte(":")); ok {
			keys[string(bytes.TrimRight(k, " \t"))] = true
		}
	}
	has := func(key string) bool { return keys[key] }
	if has("PyTorch version") {
		return has("Is debug build") || has("CUDA used to build PyTorch") || libs
	}
	return libs && (has("GPU models and configuration") || has("Nvidia driver version"))
}

// notCollected is what collect_env prints for a fact it could not read.
func notCollected(v string) bool {
	switch strings.TrimSpace(v) {
	case "", "Could not collect", "N/A", "No CUDA", "None":
		return true
	}
	return false
}

// ParseCollectEnv reads collect_env's output. Unknown lines are skipped;
// a file without its "PyTorch version" line is an error at line 1.
func ParseCollectEnv(file string, src []byte) (*CollectEnv, error) {
	ce := &CollectEnv{File: file}
	lines := envspec.SplitLines(src)
	inGPUs := false
	for i, raw := range lines {
		n := i + 1
		ln := strings.TrimRight(strings.TrimPrefix(raw, "\ufeff"), " \t\r")
		t := strings.TrimSpace(ln)
		col := strings.Index(ln, t) + 1
		if t == "" {
			inGPUs = false
			continue
		}
		if inGPUs {
			if m := reCEGPU().FindStringSubmatch(t); m != nil {
				ce.GPUs = append(ce.GPUs, Fact{strings.TrimSpace(m[1]), finding.Pos{File: file, Line: n, Col: col + len(t) - len(m[1])}})
				continue
			}
			if strings.HasPrefix(t, "MIG ") {
				continue // a MIG device of the GPU above
			}
			inGPUs = false
		}
		if m := reCEOld().FindStringSubmatchIndex(t); m != nil && ce.DriverCUDA.Value == "" {
			// cudaDriverGetVersion's number: 1000*major + 10*minor.
			v := t[m[2]:m[3]]
			var num int
			fmt.Sscan(v, &num)
			ce.DriverCUDA = Fact{fmt.Sprintf("%d.%d", num/1000, num%1000/10), finding.Pos{File: file, Line: n, Col: col + m[2]}}
			continue
		}
		if m := reCELib().FindStringSubmatch(t); m != nil {
			body := m[2]
			pos := finding.Pos{File: file, Line: n, Col: col + strings.Index(t, body)}
			if m[1] == "conda" {
				f := strings.Fields(body)
				if len(f) >= 3 {
					cl := CondaLine{Name: f[0], Version: f[1], Build: f[2], Pos: pos}
					if len(f) >= 4 {
						cl.Channel = f[3]
					}
					ce.Conda = append(ce.Conda, cl)
				}
			} else if strings.Contains(body, "==") {
				ce.Pip = append(ce.Pip, Fact{strings.TrimSpace(body), pos})
			}
			continue
		}
		m := reCEKey().FindStringSubmatch(t)
		if m == nil {
			continue
		}
		key, val := strings.TrimSpace(m[1]), strings.TrimSpace(m[2])
		vpos := finding.Pos{File: file, Line: n, Col: col + strings.LastIndex(t, val)}
		if val == "" {
			vpos.Col = col + len(t)
		}
		f := Fact{val, vpos}
		switch key {
		case "PyTorch version":
			ce.Torch = f
		case "CUDA used to build PyTorch":
			ce.TorchCUDA = f
		case "ROCM used to build PyTorch":
			ce.ROCm = f
		case "Python version":
			if pm := reCEPython().FindString(val); pm != "" {
				ce.Python = Fact{pm, vpos}
			}
		case "Python platform":
			ce.PythonPlat = f
		case "OS":
			ce.OS = f
		case "Is CUDA available":
			ce.CUDAAvailable = f
		case "Nvidia driver version":
			if !notCollected(val) {
				ce.Driver = f
			}
		case "GPU models and configuration":
			switch {
			case notCollected(val):
				inGPUs = val == ""
			default:
				if g := reCEGPU().FindStringSubmatch(val); g != nil {
					ce.GPUs = append(ce.GPUs, Fact{strings.TrimSpace(g[1]), finding.Pos{File: file, Line: n, Col: vpos.Col + len(val) - len(g[1])}})
					inGPUs = true
				} else {
					ce.GPUs = append(ce.GPUs, f) // one GPU, named without "GPU 0:"
				}
			}
		}
	}
	if ce.Torch.Value == "" {
		// A partial paste: the library list's torch stands in.
		for _, p := range ce.Pip {
			if name, v, ok := strings.Cut(p.Value, "=="); ok && envspec.NormalizePipName(name) == "torch" {
				ce.Torch = Fact{strings.TrimSpace(v), p.Pos}
			}
		}
	}
	if ce.Torch.Value == "" {
		return ce, &CollectEnvError{Pos: finding.Pos{File: file, Line: 1, Col: 1}, Msg: "no \"PyTorch version:\" line and no torch in [pip3]: this is not the output of python -m torch.utils.collect_env, or not all of it"}
	}
	return ce, nil
}

// Platform is the conda subdir of "Python platform" (Linux-…-x86_64-… is
// linux-64), "" when the line is missing or names no subdir envguard knows.
func (ce *CollectEnv) Platform() string {
	p := strings.ToLower(ce.PythonPlat.Value)
	if p == "" {
		// Outputs before "Python platform" existed name the OS and its
		// machine: "Ubuntu 20.04.2 LTS (x86_64)".
		os := strings.ToLower(ce.OS.Value)
		switch {
		case strings.Contains(os, "windows"):
			p = "windows"
		case strings.HasPrefix(os, "macos") || strings.HasPrefix(os, "mac os"):
			p = "macos " + os
		case os != "":
			p = "linux " + os
		}
	}
	switch {
	case strings.HasPrefix(p, "linux") && strings.Contains(p, "x86_64"):
		return "linux-64"
	case strings.HasPrefix(p, "linux") && strings.Contains(p, "aarch64"):
		return "linux-aarch64"
	case strings.HasPrefix(p, "windows"):
		return "win-64"
	case strings.HasPrefix(p, "macos") && strings.Contains(p, "arm64"):
		return "osx-arm64"
	case strings.HasPrefix(p, "macos") && strings.Contains(p, "x86_64"):
		return "osx-64"
	}
	return ""
}

// ReadCollectEnv reads collect_env's output as the installed environment
// it describes: the torch it reports (version, local version and the CUDA
// it was built with), Python, and the [pip3] and [conda] lines, each at
// its line. The machine it ran on is gpucheck's to read (CollectEnvTarget).
func ReadCollectEnv(file string, src []byte, opt Options) *envspec.Env {
	ce, err := ParseCollectEnv(file, src)
	if err != nil {
		env := &envspec.Env{File: file, Kind: envspec.KindCollectEnv, Platform: opt.Platform, Lines: envspec.SplitLines(src)}
		env.Diags = finding.Diagnostics{{Pos: finding.Pos{File: file, Line: 1, Col: 1}, Severity: envspec.RuleEG100.Severity, Code: envspec.RuleEG100.Code,
			Message: err.(*CollectEnvError).Msg, Hint: "paste the whole output of python -m torch.utils.collect_env"}}
		return env
	}
	return ce.Env(src, opt)
}

// Env is the installed environment ce describes; src is the text it was
// parsed from (for snippets under findings).
func (ce *CollectEnv) Env(src []byte, opt Options) *envspec.Env {
	file := ce.File
	env := &envspec.Env{File: file, Kind: envspec.KindCollectEnv, Platform: opt.Platform, Lines: envspec.SplitLines(src)}
	if env.Platform == "" {
		env.Platform = ce.Platform()
	}
	env.PythonVersion = ce.Python.Value
	if ce.TorchCUDA.Pos.Line > 0 {
		// "CUDA used to build PyTorch: None" is a CPU build; a paste without
		// the line says nothing of the build, so the Torch facts are left to
		// the library list.
		cuda := ce.TorchCUDA.Value
		if notCollected(cuda) {
			cuda = ""
		}
		env.Torch = &envspec.TorchInfo{Version: ce.Torch.Value, CUDA: cuda, Path: fmt.Sprintf("%s:%d", file, ce.Torch.Pos.Line)}
	}
	if !notCollected(ce.ROCm.Value) {
		env.Notes = append(env.Notes, fmt.Sprintf("%s:%d: torch was built with ROCm %s, for AMD GPUs", file, ce.ROCm.Pos.Line, ce.ROCm.Value))
	}
	pipNames := map[string]bool{}
	for _, p := range ce.Pip {
		line, err := envspec.ParsePipLine(p.Value)
		if err != nil || line.Req == nil {
			env.Notes = append(env.Notes, fmt.Sprintf("%s:%d: [pip3] line %q left out: not name==version", file, p.Pos.Line, p.Value))
			continue
		}
		r := line.Req
		version := ""
		for _, s := range r.Specifiers {
			if s.Op == "==" {
				version = s.Version
			}
		}
		if r.Normalized == "torch" && ce.Torch.Value != "" {
			version = ce.Torch.Value // the version line keeps the local version pip's list may drop
		}
		pipNames[r.Normalized] = true
		env.Pip = append(env.Pip, installedPip(p.Value, p.Pos, line, r.Name, version))
	}
	for _, c := range ce.Conda {
		if c.Channel == "pypi" {
			// pip installed it: collect_env lists it under [pip3] too,
			// unless its name is filtered there.
			norm := envspec.NormalizePipName(c.Name)
			if pipNames[norm] {
				continue
			}
			raw := c.Name + "==" + c.Version
			line, err := envspec.ParsePipLine(raw)
			if err != nil {
				continue
			}
			pipNames[norm] = true
			env.Pip = append(env.Pip, installedPip(raw, c.Pos, line, c.Name, c.Version))
			continue
		}
		in := &envspec.Installed{Name: c.Name, Version: c.Version, Build: c.Build, Channel: c.Channel, Installer: "conda", Path: file}
		if in.Channel == "" {
			in.Channel = "defaults" // conda list leaves the channel column empty for the default channels
		}
		env.Deps = append(env.Deps, &envspec.CondaDep{
			Raw:       envspec.String{Value: c.Name + "==" + c.Version + "=" + c.Build, Pos: c.Pos},
			Spec:      envspec.PinnedSpec(in),
			Installed: in,
		})
	}
	return env
}

// installedPip is a distribution pip installed, as collect_env lists it.
func installedPip(raw string, pos finding.Pos, line *envspec.PipLine, name, version string) *envspec.PipDep {
	return &envspec.PipDep{Raw: envspec.String{Value: raw, Pos: pos}, Line: line,
		Installed: &envspec.Installed{Name: name, Version: version, Installer: "pip", Path: pos.File}}
}
