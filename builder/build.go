// Package builder is envguard's environment builder: given "pytorch 2.1 for
// these machines" it writes a pinned environment.yml. It generates every
// candidate the knowledge base offers (each CUDA variant of the release in
// the chosen distribution), validates each with the same pipeline as
// `envguard validate` against the target machines, and keeps the best one,
// so what it emits passes envguard's own checks by construction.
package builder

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/report"
	"github.com/envguard/envguard/resolver/kb"
)

// Request says what to build.
type Request struct {
	Framework string // "pytorch", "tensorflow" or "jax" (Frameworks)
	Version   string // a series ("2.1") or a release ("2.1.2")
	Python    string // "3.10"; "" picks the newest the release supports
	// CUDA is a variant ("12.1"), "cpu", or "" / "auto" for the newest
	// variant that every target runs.
	CUDA string
	// Via is "conda" (the pytorch channel; for a release the channel no
	// longer carries, conda-forge where the knowledge base knows its builds,
	// else PyTorch's wheels in the file's pip: section), "pip" (PyTorch's
	// wheel index), "conda-forge", or "" (the pytorch channel where it has
	// the release, else pip).
	Via string
	// Hosts are the machines the environment must run on.
	Hosts []*gpucheck.Host
	// Command is the command line, for the header comment.
	Command string
	KB      *kb.KB
}

// Result is a built environment.
type Result struct {
	YAML    []byte
	Name    string
	Release string
	Python  string
	CUDA    string // "" for a CPU build
	Dist    kb.Distribution
	// Pip are the lines of the file's pip: section, in order ("--index-url
	// URL", then requirements); nil when conda installs everything. They
	// are what an installer without conda (uv) installs.
	Pip []string
	// Why is the header's explanation, one line each.
	Why []string
	// Report is the validation of YAML as emitted (line numbers count the
	// header).
	Report *report.Report

	cand candidate
	body string
	// selector is the pytorch channel's spec that picks the variant
	// (pytorch::cpuonly, pytorch-cuda=12.4 or cudatoolkit=11.3).
	selector string
	// wheelRoot is the root of PyTorch's wheel index, from the knowledge
	// base the result was built with.
	wheelRoot string
}

// Error is a request that cannot be built: unknown release or Python, or no
// variant that runs on the targets. StatusCode lets the HTTP service answer
// with it; the CLI exits 1 for NoFit and 2 for bad requests.
type Error struct {
	Msg string
	// NoFit is set when the request was valid but nothing runs on the
	// targets; Closest then names the nearest thing that would.
	NoFit   bool
	Closest string
}

func (e *Error) Error() string {
	if e.Closest != "" {
		return e.Msg + "\nclosest that would: " + e.Closest
	}
	return e.Msg
}

// StatusCode: 422 for nothing that fits, 400 for a bad request.
func (e *Error) StatusCode() int {
	if e.NoFit {
		return 422
	}
	return 400
}

// ErrorCode is the JSON error code of the HTTP service.
func (e *Error) ErrorCode() string {
	if e.NoFit {
		return "no_fit"
	}
	return "bad_request"
}

func badRequest(format string, a ...any) *Error { return &Error{Msg: fmt.Sprintf(format, a...)} }

// candidate is one environment the builder could emit.
type candidate struct {
	rel    kb.TorchRelease
	python string
	dist   kb.Distribution
	cuda   string // "" = cpu
}

// unknownFramework is Build's answer for a framework it does not build.
func unknownFramework(name string) *Error {
	if fws := Frameworks(); len(fws) == 1 {
		return badRequest("the builder knows %s only, not %q", fws[0], name)
	}
	return badRequest("the builder knows %s, not %q", strings.Join(Frameworks(), ", "), name)
}

// Build chooses and writes an environment.
func Build(req Request) (*Result, error) {
	k := req.KB
	if k == nil {
		k = kb.Default()
	}
	switch strings.ToLower(req.Framework) {
	case "pytorch", "torch":
	case "tensorflow", "tf":
		return buildPip(k, req, tensorFlow(k))
	case "jax":
		return buildPip(k, req, jaxBuilder(k))
	case "":
		return nil, badRequest("no framework given (one of %s, e.g. pytorch=2.1)", strings.Join(Frameworks(), ", "))
	default:
		return nil, unknownFramework(req.Framework)
	}
	if strings.TrimSpace(strings.TrimLeft(req.Version, "=v")) == "" {
		return buildNewest(k, req)
	}
	rel, err := pickRelease(k, req.Version)
	if err != nil {
		return nil, err
	}
	return buildRelease(k, req, rel, nil, true)
}

// buildNewest serves a request that names no version: the newest release
// the knowledge base lists, or, where that release cannot be built for the
// request (no variant runs on every target, or it lacks the --cuda, --via
// or --python asked for), the newest release of an older series that can.
// A new series can drop variants older fleets need (2.12 dropped CUDA 12.8,
// the newest CUDA a 570 driver runs natively), so "the newest" must not mean
// "nothing" for such a fleet. The header says
// which newer releases were skipped and why. When no series fits, the error
// is the newest release's, as when no fallback existed.
func buildNewest(k *kb.KB, req Request) (*Result, error) {
	rels := seriesHeads(k)
	if len(rels) == 0 {
		return nil, badRequest("no pytorch release in the knowledge base")
	}
	var passed []string
	for i, rel := range rels {
		res, err := buildRelease(k, req, rel, passed, false)
		if err == nil {
			return res, nil
		}
		var e *Error
		if !errors.As(err, &e) {
			return nil, err
		}
		passed = append(passed, skippedRelease(rel, e, i == 0))
	}
	// Nothing fits: answer as for the newest release alone, with its
	// closest suggestion.
	return buildRelease(k, req, rels[0], nil, true)
}

// seriesHeads is the newest release of each series, newest series
// first.
func seriesHeads(k *kb.KB) []kb.TorchRelease {
	newest := map[string]kb.TorchRelease{}
	for _, r := range k.Facts.Torch {
		s := seriesOf(r.Version)
		if cur, ok := newest[s]; !ok || isNewer(r.Version, cur.Version) {
			newest[s] = r
		}
	}
	out := make([]kb.TorchRelease, 0, len(newest))
	for _, r := range newest {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return isNewer(out[i].Version, out[j].Version) })
	return out
}

// skippedRelease is the header's line for a newer release the fallback
// passed over: for the newest, every variant's reason (the error's own
// lines); for the ones after it, the first line only, so that a fleet that
// falls back many series does not get a page of header.
func skippedRelease(rel kb.TorchRelease, e *Error, full bool) string {
	msg := e.Msg
	if !full {
		msg, _, _ = strings.Cut(msg, "\n")
		msg = strings.TrimSuffix(msg, ":")
	}
	if !strings.Contains(msg, rel.Version) {
		msg = "torch " + rel.Version + ": " + msg
	}
	return msg
}

// buildRelease builds one release. passed are the newer releases a
// request with no version skipped (the header names them); withClosest
// computes the suggestion of a NoFit error, which the fallback of
// buildNewest does not need for the releases it passes over.
func buildRelease(k *kb.KB, req Request, rel kb.TorchRelease, passed []string, withClosest bool) (*Result, error) {
	// A Python the release never supported is refused before any
	// distribution is looked at, so that the message names the release.
	if _, err := pickPython(rel, req.Python); err != nil {
		return nil, err
	}
	dists, err := pickDists(k, seriesOf(rel.Version), req.Via)
	if err != nil {
		return nil, err
	}
	if rel, err = distRelease(k, rel, req.Version, dists); err != nil {
		return nil, err
	}
	py, err := pickPython(rel, req.Python)
	if err != nil {
		return nil, err
	}
	cands, err := candidates(k, rel, py, req.Python != "", dists, req.CUDA)
	if err != nil {
		return nil, err
	}
	// Every candidate is validated; the first (newest CUDA) with no error
	// and the fewest flaws wins. An older variant only beats a newer one
	// when it is cleaner: a runtime the driver runs only through
	// minor-version compatibility (EG402), a GPU that needs PTX JIT (EG408)
	// or a build whose architectures nobody has read loses to one that
	// runs natively on GPUs it is known to cover.
	type note struct {
		at   int // index in cands
		text string
	}
	var rejected []string
	var notes []note // why each variant newer than the chosen one lost
	var best *Result
	bestAt := -1
	for i, c := range cands {
		res := emit(k, c, req)
		if why := refusal(res.Report); why != "" {
			text := fmt.Sprintf("%s: %s", c.label(), why)
			rejected = append(rejected, text)
			notes = append(notes, note{i, text})
			continue
		}
		// An older variant that is no cleaner is not worth mentioning.
		if best == nil || flaws(k, res, req) < flaws(k, best, req) {
			if best != nil {
				notes = append(notes, note{bestAt, fmt.Sprintf("%s: %s", best.cand.label(), flawText(k, best, req))})
			}
			best, bestAt = res, i
		}
	}
	if best != nil {
		var skipped []string
		sort.SliceStable(notes, func(i, j int) bool { return notes[i].at < notes[j].at })
		for _, n := range notes {
			if n.at < bestAt {
				skipped = append(skipped, n.text)
			}
		}
		finish(k, best, req, skipped, passed)
		return best, nil
	}
	// One line per variant tried: a user reads why each failed, and the
	// closest build that would run comes last (Error).
	msg := fmt.Sprintf("no variant of torch %s runs on %s", rel.Version, hostList(req.Hosts))
	if len(rejected) > 0 {
		msg += ":\n  - " + strings.Join(rejected, "\n  - ")
	}
	e := &Error{Msg: msg, NoFit: true}
	if withClosest {
		e.Closest = closest(k, rel, req)
	}
	return nil, e
}

func (c candidate) label() string {
	v := "cpu"
	if c.cuda != "" {
		v = "CUDA " + c.cuda
	}
	return fmt.Sprintf("torch %s %s (%s)", c.rel.Version, v, c.dist)
}

// refusal says why a candidate cannot be emitted: an error, or a target
// whose verdict is unknown. The builder promises an environment that passes
// its own checks, and a check that could not be decided has not passed.
func refusal(r *report.Report) string {
	if r.Summary.Errors > 0 {
		return firstFinding(r, "error")
	}
	for _, t := range r.Targets {
		if t.Verdict == gpucheck.VerdictUnknown {
			for _, f := range r.Findings {
				if f.Code == "EG409" && f.Target == t.Name {
					return f.Message + " [EG409]"
				}
			}
			return "target " + t.Name + " could not be checked: " + gpucheck.UndecidedText(t.Undecided) + " [EG409]"
		}
	}
	return ""
}

// firstFinding is the first finding of a severity, as "message [CODE]".
func firstFinding(r *report.Report, severity string) string {
	for _, f := range r.Findings {
		if f.Severity == severity {
			return f.Message + " [" + f.Code + "]"
		}
	}
	return ""
}

// flaws counts what speaks against a candidate that validates: its
// warnings, and one more when targets have GPUs but the knowledge base does
// not know the build's architectures (the GPU check could not decide, so
// coverage of the targets' GPUs is not shown).
//
// A GPU that runs the build only through PTX JIT (EG408) outweighs any
// number of other warnings: a build with machine code for the targets'
// GPUs is preferred, and JIT is the fallback where no variant has any.
func flaws(k *kb.KB, res *Result, req Request) int {
	n := res.Report.Summary.Warnings
	for _, f := range res.Report.Findings {
		if f.Code == "EG408" {
			n += jitWeight
		}
	}
	if archUnverified(k, res.cand, req) {
		n++
	}
	return n
}

const jitWeight = 1000

func flawText(k *kb.KB, res *Result, req Request) string {
	if w := firstFinding(res.Report, "warning"); w != "" {
		return w
	}
	if archUnverified(k, res.cand, req) {
		return "its architectures are not in the knowledge base, so the targets' GPUs are not known to be covered"
	}
	return ""
}

func archUnverified(k *kb.KB, c candidate, req Request) bool {
	if c.cuda == "" {
		return false
	}
	gpus := false
	for _, h := range req.Hosts {
		gpus = gpus || len(h.GPUs) > 0
	}
	if !gpus {
		return false
	}
	a, ok := k.Arch(seriesOf(c.rel.Version), c.cuda, c.dist)
	return !ok || !a.Known
}

func firstCode(r *report.Report, severity string) string {
	for _, f := range r.Findings {
		if f.Severity == severity {
			return f.Code
		}
	}
	return ""
}

func hostList(hs []*gpucheck.Host) string {
	if len(hs) == 0 {
		return "any machine"
	}
	var names []string
	for _, h := range hs {
		names = append(names, h.Name)
	}
	return strings.Join(names, ", ")
}

// pickRelease finds an exact release, or the newest of a series.
func pickRelease(k *kb.KB, v string) (kb.TorchRelease, error) {
	v = strings.TrimSpace(strings.TrimLeft(v, "=v"))
	if v == "" {
		latest := k.LatestTorch()
		if r, ok := k.Release(latest); ok {
			return *r, nil
		}
		return kb.TorchRelease{}, badRequest("no pytorch release in the knowledge base")
	}
	if r, ok := k.Release(v); ok {
		return *r, nil
	}
	rs := k.Series(v)
	if len(rs) == 0 {
		return kb.TorchRelease{}, badRequest("pytorch %s is not in the knowledge base (newest known: %s); pass a release it lists, or load newer facts with --kb DIR", v, k.LatestTorch())
	}
	return rs[len(rs)-1], nil
}

func pickPython(rel kb.TorchRelease, want string) (string, error) {
	if len(rel.Python) == 0 {
		return "", badRequest("the knowledge base lists no Python versions for torch %s", rel.Version)
	}
	if want == "" {
		pys := append([]string(nil), rel.Python...)
		sort.Slice(pys, func(i, j int) bool { return minorLess(pys[i], pys[j]) })
		return pys[len(pys)-1], nil
	}
	want = strings.TrimPrefix(strings.TrimSpace(want), "python")
	want = strings.TrimLeft(want, "=")
	for _, p := range rel.Python {
		if p == want {
			return p, nil
		}
	}
	return "", badRequest("torch %s supports Python %s, not %s", rel.Version, strings.Join(rel.Python, ", "), want)
}

// minorLess orders Python, CUDA and series versions ("3.9" < "3.10").
func minorLess(a, b string) bool {
	c, ok := kb.CompareDotted(seriesOf(a), seriesOf(b))
	return ok && c < 0
}

func splitMinor(v string) (int, int) {
	parts := strings.SplitN(v, ".", 3)
	maj, _ := strconv.Atoi(parts[0])
	min := 0
	if len(parts) > 1 {
		min, _ = strconv.Atoi(parts[1])
	}
	return maj, min
}

func seriesOf(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}

// published reports whether a distribution carries a series at all: the
// knowledge base keeps a row for the pytorch channel's missing series
// (NotPublished, no variants) so that EG205 can say so.
func published(k *kb.KB, series string, d kb.Distribution) bool {
	vs, ok := k.Variants(series, d)
	return ok && !vs.NotPublished && (len(vs.CUDA) > 0 || vs.CPU)
}

// pickDists orders the distributions to try for a --via.
func pickDists(k *kb.KB, series, via string) ([]kb.Distribution, error) {
	onChannel := published(k, series, kb.DistPytorchConda)
	switch strings.ToLower(strings.TrimSpace(via)) {
	case "", "auto":
		if onChannel {
			return []kb.Distribution{kb.DistPytorchConda}, nil
		}
		return []kb.Distribution{kb.DistWheel}, nil
	case "conda":
		if onChannel {
			return []kb.Distribution{kb.DistPytorchConda}, nil
		}
		// A release the pytorch channel never carried comes from
		// conda-forge where the knowledge base knows its builds, else from
		// PyTorch's wheels in the pip: section of the same conda file.
		if published(k, series, kb.DistCondaForge) {
			return []kb.Distribution{kb.DistCondaForge}, nil
		}
		return []kb.Distribution{kb.DistWheel}, nil
	case "pip", "wheel":
		return []kb.Distribution{kb.DistWheel}, nil
	case "conda-forge":
		if !published(k, series, kb.DistCondaForge) {
			if vs, ok := k.Variants(series, kb.DistCondaForge); ok && vs.NotPublished {
				return nil, badRequest("--via conda-forge: conda-forge never built torch %s (%s); use --via pip, or another series", series, vs.Note)
			}
			return nil, badRequest("--via conda-forge: the knowledge base of %s lists no conda-forge builds of torch %s, so the builder cannot check one; use --via conda or --via pip", k.Facts.Date, series)
		}
		return []kb.Distribution{kb.DistCondaForge}, nil
	}
	return nil, badRequest("--via %q: want conda, pip or conda-forge", via)
}

// distRelease is the release a single distribution really has. conda-forge
// did not build every release of a series (2.0.1, 2.1.1, 2.5.0 and 2.9.0
// are missing there: the knowledge base's Releases): a series then means
// its newest release that distribution built, and an exact release it
// never built is refused rather than written into an unsolvable file.
func distRelease(k *kb.KB, rel kb.TorchRelease, asked string, dists []kb.Distribution) (kb.TorchRelease, error) {
	if len(dists) != 1 {
		return rel, nil
	}
	vs, ok := k.Variants(seriesOf(rel.Version), dists[0])
	if !ok || len(vs.Releases) == 0 || slices.Contains(vs.Releases, rel.Version) {
		return rel, nil
	}
	if _, exact := k.Release(strings.TrimSpace(strings.TrimLeft(asked, "=v"))); exact {
		return rel, badRequest("%s did not build torch %s; of the %s series it has %s", distName(dists[0]), rel.Version, vs.Series, strings.Join(vs.Releases, ", "))
	}
	var best *kb.TorchRelease
	for _, v := range vs.Releases {
		if r, ok := k.Release(v); ok && (best == nil || isNewer(r.Version, best.Version)) {
			best = r
		}
	}
	if best == nil {
		return rel, badRequest("%s built torch %s of the %s series, none of which the knowledge base lists", distName(dists[0]), strings.Join(vs.Releases, ", "), vs.Series)
	}
	return *best, nil
}

// lastChannelSeries is the newest series the pytorch channel published.
func lastChannelSeries(k *kb.KB) string {
	last := ""
	for _, v := range k.TorchVariants {
		if v.Dist == kb.DistPytorchConda && !v.NotPublished && (len(v.CUDA) > 0 || v.CPU) {
			if last == "" || minorLess(last, v.Series) {
				last = v.Series
			}
		}
	}
	return last
}

// candidates lists what to try, newest CUDA first, CPU last.
func candidates(k *kb.KB, rel kb.TorchRelease, py string, pyAsked bool, dists []kb.Distribution, cuda string) ([]candidate, error) {
	cuda = normCUDA(cuda)
	var out []candidate
	var offered []string
	for _, d := range dists {
		vs, ok := k.Variants(seriesOf(rel.Version), d)
		if !ok {
			continue
		}
		cudas := append([]string(nil), vs.CUDA...)
		sort.Slice(cudas, func(i, j int) bool { return minorLess(cudas[j], cudas[i]) })
		for _, c := range cudas {
			offered = append(offered, c)
			if cuda == "" || cuda == "auto" || cuda == c {
				out = append(out, candidate{rel, distPython(k, rel, py, pyAsked, d, c), d, c})
			}
		}
		if vs.CPU {
			offered = append(offered, "cpu")
			if cuda == "cpu" {
				out = append(out, candidate{rel, distPython(k, rel, py, pyAsked, d, ""), d, ""})
			}
		}
	}
	if len(out) == 0 {
		if len(offered) == 0 {
			return nil, badRequest("the knowledge base knows no %s build of torch %s", distWords(dists), rel.Version)
		}
		return nil, badRequest("torch %s from %s has no %q variant (it has: %s)", rel.Version, distWords(dists), cuda, strings.Join(offered, ", "))
	}
	return out, nil
}

// distPython is the Python a candidate gets: the one picked from the
// release's list, unless the knowledge base says the distribution never
// built this build for it (conda-forge built 2.9.1 for 3.10–3.13, not the
// release's 3.14). Then, where no Python was asked for, the newest the
// distribution built; a Python that was asked for is kept, and validation
// says why that candidate cannot be had.
func distPython(k *kb.KB, rel kb.TorchRelease, py string, asked bool, d kb.Distribution, cuda string) string {
	row, ok := k.PythonBuilds(rel.Version, d, cuda)
	if !ok || asked || row.Supports(py, rel.Python, rel.PythonExperimental) {
		return py
	}
	best := ""
	for _, p := range row.Minors(rel.Python, rel.PythonExperimental) {
		if best == "" || minorLess(best, p) {
			best = p
		}
	}
	if best == "" {
		return py
	}
	return best
}

// normCUDA reads a --cuda value as a variant: "12.1", "12.1.1" and the
// wheel-index spelling "cu121" all mean 12.1; "auto", "" and "cpu" stay.
func normCUDA(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if d, ok := strings.CutPrefix(s, "cu"); ok && len(d) >= 2 && strings.Trim(d, "0123456789") == "" {
		// cu118 → 11.8, cu130 → 13.0: the minor is the last digit.
		return d[:len(d)-1] + "." + d[len(d)-1:]
	}
	if parts := strings.Split(s, "."); len(parts) > 2 {
		return parts[0] + "." + parts[1]
	}
	return s
}

func distWords(ds []kb.Distribution) string {
	var s []string
	for _, d := range ds {
		s = append(s, string(d))
	}
	return strings.Join(s, " or ")
}

// closest looks for the nearest build that does run: another variant or
// distribution of the same release, else the newest release of the
// nearest series, older or newer (a Blackwell GPU needs a newer torch, an
// old driver an older one). A build that runs only with warnings (minor-
// version compatibility, PTX JIT) counts as two series further away than
// a clean one, so that a clean neighbour wins over a limping one next door
// but not over a release years apart.
func closest(k *kb.KB, rel kb.TorchRelease, req Request) string {
	const warnPenalty = 2
	var series []string
	newest := map[string]kb.TorchRelease{}
	for _, r := range k.Facts.Torch {
		s := seriesOf(r.Version)
		if _, ok := newest[s]; !ok {
			series = append(series, s)
		}
		if cur, ok := newest[s]; !ok || isNewer(r.Version, cur.Version) {
			newest[s] = r
		}
	}
	sort.Slice(series, func(i, j int) bool { return minorLess(series[i], series[j]) })
	at := -1
	for i, s := range series {
		if s == seriesOf(rel.Version) {
			at = i
		}
	}
	if at < 0 {
		return ""
	}
	newest[seriesOf(rel.Version)] = rel // the release asked for, not its series' newest
	best, bestScore := "", -1
	for dist := 0; dist < len(series); dist++ {
		if bestScore >= 0 && dist > bestScore {
			break
		}
		// Older first at equal distance: it is the smaller step for a
		// driver, and what most fleets can install.
		idxs := []int{at - dist, at + dist}
		if dist == 0 {
			idxs = idxs[:1]
		}
		for _, i := range idxs {
			if i < 0 || i >= len(series) {
				continue
			}
			sug, warned, ok := runsSomewhere(k, newest[series[i]], req)
			if !ok {
				continue
			}
			score := dist
			if warned {
				score += warnPenalty
			}
			if bestScore < 0 || score < bestScore {
				best, bestScore = sug, score
			}
		}
	}
	if best != "" {
		return best
	}
	if normCUDA(req.CUDA) != "cpu" {
		return fmt.Sprintf("a CPU build: envguard build pytorch=%s --cuda cpu", rel.Version)
	}
	return ""
}

// runsSomewhere finds the newest CUDA variant of a release, in any
// distribution, that validates on the targets: the first clean one, else
// the first with warnings only.
func runsSomewhere(k *kb.KB, r kb.TorchRelease, req Request) (suggestion string, warned, ok bool) {
	py, err := pickPython(r, req.Python)
	if err != nil {
		if py, err = pickPython(r, ""); err != nil {
			return "", false, false
		}
	}
	for _, d := range []kb.Distribution{kb.DistPytorchConda, kb.DistWheel, kb.DistCondaForge} {
		if !published(k, seriesOf(r.Version), d) {
			continue
		}
		r, err := distRelease(k, r, seriesOf(r.Version), []kb.Distribution{d})
		if err != nil {
			continue
		}
		cs, err := candidates(k, r, py, req.Python != "", []kb.Distribution{d}, "")
		if err != nil {
			continue
		}
		for _, c := range cs {
			res := emit(k, c, req)
			if refusal(res.Report) != "" {
				continue
			}
			cmd := fmt.Sprintf("%s — envguard build pytorch=%s --cuda %s --via %s", c.label(), r.Version, c.cuda, viaWord(d))
			if req.Python != "" {
				cmd += " --python " + py
			}
			if flaws(k, res, req) == 0 {
				return cmd, false, true
			}
			if !ok {
				why := "GPU coverage unverified"
				if c := firstCode(res.Report, "warning"); c != "" {
					why = "with warning " + c
				}
				suggestion, warned, ok = cmd+" (runs, "+why+")", true, true
			}
		}
	}
	return suggestion, warned, ok
}

func viaWord(d kb.Distribution) string {
	switch d {
	case kb.DistWheel, kb.DistPyPI:
		return "pip"
	case kb.DistCondaForge:
		return "conda-forge"
	}
	return "conda"
}

func isNewer(a, b string) bool {
	va, err1 := envspec.ParseVersion(a)
	vb, err2 := envspec.ParseVersion(b)
	if err1 != nil || err2 != nil {
		return false
	}
	return va.Compare(vb) > 0
}
