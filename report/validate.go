package report

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/lockfile"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// Options control one validation.
type Options struct {
	// Platform is the conda subdir selectors are evaluated for; "" = host's.
	Platform string
	KB       *kb.KB
	Config   *Config
	// Hosts are the machines to hold the environment against (targets,
	// already resolved; see Machines.Resolve).
	Hosts []*gpucheck.Host
	// Getenv reads the process environment for PYTORCH_CUDA_ALLOC_CONF
	// (envguard check); nil for files validated in CI or by the service.
	Getenv  func(string) string
	MinFree uint64
	// Budget bounds the items read, the findings listed and their bytes;
	// the zero value means the defaults.
	Budget Budget
	// Binaries is what a live prefix's shared libraries carry (envguard
	// check, internal/prefixscan); the Stack is held to them before any
	// rule runs. nil for files.
	Binaries *resolver.Binaries
}

func (o *Options) kb() *kb.KB {
	if o.KB != nil {
		return o.KB
	}
	return kb.Default()
}

// Validate reads one input — an environment.yml, a `conda list --explicit`
// file, a lock file (conda-lock, pixi, uv, PEP 751), a pixi manifest or a
// requirements file — and judges it. It never fails: unreadable content becomes findings.
func Validate(file string, src []byte, opt Options) *Report {
	r, _ := ValidateContext(context.Background(), file, src, opt)
	return r
}

// ValidateContext is Validate that stops once ctx is done — the request's
// deadline passed, or its client went away — and then returns ctx's error
// and no report. The reading checks ctx every few items and the judging
// between its phases (each rule, each target), so the work left after ctx
// ends is one phase of an input already bounded by opt.Budget.
func ValidateContext(ctx context.Context, file string, src []byte, opt Options) (*Report, error) {
	// A binary or UTF-16 file is named before any reader sees it; UTF-16
	// with a byte-order mark is decoded and read.
	text, notText := envspec.Text(src)
	if notText != "" {
		return FromEnvContext(ctx, envspec.NotText(file, notText, opt.Platform), opt)
	}
	src = text
	// Lock files, pixi manifests and requirements files, told apart by name
	// and content; includes (-r) are not followed here, since the service
	// must never open a file a request names.
	// Every reader stops once ctx is done; the Env it then returns is cut
	// short, and ctx's error is the answer.
	lo := lockfile.Options{Platform: opt.Platform, MaxItems: opt.Budget.MaxItems, Context: ctx}
	var env *envspec.Env
	var machine *lockfile.CollectEnv // what a collect_env output says of its machine
	if k := lockfile.SniffFile(file, src); k == envspec.KindCollectEnv {
		if ce, err := lockfile.ParseCollectEnv(file, src); err == nil {
			env, machine = ce.Env(src, lo), ce
		} else {
			env = lockfile.ReadCollectEnv(file, src, lo) // its EG100
		}
	} else if k != envspec.KindEnvFile && k != envspec.KindExplicit {
		env = lockfile.Read(file, src, lo)
	} else if lockfile.Sniff(src) == envspec.KindExplicit {
		env = lockfile.ReadExplicitWith(file, src, lo)
	} else {
		env = envspec.Parse(file, src, envspec.ParseOptions{Platform: opt.Platform, MaxItems: opt.Budget.MaxItems, Context: ctx})
		if kind := documentKind(file); kind != "" {
			for i := range env.Diags {
				if env.Diags[i].Code == "EG100" {
					env.Diags[i].Hint = "this is " + kind + ", not an environment file: nothing in it needs fixing for envguard; pass it the environment files only"
				}
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if machine != nil {
		// collect_env describes the machine too: the environment is judged
		// for it first, then for the targets asked for.
		h, notes, ok := gpucheck.CollectEnvHost(machine, opt.kb())
		env.Notes = append(env.Notes, notes...)
		if ok {
			opt.Hosts = append([]*gpucheck.Host{h}, opt.Hosts...)
		}
	}
	return FromEnvContext(ctx, env, opt)
}

// FromEnv judges an environment already read (a file or a live prefix).
func FromEnv(env *envspec.Env, opt Options) *Report {
	r, _ := FromEnvContext(context.Background(), env, opt)
	return r
}

// FromEnvContext is FromEnv that stops between phases once ctx is done,
// returning ctx's error and no report.
func FromEnvContext(ctx context.Context, env *envspec.Env, opt Options) (*Report, error) {
	k := opt.kb()
	// Used is per validation: `envguard check` may judge one Env twice.
	for _, ig := range env.Ignores {
		ig.Used = false
	}
	diags := append(finding.Diagnostics(nil), env.Diags...)
	stack := resolver.Resolve(env, k)
	resolver.ApplyBinaries(stack, opt.Binaries)
	resolver.ApplyLearned(stack, k)
	rctx := &resolver.Context{Env: env, Stack: stack, KB: k, Getenv: opt.Getenv}
	found, err := resolver.Check(ctx, rctx)
	if err != nil {
		return nil, err
	}
	// EG108 comes from the file's reader, which knows no facts: its hint
	// is held to the knowledge base here
	resolver.ReviseChannelMix(rctx, diags)
	diags = append(diags, found...)

	r := &Report{File: env.File, Stack: stack, Targets: []TargetReport{}, KB: knowledgeFor(k, stack), env: env}
	r.Notes = append([]string(nil), env.Notes...)
	if stack.Binaries != nil {
		r.Notes = append(r.Notes, stack.Binaries.Notes...)
	}
	if env.Name != nil {
		r.Name.Declared = env.Name.Value
	}
	notRead := unread(env)
	if name, err := stack.Canonical(); err == nil {
		r.Name.Canonical = name
	} else if notRead != nil && notRead.Reason == "" {
		// "no framework" of a file whose framework line was never read is
		// false (review fourteen, 171: tensorflow-gpu after an EG100)
		r.Name.Reason = notRead.Why + "; in what was read, " + err.Error()
	} else {
		r.Name.Reason = err.Error()
	}

	checkOpt := gpucheck.CheckOptions{MinFree: opt.MinFree, Unread: notRead}
	others := otherFrameworkStacks(env, k, stack, opt)
	for _, h := range opt.Hosts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res := gpucheck.Evaluate(stack, h, k, checkOpt)
		if len(others) > 0 {
			// the other framework's build uses the GPUs: a CPU-only
			// primary does not leave them idle
			res.Findings = slices.DeleteFunc(res.Findings, func(d finding.Diagnostic) bool { return d.Code == "EG407" })
		}
		for _, o := range others {
			res = mergeResults(res, gpucheck.Evaluate(o, h, k, checkOpt))
		}
		tr := TargetReport{
			Name: h.Name, Driver: h.Driver, CUDADriver: h.CUDADriver, DriverRange: h.DriverRange, Nodes: h.Nodes,
			Available: h.Available, Reason: h.Reason, GPUs: []TargetGPU{},
			Undecided: res.Undecided, Uninstallable: res.Uninstallable, Notes: res.Notes,
		}
		for _, g := range h.GPUs {
			tr.GPUs = append(tr.GPUs, TargetGPU{Name: g.Name, ComputeCapability: g.CC})
		}
		for _, d := range res.Findings {
			d.Target = h.Name
			diags = append(diags, d)
		}
		r.Targets = append(r.Targets, tr)
	}

	// Severity overrides come before suppression so that codes turned off
	// neither show nor make their ignore comments look unused.
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var kept finding.Diagnostics
	for _, d := range diags {
		if d.Pos.File == "" {
			d.Pos.File = env.File
		}
		if d.EndCol == 0 && d.Pos.Col > 0 {
			// Rules that know only where an item starts still get a caret
			// under the whole item.
			d.EndCol = env.TokenEnd(d.Pos.Line, d.Pos.Col)
		}
		sev, on := opt.Config.severity(d.Code, d.Severity)
		if !on {
			continue
		}
		d.Severity = sev
		if env.IsInstalled() {
			d.Hint = prefixHint(d.Hint, d.Code)
		}
		d.Message, d.Hint = clipText(d.Message, maxTextBytes), clipText(d.Hint, maxTextBytes)
		if ig := suppressor(env, d); ig != nil {
			ig.Used = true
			continue
		}
		kept = append(kept, d)
	}
	for _, d := range ignoreFindings(env, len(opt.Hosts) > 0, opt.Config) {
		if sev, on := opt.Config.severity(d.Code, d.Severity); on {
			d.Severity = sev
			kept = append(kept, d)
		}
	}
	kept.Sort()
	kept = capPerCode(kept, maxPerCode)
	kept = capTotal(kept, opt.Budget.maxFindings(), opt.Budget.maxFindingBytes(), env.Line)
	r.diags = kept
	r.Findings = make([]Finding, 0, len(kept))
	for _, d := range kept {
		f := Finding{
			Code: d.Code, Severity: d.Severity.String(), Message: d.Message,
			Line: d.Pos.Line, Column: d.Pos.Col, EndColumn: d.EndCol, Hint: d.Hint,
			Snippet: env.Columns().Snippet(d.Pos.Line, d.Pos.Col, d.EndCol), Target: d.Target,
		}
		for _, p := range d.Related {
			if p.Line > 0 {
				f.Related = append(f.Related, Related{Line: p.Line, Column: p.Col})
			}
		}
		r.Findings = append(r.Findings, f)
	}
	r.Summary.Errors, r.Summary.Warnings, r.Summary.Info = kept.Count()
	clipStackText(reflect.ValueOf(r.Stack))
	// The verdict reads the findings as the project configured them (an
	// error turned into a warning no longer fails the target), but an
	// undecided check stays undecided even when EG409 is silenced: what was
	// not checked cannot become ok by being hidden.
	if len(r.Targets) > 0 {
		r.Summary.Targets = &VerdictCounts{}
	}
	// a file finding the stack keeps no trace of (a torch +cu118 pin
	// without its index) stops the install on every target as well
	fileUninstallable := ""
	for _, d := range kept {
		if d.Target == "" && d.Uninstallable && d.Severity == finding.SeverityError {
			fileUninstallable = d.Message + " (" + d.Code + ")"
			break
		}
	}
	for i := range r.Targets {
		t := &r.Targets[i]
		var mine []finding.Diagnostic
		for _, d := range kept {
			if d.Target == t.Name || (d.Target == "" && resolver.FailsTargets(d.Code)) {
				mine = append(mine, d)
			}
		}
		if t.Uninstallable == "" {
			t.Uninstallable = fileUninstallable
		}
		t.Verdict = gpucheck.TargetVerdict(mine, len(t.Undecided) > 0, t.Uninstallable)
		switch t.Verdict {
		case gpucheck.VerdictOK:
			r.Summary.Targets.OK++
		case gpucheck.VerdictFail:
			r.Summary.Targets.Fail++
		default:
			r.Summary.Targets.Unknown++
		}
	}
	return r, nil
}

// unread says where and why the reader could not read the file whole: a
// syntax error (EG100) or a key of the wrong shape (EG101), after which
// the rest of the document, or that key's content, was not read, or an
// item that is not a valid conda spec or pip requirement (EG103, EG104).
// Nil when it was read whole.
func unread(env *envspec.Env) *gpucheck.Unread {
	for _, d := range env.Diags {
		if d.Severity != finding.SeverityError {
			continue
		}
		switch d.Code {
		case "EG100":
			if kind := documentKind(env.File); kind != "" {
				// a README or a table named on the command line (review
				// forty-five F8, F25): nothing to fix, nothing installed
				return &gpucheck.Unread{Pos: d.Pos, Reason: "not-environment",
					Why:  fmt.Sprintf("%s is %s, not an environment file, and YAML cannot read it (EG100, line %d), so it installs nothing envguard could check", filepath.Base(env.File), kind, d.Pos.Line),
					Hint: "pass envguard the environment files only (environment.yml, conda-lock and pixi lock files, pixi and pyproject manifests, uv.lock, pylock.toml, requirements files); a directory it searches skips this one"}
			}
			return &gpucheck.Unread{Pos: d.Pos, Why: fmt.Sprintf("envguard could not read the file (EG100, line %d), so which packages it installs is not known", d.Pos.Line),
				Refused: fmt.Sprintf("the file is not valid YAML (EG100, line %d): conda cannot read it either, and creates nothing from it", d.Pos.Line)}
		case "EG101":
			return &gpucheck.Unread{Pos: d.Pos, Why: fmt.Sprintf("part of the file has a shape conda cannot read (EG101, line %d) and was not read, so what it installs is not known", d.Pos.Line),
				Refused: fmt.Sprintf("part of the file has a shape conda refuses (EG101, line %d): conda creates nothing from it as written", d.Pos.Line)}
		case "EG103":
			if readAsConda(env, d.Pos) {
				// conda reads it (libmamba refuses "=>3.11"): the
				// checks judge conda's reading (review thirty-three F26)
				continue
			}
			// An item conda refuses or reads otherwise: what it installs,
			// a GPU-code package or not, is not known (pytorch='2.1').
			return &gpucheck.Unread{Pos: d.Pos, Why: fmt.Sprintf("the item on line %d is not a valid conda spec (EG103), so what it installs is not known", d.Pos.Line)}
		case "EG104":
			// pip reads its whole requirements file before installing,
			// and an invalid line stops it: none of the pip section is
			// installed (torch=2.1.0 under pip:, read ok before; review
			// eleven #302)
			what := "the pip section"
			if env.Kind == envspec.KindRequirements {
				what = "the file"
			}
			return &gpucheck.Unread{Pos: d.Pos, Why: fmt.Sprintf("the pip line on line %d is not a valid requirement (EG104): pip stops there before installing anything of %s, so the environment is not what the file lists", d.Pos.Line, what),
				Refused: fmt.Sprintf("the pip line on line %d is not a valid requirement (EG104): pip stops there before installing anything of %s", d.Pos.Line, what)}
		}
	}
	if pos, why, ok := resolver.ForeignExport(env); ok {
		// --no-builds keeps the names, which is enough where each
		// package exists for the target's platform: not Windows' vc and
		// vs2015_runtime, but a macOS export's usually (review forty-one
		// F37, corpus 150: every conda package of it is on linux-64)
		noBuilds := "--no-builds is not enough there: it keeps Windows-only packages such as vc and vs2015_runtime"
		if !strings.Contains(why, "Windows") {
			noBuilds = "or export with --no-builds, which keeps every package but drops the builds: enough where each package exists for the target's platform"
		}
		// the pip: section is copied only where the file has one (review
		// forty-two F42, corpus 159: it has none)
		pip := ""
		if note := envspec.FromHistoryPipNote(env); note != "" {
			pip = "," + note
		}
		return &gpucheck.Unread{Pos: pos, Why: why, Reason: "foreign-export",
			Hint: "export the environment again with conda env export --from-history, which keeps only the conda packages asked for, so that the target's platform gets its own builds" + pip + "; " + noBuilds + "; or drop the platform's own packages by hand, or validate it with --platform for the machine it was made on"}
	}
	return nil
}

// documentKind names the kind of document a file's extension says it is,
// where that is a format no environment is written in (Markdown, a
// table, HTML, a notebook); "" otherwise.
func documentKind(file string) string {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".md", ".markdown":
		return "a Markdown document"
	case ".rst":
		return "a reStructuredText document"
	case ".tsv", ".csv":
		return "a table (" + strings.ToLower(filepath.Ext(file)) + ")"
	case ".html", ".htm":
		return "an HTML page"
	case ".ipynb":
		return "a Jupyter notebook"
	}
	return ""
}

// readAsConda reports whether the conda item an EG103 points at still
// has a spec: conda reads it, and only libmamba refuses it or reads it
// otherwise (envspec's spec issues), so what it installs is conda's
// reading rather than unknown.
func readAsConda(env *envspec.Env, pos finding.Pos) bool {
	for _, d := range env.Deps {
		if d.Raw.Pos.Line == pos.Line && d.Spec != nil {
			return true
		}
	}
	return false
}

// FailOn is what makes a validation fail CI: findings at or above a
// severity, and with Unknown also any target whose verdict is unknown.
type FailOn struct {
	Severity finding.Severity
	Unknown  bool
}

// ParseFailOn reads --fail-on (and .envguard.yml's fail_on): error, unknown
// (errors and undecided targets), warning (which covers EG409 too) or info
// (any finding at all).
func ParseFailOn(s string) (FailOn, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "error":
		return FailOn{Severity: finding.SeverityError}, nil
	case "unknown":
		return FailOn{Severity: finding.SeverityError, Unknown: true}, nil
	case "warning":
		return FailOn{Severity: finding.SeverityWarning, Unknown: true}, nil
	case "info":
		return FailOn{Severity: finding.SeverityInfo, Unknown: true}, nil
	}
	return FailOn{}, fmt.Errorf("%q: want error, unknown, warning or info", s)
}

// ExitCode is 1 when a finding is at or above the fail level, or a target
// is unknown and that fails too; else 0.
func (r *Report) ExitCode(f FailOn) int {
	for _, d := range r.diags {
		if d.Severity >= f.Severity {
			return 1
		}
	}
	if f.Unknown {
		for _, t := range r.Targets {
			if t.Verdict == gpucheck.VerdictUnknown {
				return 1
			}
		}
	}
	return 0
}

// maxPerCode bounds how many findings of one code a report lists. A real
// file has a handful; a generated or hostile one (40,000 copies of one
// package) would otherwise make a report of megabytes that nobody reads.
const maxPerCode = 100

// capPerCode keeps the first max findings of each code (in sorted order) and
// replaces the rest of a code with one finding, at the first omitted place,
// that says how many were left out. It carries the worst severity among
// them, so the exit status is what it would have been.
func capPerCode(ds finding.Diagnostics, max int) finding.Diagnostics {
	count := map[string]int{}
	for _, d := range ds {
		count[d.Code]++
	}
	over := false
	for _, n := range count {
		if n > max {
			over = true
		}
	}
	if !over {
		return ds
	}
	seen := map[string]int{}
	summary := map[string]*finding.Diagnostic{}
	// out never outgrows len(ds), so pointers into it stay valid.
	out := make(finding.Diagnostics, 0, len(ds))
	for _, d := range ds {
		seen[d.Code]++
		switch {
		case seen[d.Code] <= max:
			out = append(out, d)
		case summary[d.Code] == nil:
			s := finding.Diagnostic{
				Pos: d.Pos, Severity: d.Severity, Code: d.Code,
				Message: fmt.Sprintf("%d more %s findings like the ones above are left out of this report", count[d.Code]-max, d.Code),
				Hint:    "fix the ones listed and validate again",
			}
			out = append(out, s)
			summary[d.Code] = &out[len(out)-1]
		default:
			if s := summary[d.Code]; d.Severity > s.Severity {
				s.Severity = d.Severity
			}
		}
	}
	return out
}

// ignoreClauseRe finds a hint's suggestion of an ignore comment: ", or
// silence this line with `# envguard: ignore EG206`" and its kin.
// Compiled on first use (sync.OnceValue): Go runs every linked package's
// initialisation on every CLI start, and most runs need few of these.
var ignoreClauseRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`,? or silence (?:this line|it) with ` + "`# envguard: ignore [^`]*`" + `(?: if [^;.]*)?`)
})

// prefixHint rewrites a hint for an installed environment, which has no
// lines to put an ignore comment on: the project's .envguard.yml, or
// --ignore, silences a code there instead.
func prefixHint(hint, code string) string {
	if !strings.Contains(hint, "envguard: ignore") {
		return hint
	}
	return ignoreClauseRe().ReplaceAllString(hint, "") + "; to silence it here, set `rules: {" + code + ": off}` in .envguard.yml"
}

// otherFrameworkStacks are the stacks of the GPU frameworks the file
// installs beside the one the report is named by (tensorflow-gpu beside
// pytorch, jax[cuda12] beside a conda pytorch): a target is ok only when
// each of them passes its checks too. Each keeps only its own framework
// and CUDA libraries: the extensions are judged with the primary stack,
// against the framework they are built for. A CPU-only build of the other
// framework needs nothing of the machine.
func otherFrameworkStacks(env *envspec.Env, k *kb.KB, primary *resolver.Stack, opt Options) []*resolver.Stack {
	var out []*resolver.Stack
	for _, name := range primary.OtherFrameworks {
		st := resolver.ResolveFramework(env, k, name)
		if st == nil || st.Framework.Variant == "cpu" || st.Framework.Variant == "rocm" {
			continue
		}
		resolver.ApplyBinaries(st, opt.Binaries)
		resolver.ApplyLearned(st, k)
		var keep []resolver.GPUPackage
		for _, p := range st.GPUPackages {
			if p.Role != resolver.RoleExtension {
				keep = append(keep, p)
			}
		}
		st.GPUPackages = keep
		out = append(out, st)
	}
	return out
}

// mergeResults adds to a target's result what another framework's stack
// found on it, leaving out findings and undecided checks it already has
// (the CUDA libraries both frameworks load, a driver both need).
func mergeResults(a, b gpucheck.TargetResult) gpucheck.TargetResult {
	seen := map[string]bool{}
	for _, d := range a.Findings {
		seen[d.Code+"\x00"+d.Message] = true
	}
	for _, d := range b.Findings {
		if key := d.Code + "\x00" + d.Message; !seen[key] {
			seen[key] = true
			a.Findings = append(a.Findings, d)
		}
	}
	have := map[string]bool{}
	for _, u := range a.Undecided {
		have[u.Reason+"\x00"+u.What+"\x00"+u.Why] = true
	}
	for _, u := range b.Undecided {
		if key := u.Reason + "\x00" + u.What + "\x00" + u.Why; !have[key] {
			have[key] = true
			a.Undecided = append(a.Undecided, u)
		}
	}
	for _, n := range b.Notes {
		if !slices.Contains(a.Notes, n) {
			a.Notes = append(a.Notes, n)
		}
	}
	if a.Uninstallable == "" {
		a.Uninstallable = b.Uninstallable
	}
	a.Verdict = gpucheck.TargetVerdict(a.Findings, len(a.Undecided) > 0, a.Uninstallable)
	return a
}
