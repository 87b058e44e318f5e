package resolver

import (
	"strings"
	"unicode/utf8"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// The edits behind the fixable resolver rules. Each returns nil unless the
// fix is certain and the item is written where and as the rule read it;
// the finding then keeps its hint for the user.

// condaDepAt is the conda dependency written at pos (its line, a column
// inside it), nil when none.
func condaDepAt(env *envspec.Env, pos finding.Pos) *envspec.CondaDep {
	for _, d := range env.Deps {
		if d.Raw.Pos.Line == pos.Line && d.Raw.Pos.Col <= pos.Col && pos.Col <= d.Raw.Pos.Col+utf8.RuneCountInString(d.Raw.Value) {
			return d
		}
	}
	return nil
}

// pipDepAt is the pip line written at pos, nil when none.
func pipDepAt(env *envspec.Env, pos finding.Pos) *envspec.PipDep {
	for _, d := range env.Pip {
		if d.Raw.Pos.Line == pos.Line && d.Raw.Pos.Col <= pos.Col && pos.Col <= d.Raw.Pos.Col+utf8.RuneCountInString(d.Raw.Value) {
			return d
		}
	}
	return nil
}

// condaVersionEdit replaces the version part of a conda dependency (the
// operator with it) with text. A dependency that pins a build string is
// left alone: the build belongs to the old version.
func condaVersionEdit(env *envspec.Env, d *envspec.CondaDep, text func(old string, spaced bool) string) []finding.Edit {
	if d == nil || d.Spec == nil || d.Spec.Build != "" || d.Spec.VersionSpan.IsZero() {
		return nil
	}
	raw := d.Raw.Value
	lead := len(raw) - len(strings.TrimLeft(raw, " \t"))
	trimmed := strings.TrimSpace(raw)
	sp := d.Spec.VersionSpan
	if sp.End > len(trimmed) || sp.Start <= 0 {
		return nil
	}
	old := trimmed[sp.Start:sp.End]
	spaced := trimmed[sp.Start-1] == ' '
	at := d.Raw.Pos.Shift(utf8.RuneCountInString(raw[:lead+sp.Start]))
	if ed, ok := env.ReplaceAt(at, old, text(old, spaced)); ok {
		return []finding.Edit{ed}
	}
	return nil
}

// retargetCUDA rewrites a CUDA version spec that says `says` to say `want`,
// in the spec's own style where it is a plain pin (=11.3 → =11.6, 11.3.*
// → 11.6.*), and as a pin of the minor otherwise (a range, a patch).
func retargetCUDA(old string, spaced bool, says, want string) string {
	rest := strings.TrimLeft(old, "=")
	eqs := old[:len(old)-len(rest)]
	num, star := rest, ""
	if s, ok := strings.CutSuffix(num, "*"); ok {
		num, star = s, "*"
		if s, ok := strings.CutSuffix(num, "."); ok {
			num, star = s, ".*"
		}
	}
	if num == says {
		return eqs + want + star
	}
	if spaced {
		return want + ".*"
	}
	return "=" + want
}

// alignCUDAEdits makes the item of evidence e name CUDA want: a conda CUDA
// package's version, a wheel index's /whl/cuXXX, or a wheel's +cuXXX.
func alignCUDAEdits(c *Context, e Evidence, want string) []finding.Edit {
	env := c.Env
	if !env.Editable() || !hasMinor(want) {
		return nil
	}
	switch e.Kind {
	case EvidenceCudatoolkit, EvidencePytorchCUDA, EvidenceCUDAVersion, EvidenceCUDAPackage:
		if e.Kind == EvidenceCudatoolkit && majorOf(want) >= 12 {
			return nil // cudatoolkit ends at 11.8: the hint replaces the package, a change for the user
		}
		return condaVersionEdit(env, condaDepAt(env, e.Pos), func(old string, spaced bool) string {
			return retargetCUDA(old, spaced, e.Says, want)
		})
	case EvidenceIndex:
		return cuTagEdit(env, pipDepAt(env, e.Pos), "/whl/cu", e.Says, want)
	case EvidenceLocal:
		return cuTagEdit(env, pipDepAt(env, e.Pos), "+cu", e.Says, want)
	}
	return nil
}

// cuTagEdit replaces the cuXXX after lead ("/whl/cu", "+cu") in a pip line.
func cuTagEdit(env *envspec.Env, d *envspec.PipDep, lead, says, want string) []finding.Edit {
	if d == nil {
		return nil
	}
	from, to := strings.ReplaceAll(says, ".", ""), strings.ReplaceAll(want, ".", "")
	raw := d.Raw.Value
	i := strings.Index(raw, lead+from)
	if i < 0 {
		return nil
	}
	end := i + len(lead) + len(from)
	if end < len(raw) && raw[end] >= '0' && raw[end] <= '9' {
		return nil // cu1180 is not cu118
	}
	if strings.Contains(raw[end:], lead+from) {
		return nil // twice on one line: which one is meant is not certain
	}
	start := i + len(lead) - len("cu")
	at := d.Raw.Pos.Shift(utf8.RuneCountInString(raw[:start]))
	if ed, ok := env.ReplaceAt(at, "cu"+from, "cu"+to); ok {
		return []finding.Edit{ed}
	}
	return nil
}

// pinEdits makes a package's version part (at VersionPos, up to VersionEnd)
// read version v in the item's own syntax: =v for conda, ==v for pip (a
// +local label kept).
func pinEdits(c *Context, p Package, v string) []finding.Edit {
	env := c.Env
	if !env.Editable() || p.VersionEnd <= p.VersionPos.Col {
		return nil
	}
	old, ok := env.Text(p.VersionPos, p.VersionEnd)
	if !ok || old == "" || strings.Contains(old, ",") {
		return nil
	}
	if next, _ := env.Text(finding.Pos{Line: p.VersionPos.Line, Col: p.VersionEnd}, p.VersionEnd+1); next == "," {
		return nil // the span is one specifier of several
	}
	var text string
	if p.From == envspec.ProviderPip {
		d := pipDepAt(env, p.VersionPos)
		if d == nil || d.Line == nil || strings.Contains(old, ";") {
			return nil
		}
		text = "==" + v
		// A variant label (+cu118) stays; a source build's (+a853dff)
		// names no wheel of the release the fix writes.
		if i := strings.IndexByte(old, '+'); i >= 0 && variantLabel(old[i+1:]) && !strings.Contains(v, "+") {
			text += old[i:]
		}
	} else {
		d := condaDepAt(env, p.VersionPos)
		if d == nil || d.Spec == nil || d.Spec.Build != "" {
			return nil
		}
		text = "=" + v
		if !strings.ContainsAny(old[:1], "=<>!~") {
			text = v // `name 0.12.*` keeps its spaced form
		}
	}
	if ed, ok := env.ReplaceAt(p.VersionPos, old, text); ok {
		return []finding.Edit{ed}
	}
	return nil
}

// dropPipEdits removes a pip line, and the `- pip:` line too when it was
// the section's only line (an empty `pip:` is left behind otherwise).
func dropPipEdits(env *envspec.Env, d *envspec.PipDep) []finding.Edit {
	if env == nil || env.Kind != envspec.KindEnvFile || d == nil {
		return nil
	}
	del, ok := env.DeleteItem(d.Raw)
	if !ok {
		return nil
	}
	if len(env.Pip) == 1 && env.PipKey != nil {
		key := envspec.String{Value: "pip:", Pos: *env.PipKey}
		if k, ok := env.DeleteItem(key); ok {
			return []finding.Edit{k, del}
		}
	}
	return []finding.Edit{del}
}

// moveToCondaEdits replaces a pip line with the conda dependency spec,
// written before the `- pip:` item with the line's comment: the library
// then comes from the side that provides the CUDA stack. Where the pip
// section goes with the line, so does a bare `- pip`.
func moveToCondaEdits(env *envspec.Env, d *envspec.PipDep, spec string) []finding.Edit {
	if env == nil || env.PipKey == nil || spec == "" {
		return nil
	}
	drop := dropPipEdits(env, d)
	if drop == nil {
		return nil
	}
	if d.Comment != "" {
		spec += "  # " + d.Comment // the line's comment moves with it
	}
	ins, ok := env.InsertItemBefore(*env.PipKey, spec)
	if !ok {
		return nil
	}
	edits := append([]finding.Edit{ins}, drop...)
	if len(env.Pip) == 1 && len(drop) == 2 {
		// the pip: section goes: a bare `- pip` beside it was there only
		// for it (a pinned pip stays: the user asked for that pip)
		if del, ok := barePipEdit(env, d); ok {
			edits = append(edits, del)
		}
	}
	return edits
}

// barePipEdit deletes the conda dependency `pip`, written bare (no
// version, build or channel), on a line of its own apart from the pip
// section's lines.
func barePipEdit(env *envspec.Env, d *envspec.PipDep) (finding.Edit, bool) {
	for _, c := range env.Deps {
		if strings.TrimSpace(c.Raw.Value) != "pip" || c.Raw.Pos.Line == env.PipKey.Line || c.Raw.Pos.Line == d.Raw.Pos.Line {
			continue
		}
		return env.DeleteItem(c.Raw)
	}
	return finding.Edit{}, false
}

// condaSpecOfPip is the conda spec that asks for what pip line p asks
// for: the library's conda package, on a channel that the knowledge base
// says publishes it (the name alone where the file lists that channel,
// channel::name otherwise), with the line's version constraint in conda's
// syntax (==, !=, <, <=, >, >=, ~= as written, a wildcard ==X.* as =X
// first and X.* after a comma). It
// is "" where the line says what a conda spec cannot: extras, a marker, a
// URL, a local version label, ===; or where the knowledge base names no
// channel for the library.
func condaSpecOfPip(c *Context, p pipItem) string {
	if c == nil || c.KB == nil || c.Env == nil || p.Dep == nil || p.Dep.Line == nil || p.Dep.Line.Req == nil {
		return ""
	}
	l, ok := c.KB.LibByPip(p.Name)
	if !ok || l == nil || len(l.Conda) == 0 || len(l.CondaChannels) == 0 {
		return ""
	}
	r := p.Dep.Line.Req
	if len(r.Extras) > 0 || r.Marker != "" || r.URL != "" || r.Editable || r.Bare {
		return ""
	}
	var parts []string
	for _, sp := range r.Specifiers {
		v := strings.TrimSpace(sp.Version)
		if v == "" || strings.ContainsAny(v, "+ ") {
			return ""
		}
		switch sp.Op {
		case "==":
			if w, ok := strings.CutSuffix(v, ".*"); ok {
				if len(parts) == 0 {
					parts = append(parts, "="+w) // conda's =X is X.*, and keeps the name apart
				} else {
					parts = append(parts, v)
				}
			} else {
				parts = append(parts, "=="+v)
			}
		case "!=", "<", "<=", ">", ">=", "~=":
			if strings.HasSuffix(v, "*") && sp.Op != "!=" {
				return ""
			}
			parts = append(parts, sp.Op+v)
		default:
			return ""
		}
	}
	name := l.Conda[0]
	if ch := l.CondaChannels[0]; !listsChannel(c.Env, l.CondaChannels) {
		name = ch + "::" + name
	}
	return name + strings.Join(parts, ",")
}

// listsChannel reports whether the file's channels name one of chans, by
// name or as the last part of a URL.
func listsChannel(env *envspec.Env, chans []string) bool {
	for _, c := range env.Channels {
		v := strings.TrimRight(strings.TrimSpace(c.Value), "/")
		for _, ch := range chans {
			if v == ch || strings.HasSuffix(v, "/"+ch) {
				return true
			}
		}
	}
	return false
}

// condaNameOf is the conda package that provides a GPU library, "" for the
// frameworks (moving one changes the whole stack) and libraries conda does
// not carry.
func condaNameOf(lib string) string {
	switch lib {
	case "torch", "tensorflow", "jax", "mxnet", "paddlepaddle":
		return ""
	}
	for _, l := range gpuLibs {
		if l.Lib == lib && len(l.Conda) > 0 {
			return l.Conda[0]
		}
	}
	return ""
}

// extraIndexEdits adds `--extra-index-url` to the PyTorch wheel index of
// variant local (cu121, cpu) as the first line of the pip section: before
// the first pip item of an environment.yml, before the first line holding
// an item of a requirements file. Unsafe: pip then looks at that index for
// every package. nil for another local (rocm) or a section laid out
// otherwise (a flow list).
func extraIndexEdits(c *Context, local string) []finding.Edit {
	env := c.Env
	if !env.Editable() || c.KB == nil || len(env.Pip) == 0 || !(local == "cpu" || strings.HasPrefix(local, "cu")) {
		return nil
	}
	root := c.KB.TorchWheelIndexURL()
	first := env.Pip[0]
	if root == "" || first.Raw.Pos.Col < 1 {
		return nil
	}
	text := "--extra-index-url " + root + local
	var ed finding.Edit
	var ok bool
	if env.Kind == envspec.KindRequirements {
		ed, ok = env.InsertLine(first.Raw.Pos.Line, text)
	} else {
		ed, ok = env.InsertItemBefore(first.Raw.Pos, text)
	}
	if !ok {
		return nil
	}
	return []finding.Edit{ed}
}
