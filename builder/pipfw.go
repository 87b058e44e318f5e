package builder

import (
	"fmt"
	"sort"
	"strings"

	"github.com/envguard/envguard/report"
	"github.com/envguard/envguard/resolver/kb"
)

// Frameworks lists the frameworks Build builds, as Request.Framework names
// them: what a build form offers and what the service's build endpoint
// accepts.
func Frameworks() []string { return []string{"pytorch", "tensorflow", "jax"} }

// This file holds what the TensorFlow and JAX builders share: both install
// the framework's own pip wheels, which bring NVIDIA's CUDA libraries with
// them (tensorflow[and-cuda], jax[cuda12]), into the pip: section of a conda
// file whose conda part is python and pip. The machine gives only the
// driver. Each release the knowledge base lists is tried, newest first, and
// the first whose build validates on every target (driver floor,
// architectures) is kept; within a release, the variant with the fewest
// flaws (JAX: CUDA 13 or 12).

// pipRelease is one release a pip-built framework offers.
type pipRelease struct {
	version string   // the release the knowledge base lists ("2.16.1")
	pin     string   // what the file pins ("2.15.0.post1" where 2.15.0's extra cannot be installed)
	pythons []string // the Python minors with wheels, oldest first
	// pinWhy says why pin is not version; "" when they are the same.
	pinWhy string
	// blocked are Pythons the release has wheels for but its extra cannot
	// be installed on, each with the reason.
	blocked map[string]string
}

// pipFramework is what a framework gives the shared pip builder.
type pipFramework struct {
	name   string // "tensorflow", as in messages and commands
	prefix string // the canonical name's framework part ("tf")
	// releases are the releases the builder can write, newest first.
	releases []pipRelease
	// refuse says why a release the knowledge base knows of cannot be
	// built (older than the pip extra, yanked); "" when it can, or when the
	// version is not one it knows of.
	refuse func(version string) string
	// variants reads --cuda into the variants of r to try, preferred
	// first; "" is the CPU build. An error says why r has none.
	variants func(r pipRelease, cuda string) ([]string, error)
	// requirement is the pip line of a variant.
	requirement func(r pipRelease, cuda string) string
	// accel is the canonical name's accelerator part ("cu123", "cu12", "cpu").
	accel func(cuda string) string
	// variantWord names a variant in messages ("CUDA 12.3", "cuda12", "CPU only").
	variantWord func(cuda string) string
	// explain gives the header lines that say what a variant installs and
	// what it needs of the machine.
	explain func(k *kb.KB, r pipRelease, cuda string, req Request) []string
	// cpuHint is the --cuda value of a CPU build, "" when the framework's
	// builder has none.
	cpuHint string
}

// pipCand is one environment the pip builder could emit.
type pipCand struct {
	rel    pipRelease
	python string
	cuda   string
}

func (fw *pipFramework) label(c pipCand) string {
	return fmt.Sprintf("%s %s %s", fw.name, c.rel.pin, fw.variantWord(c.cuda))
}

// buildPip builds a pip framework's environment for req.
func buildPip(k *kb.KB, req Request, fw *pipFramework) (*Result, error) {
	switch strings.ToLower(strings.TrimSpace(req.Via)) {
	case "", "auto", "pip", "wheel":
	default:
		return nil, badRequest("--via %s: the %s builder installs %s's own pip wheels, which bring NVIDIA's CUDA libraries, in the file's pip: section (--via pip); conda builds of %s are not built (their architecture lists are not in the knowledge base, so envguard could not check them)", req.Via, fw.name, fw.name, fw.name)
	}
	rels, asked, err := fw.pickReleases(k, req.Version)
	if err != nil {
		return nil, err
	}
	pyAsked := strings.TrimLeft(strings.TrimPrefix(strings.TrimSpace(req.Python), "python"), "=")
	var firstErr error
	var rejected []string // why each candidate of a newer release lost
	for _, r := range rels {
		py, err := fw.python(r, pyAsked)
		if err == nil {
			var vs []string
			if vs, err = fw.variants(r, req.CUDA); err == nil {
				best, why := fw.bestVariant(k, r, py, vs, req)
				// A variant of the chosen release that was refused is one
				// not chosen too (CUDA 13 on a CUDA 12 driver).
				rejected = append(rejected, why...)
				if best != nil {
					fw.finish(k, best, req, asked, rejected)
					return best, nil
				}
				continue
			}
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if len(rejected) == 0 {
		// No release had the Python or the variant asked for.
		if len(rels) > 1 && firstErr != nil {
			return nil, badRequest("no %s release %s has %s: %v", fw.name, releaseWords(asked, rels), askedWords(pyAsked, req.CUDA), firstErr)
		}
		return nil, firstErr
	}
	what := fmt.Sprintf("no %s release %s runs on %s", fw.name, releaseWords(asked, rels), hostList(req.Hosts))
	if len(rels) == 1 {
		what = fmt.Sprintf("no variant of %s %s runs on %s", fw.name, rels[0].pin, hostList(req.Hosts))
	}
	return nil, &Error{Msg: what + ":\n  - " + strings.Join(shorten(rejected, 8), "\n  - "), NoFit: true, Closest: fw.closest(k, rels, req)}
}

// pickReleases reads the version asked for: "" is every release, newest
// first; a series ("2.16", "0.4") its releases; a release itself. asked
// is the version as the user wrote it, for messages.
func (fw *pipFramework) pickReleases(k *kb.KB, v string) ([]pipRelease, string, error) {
	v = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(v), "=v"))
	if len(fw.releases) == 0 {
		return nil, v, badRequest("the knowledge base of %s lists no %s release the builder can write", k.Facts.Date, fw.name)
	}
	if v == "" {
		return fw.releases, v, nil
	}
	for _, r := range fw.releases {
		if r.version == v || r.pin == v {
			return []pipRelease{r}, v, nil
		}
	}
	if why := fw.refuse(v); why != "" {
		return nil, v, badRequest("%s", why)
	}
	var series []pipRelease
	var inSeries []string
	for _, r := range fw.releases {
		if seriesOf(r.version) == v {
			series = append(series, r)
		}
		if seriesOf(r.version) == seriesOf(v) {
			inSeries = append(inSeries, r.version)
		}
	}
	if len(series) > 0 {
		return series, v, nil
	}
	if len(inSeries) > 0 {
		return nil, v, badRequest("%s %s is not in the knowledge base of %s; of the %s series it lists %s", fw.name, v, k.Facts.Date, seriesOf(v), strings.Join(inSeries, ", "))
	}
	return nil, v, badRequest("%s %s is not in the knowledge base of %s (newest known: %s); pass a release it lists, or load newer facts with --kb DIR", fw.name, v, k.Facts.Date, fw.releases[0].version)
}

// python is the Python a release gets: the one asked for where it has
// wheels for it, else the newest it has.
func (fw *pipFramework) python(r pipRelease, want string) (string, error) {
	if len(r.pythons) == 0 {
		return "", badRequest("the knowledge base lists no Python versions for %s %s", fw.name, r.version)
	}
	if want == "" {
		for i := len(r.pythons) - 1; i >= 0; i-- {
			if r.blocked[r.pythons[i]] == "" {
				return r.pythons[i], nil
			}
		}
		return "", badRequest("%s %s cannot be installed on any Python it has wheels for: %s", fw.name, r.pin, r.blocked[r.pythons[0]])
	}
	for _, p := range r.pythons {
		if p == want {
			if why := r.blocked[p]; why != "" {
				return "", badRequest("%s", why)
			}
			return p, nil
		}
	}
	return "", badRequest("%s %s has wheels for Python %s, not %s", fw.name, r.pin, strings.Join(r.pythons, ", "), want)
}

// bestVariant emits and validates each variant of a release, and keeps the
// one with no error and the fewest flaws (the first at a tie); why gives
// the reason each other variant lost: refused, or (a preferred one that
// runs) its first warning.
func (fw *pipFramework) bestVariant(k *kb.KB, r pipRelease, py string, vs []string, req Request) (*Result, []string) {
	var best *Result
	var why []string
	for _, cuda := range vs {
		c := pipCand{r, py, cuda}
		res := fw.emit(k, c, req)
		if w := refusal(res.Report); w != "" {
			why = append(why, fw.label(c)+": "+w)
			continue
		}
		if best == nil || pipFlaws(res.Report) < pipFlaws(best.Report) {
			if best != nil {
				// A preferred variant that runs loses only to a cleaner one.
				why = append(why, fw.label(pipCand{r, py, best.CUDA})+": "+firstFinding(best.Report, "warning"))
			}
			best = res
		}
	}
	return best, why
}

// pipFlaws counts the warnings of a file that validates, a GPU that runs
// it only by PTX JIT counting as jitWeight (as flaws does for PyTorch).
func pipFlaws(r *report.Report) int {
	n := r.Summary.Warnings
	for _, f := range r.Findings {
		if f.Code == "EG408" {
			n += jitWeight
		}
	}
	return n
}

// emit writes a candidate's file (no header yet) and validates it.
func (fw *pipFramework) emit(k *kb.KB, c pipCand, req Request) *Result {
	maj, min := splitMinor(c.rel.version)
	name := fmt.Sprintf("%s%d%d_%s", fw.prefix, maj, min, fw.accel(c.cuda))
	line := fw.requirement(c.rel, c.cuda)
	body := fmt.Sprintf("name: %s\nchannels:\n  - conda-forge\ndependencies:\n  - python=%s\n  - pip\n  - pip:\n    - %s\n", name, c.python, line)
	rep := report.Validate("environment.yml", []byte(body), options(k, req))
	return &Result{Name: name, Release: c.rel.pin, Python: c.python, CUDA: c.cuda, Dist: kb.DistPyPI,
		Pip: []string{line}, Report: rep, body: body}
}

// finish gives the chosen file its header and validates it again as the
// user gets it.
func (fw *pipFramework) finish(k *kb.KB, res *Result, req Request, asked string, rejected []string) {
	r := fw.releaseOf(res.Release)
	lines := []string{fmt.Sprintf("Chosen: %s %s, %s, Python %s, from the package index (the pip: section: %s).", fw.name, res.Release, fw.variantWord(res.CUDA), res.Python, res.Pip[0])}
	if r.pinWhy != "" {
		lines = append(lines, r.pinWhy)
	}
	switch {
	case asked == "":
		if len(req.Hosts) == 0 {
			lines = append(lines, fmt.Sprintf("No --target given: the newest %s release the knowledge base lists, checked against no machine.", fw.name))
		} else {
			lines = append(lines, fmt.Sprintf("The newest %s release the knowledge base lists that validates on every target.", fw.name))
		}
	case asked == r.version || asked == r.pin:
		lines = append(lines, fmt.Sprintf("%s %s as asked.", fw.name, res.Release))
	default:
		lines = append(lines, fmt.Sprintf("The newest release of the %s series that validates on every target.", asked))
	}
	for _, s := range shorten(rejected, 8) {
		lines = append(lines, "  not chosen: "+s)
	}
	if req.Python == "" && len(r.pythons) > 0 {
		if newest := r.pythons[len(r.pythons)-1]; newest != res.Python && r.blocked[newest] != "" {
			lines = append(lines, fmt.Sprintf("Python %s is the newest %s %s can be installed on (--python picks another): %s.", res.Python, fw.name, res.Release, r.blocked[newest]))
		} else {
			lines = append(lines, fmt.Sprintf("Python %s is the newest %s %s has wheels for (--python picks another).", res.Python, fw.name, res.Release))
		}
	}
	lines = append(lines, fw.explain(k, r, res.CUDA, req)...)
	lines = append(lines, targetLines(res.Report)...)
	res.Why = lines
	var out strings.Builder
	if req.Command != "" {
		fmt.Fprintf(&out, "# Written by: %s\n", req.Command)
	}
	for _, w := range lines {
		fmt.Fprintf(&out, "# %s\n", w)
	}
	fmt.Fprintf(&out, "# (envguard knowledge base of %s)\n", k.Facts.Date)
	out.WriteString(res.body)
	res.YAML = []byte(out.String())
	res.Report = report.Validate("environment.yml", res.YAML, options(k, req))
}

func (fw *pipFramework) releaseOf(pin string) pipRelease {
	for _, r := range fw.releases {
		if r.pin == pin {
			return r
		}
	}
	return pipRelease{version: pin, pin: pin}
}

// closest is the newest other release that validates on the targets, with
// the command that builds it; else the CPU build where the framework's
// builder has one.
func (fw *pipFramework) closest(k *kb.KB, tried []pipRelease, req Request) string {
	done := map[string]bool{}
	for _, r := range tried {
		done[r.version] = true
	}
	for _, r := range fw.releases {
		if done[r.version] {
			continue
		}
		py, err := fw.python(r, strings.TrimSpace(req.Python))
		if err != nil {
			continue
		}
		vs, err := fw.variants(r, "auto")
		if err != nil {
			continue
		}
		if best, _ := fw.bestVariant(k, r, py, vs, req); best != nil {
			cmd := fmt.Sprintf("%s %s %s — envguard build %s=%s", fw.name, best.Release, fw.variantWord(best.CUDA), fw.name, r.version)
			if req.Python != "" {
				cmd += " --python " + py
			}
			return cmd
		}
	}
	if fw.cpuHint != "" && normCUDA(req.CUDA) != "cpu" && len(tried) > 0 {
		return fmt.Sprintf("a CPU build: envguard build %s=%s --cuda %s", fw.name, tried[0].version, fw.cpuHint)
	}
	return ""
}

// releaseWords names the releases tried in a message.
func releaseWords(asked string, rels []pipRelease) string {
	if asked != "" && len(rels) > 1 {
		return "of the " + asked + " series"
	}
	return "in the knowledge base"
}

func askedWords(py, cuda string) string {
	var w []string
	if py != "" {
		w = append(w, "Python "+py)
	}
	if c := strings.TrimSpace(cuda); c != "" && !strings.EqualFold(c, "auto") {
		w = append(w, "--cuda "+c)
	}
	if len(w) == 0 {
		return "a build the builder can write"
	}
	return strings.Join(w, " and ")
}

// shorten keeps the first n lines and says how many more there were.
func shorten(lines []string, n int) []string {
	if len(lines) <= n {
		return lines
	}
	return append(append([]string(nil), lines[:n]...), fmt.Sprintf("… and %d more", len(lines)-n))
}

// pythonRange lists the Python 3 minors from lo to hi ("3.10", "3.12" →
// 3.10, 3.11, 3.12); nil when either is not 3.x.
func pythonRange(lo, hi string) []string {
	lm, ln := splitMinor(lo)
	hm, hn := splitMinor(hi)
	if lm != 3 || hm != 3 || ln > hn {
		return nil
	}
	var out []string
	for m := ln; m <= hn; m++ {
		out = append(out, fmt.Sprintf("3.%d", m))
	}
	return out
}

// sortedPythons orders Python minors oldest first.
func sortedPythons(ps []string) []string {
	out := append([]string(nil), ps...)
	sort.Slice(out, func(i, j int) bool { return minorLess(out[i], out[j]) })
	return out
}

// archLine says what machine code a framework build carries, from the
// knowledge base's architecture rows.
func archLine(k *kb.KB, framework, version, cuda string) string {
	a, ok := k.FrameworkArch(framework, version, cuda, kb.DistPyPI)
	if !ok || !a.Known {
		return "The architectures of this build are not in the knowledge base: GPU coverage is unverified."
	}
	l := "The build carries machine code for sm_" + strings.Join(mapStrings(a.SASS, noDot), ", sm_")
	if len(a.PTX) > 0 {
		l += " and PTX for compute_" + strings.Join(mapStrings(a.PTX, noDot), ", compute_")
	}
	return l + "."
}
