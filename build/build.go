// Package build is envguard's environment builder: given "pytorch 2.1 for
// these machines" it writes a pinned environment.yml. It generates every
// candidate the knowledge base offers (each CUDA variant of the release in
// the chosen distribution), validates each with the same pipeline as
// `envguard validate` against the target machines, and keeps the best one,
// so what it emits passes envguard's own checks by construction.
package build

import (
	"fmt"
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
	Framework string // "pytorch" (the only framework the builder knows yet)
	Version   string // a series ("2.1") or a release ("2.1.2")
	Python    string // "3.10"; "" picks the newest the release supports
	// CUDA is a variant ("12.1"), "cpu", or "" / "auto" for the newest
	// variant that every target runs.
	CUDA string
	// Via is "conda" (the pytorch channel, or conda-forge for releases the
	// channel no longer carries), "pip" (PyTorch's wheel index),
	// "conda-forge", or "" (conda where the pytorch channel has the release,
	// else pip).
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
	Why     []string
	Report  *report.Report
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
		return e.Msg + "; closest that would: " + e.Closest
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

// Build chooses and writes an environment.
func Build(req Request) (*Result, error) {
	k := req.KB
	if k == nil {
		k = kb.Default()
	}
	switch strings.ToLower(req.Framework) {
	case "pytorch", "torch":
	case "":
		return nil, badRequest("no framework given (try pytorch=2.1)")
	default:
		return nil, badRequest("the builder knows pytorch only, not %q", req.Framework)
	}
	rel, err := pickRelease(k, req.Version)
	if err != nil {
		return nil, err
	}
	py, err := pickPython(rel, req.Python)
	if err != nil {
		return nil, err
	}
	dists, err := pickDists(k, seriesOf(rel.Version), req.Via)
	if err != nil {
		return nil, err
	}
	cands, err := candidates(k, rel, py, dists, req.CUDA)
	if err != nil {
		return nil, err
	}
	var rejected []string
	var best *Result
	bestScore := -1
	for _, c := range cands {
		res := emit(k, c, req)
		if res.Report.Summary.Errors > 0 {
			rejected = append(rejected, fmt.Sprintf("%s: %s", c.label(), firstError(res.Report)))
			continue
		}
		// Candidates come newest first; a later one only wins when it is
		// cleaner (runs without minor-version compatibility or PTX JIT).
		score := 100 - res.Report.Summary.Warnings
		if score > bestScore {
			best, bestScore = res, score
		}
	}
	if best != nil {
		return best, nil
	}
	msg := fmt.Sprintf("no variant of torch %s runs on %s", rel.Version, hostList(req.Hosts))
	if len(rejected) > 0 {
		msg += ": " + strings.Join(rejected, "; ")
	}
	return nil, &Error{Msg: msg, NoFit: true, Closest: closest(k, rel, req)}
}

func (c candidate) label() string {
	v := "cpu"
	if c.cuda != "" {
		v = "CUDA " + c.cuda
	}
	return fmt.Sprintf("torch %s %s (%s)", c.rel.Version, v, c.dist)
}

func firstError(r *report.Report) string {
	for _, f := range r.Findings {
		if f.Severity == "error" {
			return f.Message + " [" + f.Code + "]"
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

func minorLess(a, b string) bool {
	am, an := splitMinor(a)
	bm, bn := splitMinor(b)
	if am != bm {
		return am < bm
	}
	return an < bn
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

// pickDists orders the distributions to try for a --via.
func pickDists(k *kb.KB, series, via string) ([]kb.Distribution, error) {
	_, onChannel := k.Variants(series, kb.DistPytorchConda)
	switch strings.ToLower(via) {
	case "", "auto":
		if onChannel {
			return []kb.Distribution{kb.DistPytorchConda}, nil
		}
		return []kb.Distribution{kb.DistWheel}, nil
	case "conda":
		if onChannel {
			return []kb.Distribution{kb.DistPytorchConda}, nil
		}
		return []kb.Distribution{kb.DistCondaForge}, nil
	case "pip", "wheel":
		return []kb.Distribution{kb.DistWheel}, nil
	case "conda-forge":
		return []kb.Distribution{kb.DistCondaForge}, nil
	}
	return nil, badRequest("--via %q: want conda, pip or conda-forge", via)
}

// candidates lists what to try, newest CUDA first, CPU last.
func candidates(k *kb.KB, rel kb.TorchRelease, py string, dists []kb.Distribution, cuda string) ([]candidate, error) {
	cuda = strings.ToLower(strings.TrimSpace(cuda))
	cuda = strings.TrimPrefix(cuda, "cu")
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
				out = append(out, candidate{rel, py, d, c})
			}
		}
		if vs.CPU {
			offered = append(offered, "cpu")
			if cuda == "cpu" {
				out = append(out, candidate{rel, py, d, ""})
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

func distWords(ds []kb.Distribution) string {
	var s []string
	for _, d := range ds {
		s = append(s, string(d))
	}
	return strings.Join(s, " or ")
}

// closest looks for the nearest build that does run: other CUDA variants of
// other distributions of the same release first, then older releases.
func closest(k *kb.KB, rel kb.TorchRelease, req Request) string {
	series := seriesOf(rel.Version)
	var tried []kb.TorchRelease
	tried = append(tried, rel)
	all := k.Facts.Torch
	for i := len(all) - 1; i >= 0; i-- {
		r := all[i]
		if seriesOf(r.Version) == series || isNewer(r.Version, rel.Version) {
			continue
		}
		// One release per series, the newest: that is what a user would pick.
		if len(tried) > 0 && seriesOf(tried[len(tried)-1].Version) == seriesOf(r.Version) {
			continue
		}
		tried = append(tried, r)
	}
	for _, r := range tried {
		for _, d := range []kb.Distribution{kb.DistPytorchConda, kb.DistWheel, kb.DistCondaForge} {
			py, err := pickPython(r, "")
			if err != nil {
				continue
			}
			cs, err := candidates(k, r, py, []kb.Distribution{d}, "")
			if err != nil {
				continue
			}
			for _, c := range cs {
				if res := emit(k, c, req); res.Report.Summary.Errors == 0 {
					return fmt.Sprintf("%s — envguard build pytorch=%s --cuda %s --via %s", c.label(), r.Version, c.cuda, viaWord(d))
				}
			}
		}
	}
	if req.CUDA != "cpu" {
		return fmt.Sprintf("a CPU build: envguard build pytorch=%s --cuda cpu", rel.Version)
	}
	return ""
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
