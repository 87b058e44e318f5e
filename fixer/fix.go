package fixer

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/lockfile"
	"github.com/envguard/envguard/report"
)

// Options control one fix.
type Options struct {
	// Report is how the file is validated (platform, knowledge base,
	// project configuration, budget). Its Hosts are not used: Targets are.
	Report report.Options
	// Unsafe also applies the fixes of rules whose fix changes what gets
	// installed or how the environment is addressed (EG301, EG302, EG207,
	// EG205's index, EG108's and EG112's channels, EG501's name).
	Unsafe bool
	// Select limits the fixes to these codes; empty means every fixable
	// code. CheckSelect says whether a list is usable.
	Select []string
	// Targets are the machines every edit is validated against (Report's
	// Hosts are not used). With Unsafe, a framework whose release or
	// variant the file leaves to the solver (EG502, EG207, EG409) is also
	// pinned to the newest build that validates on all of them.
	Targets []*gpucheck.Host
	// Pin picks the builds of those pins (builder.PinPick); nil: no pins.
	Pin PinFunc
}

// Applied is a fix that was made. Its position is in the text the fix was
// applied to (the file as read, or as an earlier round left it).
type Applied struct {
	Code    string `json:"code"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// Skipped is a finding with a fix that was not made, and why.
type Skipped struct {
	Code   string `json:"code"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// Result is what Fix did to one file.
type Result struct {
	File    string
	Fixed   []byte
	Applied []Applied
	Skipped []Skipped
	// Remaining counts the findings at error or warning left after fixing.
	Remaining int
	// Report is the validation of the fixed text.
	Report *report.Report

	// edits are the edits applied, every round's (for the tests that
	// check nothing else changed).
	edits []finding.Edit
}

// maxRounds bounds the validate → fix iterations. One round makes every
// fix that does not conflict; a second makes what the first changed (the
// canonical name after the CUDA pin) and the fixes a conflict held back;
// with targets, a pin for them comes once the file's own fixes are made,
// and the name it changes after it.
const maxRounds = 6

// ErrNotEnvFile is returned for inputs other than environment.yml and pip
// requirements files: the other formats are written by tools (lock files)
// or read from a machine.
var ErrNotEnvFile = fmt.Errorf("envguard fix edits environment.yml and requirements files only")

// Fix validates src, applies the certain fixes, and repeats until nothing
// more applies or maxRounds is reached. It returns ctx's error once ctx is
// done.
func Fix(ctx context.Context, file string, src []byte, opt Options) (*Result, error) {
	src, encode, err := decodeForFix(file, src)
	if err != nil {
		return nil, err
	}
	if k := lockfile.SniffFile(file, src); (k != envspec.KindEnvFile && k != envspec.KindRequirements) || lockfile.Sniff(src) == envspec.KindExplicit {
		return nil, fmt.Errorf("%s: %w (this is a %s file)", file, ErrNotEnvFile, kindName(file, src))
	}
	ropt := opt.Report
	ropt.Hosts = opt.Targets
	pinning := opt.Unsafe && len(opt.Targets) > 0 && opt.Pin != nil && (len(opt.Select) == 0 || selectsPin(opt.Select))
	pinTried, pinWhy := false, ""
	sel := map[string]bool{}
	for _, c := range opt.Select {
		sel[strings.ToUpper(strings.TrimSpace(c))] = true
	}
	// an added finding at info whose own fix this run makes next (EG501
	// once a pin makes the canonical name known) does not hold a fix back;
	// one at warning or error does, even with a fix of its own (EG203
	// would rewrite the user's companion pin)
	followUp := func(d finding.Diagnostic) bool {
		return d.Severity == finding.SeverityInfo && len(d.Edits) > 0 && allowed(d.Code, opt.Unsafe, sel)
	}
	res := &Result{File: file}
	cur := src
	reasons := map[string]string{} // why a fix was last held back, by finding
	var final *report.Report
	rep, err := report.ValidateContext(ctx, file, cur, ropt)
	if err != nil {
		return nil, err
	}
	for round := 0; ; round++ {
		if round == maxRounds {
			final = rep
			break
		}
		var changes []Change
		var from []finding.Diagnostic
		for _, d := range rep.Diagnostics() {
			if len(d.Edits) > 0 && allowed(d.Code, opt.Unsafe, sel) {
				changes = append(changes, Change{Edits: d.Edits})
				from = append(from, d)
			}
		}
		// Each change is tried on top of those taken before it and the
		// text validated: one that would add a finding (any code's count
		// grows, at any severity) is not made. base is the validation of
		// next, the text with the changes taken so far.
		var taken []Change
		next, base := cur, rep
		made := 0
		for i, ch := range changes {
			d := from[i]
			text, outs := Apply(cur, append(taken[:len(taken):len(taken)], ch))
			if o := outs[len(outs)-1]; !o.Applied {
				reasons[findingKey(d)] = o.Reason
				continue
			}
			trial := base
			if !bytes.Equal(text, next) {
				if trial, err = report.ValidateContext(ctx, file, text, ropt); err != nil {
					return nil, err
				}
				if why := addedFindings(base, trial, followUp); why != "" {
					reasons[findingKey(d)] = why
					continue
				}
			}
			taken = append(taken, ch)
			next, base = text, trial
			made++
			res.edits = append(res.edits, ch.Edits...)
			res.Applied = append(res.Applied, Applied{Code: d.Code, Line: d.Pos.Line, Column: d.Pos.Col, Message: d.Message})
		}
		if made == 0 && pinning && !pinTried {
			// the file's own fixes are made: pin what it leaves to the
			// solver, the newest release whose build validates on every
			// target and adds no finding
			pinTried = true
			text, trial, applied, why, err := tryPin(ctx, file, cur, rep, ropt, opt, followUp)
			if err != nil {
				return nil, err
			}
			if applied != nil {
				next, base = text, trial
				made++
				res.edits = append(res.edits, applied.change.Edits...)
				res.Applied = append(res.Applied, applied.applied...)
			} else if why != "" {
				pinWhy = fmt.Sprintf("no pin for the targets (%s): %s", hostNames(opt.Targets), why)
			}
		}
		if made == 0 {
			final = rep
			break
		}
		cur, rep = next, base
	}
	if !opt.Unsafe && len(opt.Targets) > 0 && opt.Pin != nil && (len(opt.Select) == 0 || selectsPin(opt.Select)) {
		pinWhy = "a pin for the targets is an unsafe fix (it changes what gets installed): apply it with --unsafe"
	}
	if pinWhy != "" {
		for _, d := range pinFindings(final) {
			res.Skipped = append(res.Skipped, Skipped{Code: d.Code, Line: d.Pos.Line, Reason: pinWhy})
			break
		}
	}
	for _, d := range final.Diagnostics() {
		if len(d.Edits) == 0 || (len(sel) > 0 && !sel[d.Code]) {
			continue
		}
		reason := ""
		switch {
		case fixability(d.Code) == finding.FixUnsafe && !opt.Unsafe:
			reason = "an unsafe fix (it changes what gets installed, or the name or channels): apply it with --unsafe"
		case reasons[findingKey(d)] != "":
			reason = reasons[findingKey(d)]
		default:
			reason = fmt.Sprintf("still open after %d rounds of fixes", maxRounds)
		}
		res.Skipped = append(res.Skipped, Skipped{Code: d.Code, Line: d.Pos.Line, Reason: reason})
	}
	res.Fixed = encode(cur)
	res.Report = final
	res.Remaining = final.Summary.Errors + final.Summary.Warnings
	return res, nil
}

// CheckSelect reports a code in codes that is unknown or has no fix. The
// codes a pin for targets answers (EG502, EG304, EG409) count as fixable.
func CheckSelect(codes []string) error {
	for _, c := range codes {
		c = strings.ToUpper(strings.TrimSpace(c))
		r := report.Lookup(c)
		switch {
		case r == nil:
			return fmt.Errorf("--select %s: no such rule (envguard rules lists them)", c)
		case r.Fixable == finding.FixNone && !selectsPin([]string{c}):
			return fmt.Errorf("--select %s: %s has no automatic fix (fixable: %s)", c, c, strings.Join(FixableCodes(), ", "))
		}
	}
	return nil
}

// FixableCodes lists the codes whose rules have a fix, in code order.
func FixableCodes() []string {
	var out []string
	for _, r := range report.Catalog() {
		if r.Fixable != finding.FixNone {
			out = append(out, r.Code)
		}
	}
	sort.Strings(out)
	return out
}

func fixability(code string) finding.Fixability {
	if r := report.Lookup(code); r != nil {
		return r.Fixable
	}
	return finding.FixNone
}

func allowed(code string, unsafe bool, sel map[string]bool) bool {
	if len(sel) > 0 && !sel[code] {
		return false
	}
	switch fixability(code) {
	case finding.FixSafe:
		return true
	case finding.FixUnsafe:
		return unsafe
	}
	return false
}

func findingKey(d finding.Diagnostic) string { return d.Code + "\x00" + d.Message }

func kindName(file string, src []byte) string {
	if lockfile.Sniff(src) == envspec.KindExplicit {
		return "conda list --explicit"
	}
	return string(lockfile.SniffFile(file, src))
}

// addedFindings says which findings the validation after has that before
// has not, where a code's count at some severity grew: "" when none grew.
// The fix that led from before to after is then not made. A finding for
// which followUp is true does not count: it carries a fix of its own that
// this run makes next, validated in its turn (the canonical name a pin
// makes known, EG501 at info with --unsafe).
func addedFindings(before, after *report.Report, followUp func(finding.Diagnostic) bool) string {
	count := map[string]int{}
	key := func(d finding.Diagnostic) string { return d.Code + " " + d.Severity.String() }
	for _, d := range before.Diagnostics() {
		count[key(d)]++
	}
	for _, d := range after.Diagnostics() {
		if !followUp(d) {
			count[key(d)]--
		}
	}
	old := map[string]bool{}
	for _, d := range before.Diagnostics() {
		old[findingKey(d)] = true
	}
	var added []string
	seen := map[string]bool{}
	for _, d := range after.Diagnostics() {
		k := key(d)
		if count[k] >= 0 || followUp(d) || old[findingKey(d)] || seen[findingKey(d)] {
			continue
		}
		seen[findingKey(d)] = true
		added = append(added, fmt.Sprintf("%s (%s, line %d: %s)", d.Code, d.Severity, d.Pos.Line, d.Message))
	}
	if len(added) == 0 {
		for k, n := range count {
			if n < 0 { // grew, though every message was there before
				added = append(added, k)
			}
		}
		sort.Strings(added)
	}
	if len(added) == 0 {
		return ""
	}
	return "the edit would add " + strings.Join(added, "; ")
}

// selectsPin reports whether --select names a code a pin answers.
func selectsPin(sel []string) bool {
	for _, c := range sel {
		for _, p := range pinCodes {
			if strings.EqualFold(strings.TrimSpace(c), p) {
				return true
			}
		}
	}
	return false
}

// pinMade is a pin that was made: its change, and a line for each code it
// answered.
type pinMade struct {
	change  Change
	applied []Applied
}

// tryPin makes the first pin for opt.Targets, newest release first, whose
// text validates (rep is cur's validation) with no finding added and less
// left to the solver. It answers the text, its validation and the pin; or
// why none was made ("" when nothing asked for a pin).
func tryPin(ctx context.Context, file string, cur []byte, rep *report.Report, ropt report.Options, opt Options, followUp func(finding.Diagnostic) bool) ([]byte, *report.Report, *pinMade, string, error) {
	found := pinFindings(rep)
	if len(found) == 0 {
		return nil, nil, nil, "", nil
	}
	pins, why := pinCandidates(file, cur, rep, ropt, opt.Targets, opt.Pin)
	for _, p := range pins {
		text, outs := Apply(cur, []Change{p.change})
		if !outs[0].Applied {
			why = outs[0].Reason
			continue
		}
		trial, err := report.ValidateContext(ctx, file, text, ropt)
		if err != nil {
			return nil, nil, nil, "", err
		}
		if w := addedFindings(rep, trial, followUp); w != "" {
			why = p.text + ": " + w
			continue
		}
		if pinCount(trial) >= len(found) {
			why = p.text + " leaves as much to the solver"
			continue
		}
		made := &pinMade{change: p.change}
		msg := fmt.Sprintf("pinned to %s, the newest build that validates on every target (%s)", p.text, hostNames(opt.Targets))
		codes := map[string]bool{}
		for _, d := range found {
			if !codes[d.Code] {
				codes[d.Code] = true
				made.applied = append(made.applied, Applied{Code: d.Code, Line: d.Pos.Line, Column: d.Pos.Col, Message: msg})
			}
		}
		return text, trial, made, "", nil
	}
	return nil, nil, nil, why, nil
}
