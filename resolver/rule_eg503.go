package resolver

import (
	"fmt"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/internal/allocconf"
)

var ruleEG503 = &Rule{
	Rule: finding.Rule{
		Code:     "EG503",
		Name:     "bad-cuda-alloc-conf",
		Severity: finding.SeverityWarning,
		Title:    "PYTORCH_CUDA_ALLOC_CONF has an unknown option or a bad value",
		Why: "PyTorch refuses a bad allocator setting: it raises `Unrecognized CachingAllocator option` (or " +
			"`Unrecognized key`) or a range error when it parses the settings, which newer releases do while " +
			"`import torch` loads the CUDA allocator and older ones at the first CUDA allocation, often minutes " +
			"into a job. Values are case-sensitive (`True`, not `true`), and `max_split_size_mb` must be " +
			"above 20. Checked in `variables:` of the file and, for `envguard check`, in the process " +
			"environment; PYTORCH_ALLOC_CONF, the newer name, is checked the same way. In `envguard check` a " +
			"PYTORCH_CUDA_ALLOC_CONF of the process environment that an installed CUDA build of torch refuses " +
			"is an error (unless PYTORCH_ALLOC_CONF is set too): the job cannot start with it. A value PyTorch " +
			"only logs and ignores stays a warning.",
		Fix: "Use `key:value` pairs separated by commas, with the options and ranges of PyTorch's " +
			"\"Optimizing memory usage with PYTORCH_CUDA_ALLOC_CONF\" documentation.",
		Before: "variables:\n  PYTORCH_CUDA_ALLOC_CONF: expandable_segments:true,max_split_size_mb:16",
		After:  "variables:\n  PYTORCH_CUDA_ALLOC_CONF: expandable_segments:True,max_split_size_mb:128",
		Since:  "0.1.0",
	},
	run: runEG503,
}

// allocSetting is one allocator settings string found for the environment.
type allocSetting struct {
	Var   string // PYTORCH_CUDA_ALLOC_CONF or PYTORCH_ALLOC_CONF
	Value string
	Pos   finding.Pos // where the value starts
	// base is the column of the value's first character; 0 when columns
	// inside the value cannot be trusted (multi-line or escaped scalars).
	base int
	// process says the value is the process environment's (envguard
	// check), not a file's.
	process bool
}

// stops says the job's torch is sure to parse s: PYTORCH_CUDA_ALLOC_CONF of
// the process environment, which every release reads, unless
// PYTORCH_ALLOC_CONF is set too (newer releases read that one instead, and
// which wins differs between releases). PYTORCH_ALLOC_CONF itself is not
// read by older releases, and which release began to read it is not
// established here.
func (s allocSetting) stops(ctx *Context) bool {
	if !s.process || s.Var != "PYTORCH_CUDA_ALLOC_CONF" {
		return false
	}
	return ctx.Getenv == nil || ctx.Getenv("PYTORCH_ALLOC_CONF") == ""
}

// liveCUDATorch says the environment is an installed one whose framework
// is a torch with CUDA (or whose variant is not known): the torch the job
// imports reads the allocator settings. A CPU build never loads the CUDA
// allocator, and TensorFlow and JAX do not read the variable.
func liveCUDATorch(ctx *Context) bool {
	if ctx.Env == nil || !ctx.Env.IsInstalled() || ctx.Stack == nil {
		return false
	}
	f := ctx.Stack.Framework
	return f != nil && f.Name == "pytorch" && f.Variant != "cpu"
}

// at returns the position of byte offset off inside the value.
func (s allocSetting) at(off int) finding.Pos {
	p := s.Pos
	if s.base > 0 {
		p.Col = s.base + allocconf.RuneCol(s.Value, off)
	}
	return p
}

// allocSettings collects the allocator settings of the file's `variables:`
// and, when ctx.Getenv is set, of the process environment (skipping a
// process value equal to the file's, which activation copied there).
func allocSettings(ctx *Context) []allocSetting {
	var out []allocSetting
	seen := map[string]string{}
	if ctx.Env != nil {
		for _, v := range ctx.Env.Variables {
			name := strings.TrimSpace(v.Key.Value)
			if !isAllocVar(name) {
				continue
			}
			s := allocSetting{Var: name, Value: v.Value.Value, Pos: v.Value.Pos}
			s.base = valueBase(ctx.Env, v.Value)
			out = append(out, s)
			seen[name] = v.Value.Value
		}
	}
	if ctx.Getenv != nil {
		for _, name := range allocconf.Vars {
			val := ctx.Getenv(name)
			if val == "" {
				continue
			}
			if fv, ok := seen[name]; ok && fv == val {
				continue
			}
			out = append(out, allocSetting{Var: name, Value: val,
				Pos: finding.Pos{File: "$" + name, Line: 1, Col: 1}, base: 1, process: true})
		}
	}
	return out
}

func isAllocVar(name string) bool {
	for _, v := range allocconf.Vars {
		if name == v {
			return true
		}
	}
	return false
}

// valueBase finds the column where a scalar's text starts on its line: past
// an opening quote, and only when the text is there as written.
func valueBase(env *envspec.Env, v envspec.String) int {
	if v.Pos.Line <= 0 || v.Pos.Col <= 0 {
		return 0
	}
	line := []rune(env.Line(v.Pos.Line))
	i := v.Pos.Col - 1
	if i >= len(line) {
		return 0
	}
	if line[i] == '"' || line[i] == '\'' {
		i++
	}
	if strings.HasPrefix(string(line[i:]), v.Value) {
		return i + 1
	}
	return 0
}

func runEG503(ctx *Context) []finding.Diagnostic {
	if ctx == nil {
		return nil
	}
	var out []finding.Diagnostic
	stops := liveCUDATorch(ctx)
	for _, s := range allocSettings(ctx) {
		_, errs := allocconf.Parse(s.Value)
		for _, e := range errs {
			d := diag(ctx.rule, s.at(e.Off), fmt.Sprintf("%s: %s", s.Var, e.Msg), e.Hint)
			if stops && s.stops(ctx) && e.Refused {
				// The job's own process has it and its torch parses it:
				// this run stops, whatever the file's default severity.
				d.Severity = finding.SeverityError
				d.Message += "; the installed torch refuses it, so the job stops"
			}
			if s.base > 0 && e.End > e.Off {
				d.EndCol = s.base + allocconf.RuneCol(s.Value, e.End)
			}
			out = append(out, d)
		}
	}
	return out
}
