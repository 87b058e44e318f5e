package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/internal/prefixscan"
	"github.com/envguard/envguard/report"
	"github.com/envguard/envguard/resolver"
)

func checkCmd(e *env) *cobra.Command {
	var prefix, minFree, format, failOn, targetsFile, sysroot string
	var targets []string
	var noCache bool
	c := &cobra.Command{
		Use:   "check [--prefix DIR] [--targets FILE [--target NAME]...]",
		Short: "Pre-training hook: the live environment against this machine's GPUs",
		Long: "check reads the installed environment (conda-meta, dist-info, torch/version.py), resolves it,\n" +
			"holds it against the local GPUs CUDA_VISIBLE_DEVICES selects, checks PYTORCH_CUDA_ALLOC_CONF,\n" +
			"and prints a short verdict. Without --prefix it checks $CONDA_PREFIX, else $VIRTUAL_ENV, else\n" +
			"the prefix of the python3 on PATH. It also reads the environment's shared libraries: the GPU code\n" +
			"each package carries, the libraries each needs (DT_NEEDED) and the torch symbols extensions import.\n" +
			"With --targets FILE it holds the prefix against every described machine (FILE's and .envguard.yml's)\n" +
			"instead of this one, or against those --target NAME names. Exit 0: the job can start; 1: it should not; 2: bad usage.",
		Example: "  envguard check && python train.py\n  envguard check --prefix /opt/envs/pt20 --min-free 40GiB\n" +
			"  envguard check --prefix rootfs/opt/conda --sysroot rootfs --targets fleet.yml --target h100-pool",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return usageErr("--format %q: want text or json", format)
			}
			checkGC(e.lookupEnv)
			var free uint64
			// A bad flag is a usage error before anything is read.
			if _, err := report.ParseFailOn(failOn); err != nil {
				return usageErr("--fail-on %v", err)
			}
			var err error
			if minFree != "" {
				if free, err = parseSize(minFree); err != nil {
					return usageErr("--min-free: %v", err)
				}
			}
			dir, how, err := e.activePrefix(prefix)
			if err != nil {
				return usageErr("%v", err)
			}
			// No --target: this machine; with --targets FILE, every
			// target described (FILE's and .envguard.yml's), as validate
			// holds a file against them all. --target narrows the set.
			names, all := targets, false
			if len(names) == 0 {
				if targetsFile != "" {
					all = true
				} else {
					names = []string{"local"}
				}
			}
			return e.checkPrefix(c, dir, how, prefixCheck{
				names: names, all: all, targetsFile: targetsFile, format: format, failOn: failOn,
				minFree: free, sysroot: sysroot, noCache: noCache, explain: prefix == "",
			})
		},
	}
	fl := c.Flags()
	fl.StringVar(&prefix, "prefix", "", "the environment's prefix `DIR` (a conda env or a venv)")
	fl.StringVar(&minFree, "min-free", "", "warn when a visible GPU has less free memory than `SIZE` (e.g. 40GiB, 512MiB)")
	fl.StringVar(&format, "format", "text", "output format: text or json")
	fl.StringVar(&failOn, "fail-on", "error", failOnUsage)
	fl.StringArrayVar(&targets, "target", nil, "hold the prefix against machine `NAME` of --targets (repeatable; \"local\" is this machine)")
	fl.StringVar(&targetsFile, "targets", "", "targets `FILE`, as validate reads it")
	fl.StringVar(&sysroot, "sysroot", "", "read the system's libraries (ld.so.cache, /usr/lib, …) under `DIR` (an exported root filesystem)")
	fl.BoolVar(&noCache, "no-cache", false, "read every shared library again instead of the cached results")
	return c
}

// prefixCheck is what check holds a prefix to; build --create runs the same
// check on the prefix it made.
type prefixCheck struct {
	names            []string
	all              bool // every target described, not names
	targetsFile      string
	format           string
	failOn           string
	minFree          uint64
	sysroot          string
	noCache, explain bool
}

// checkPrefix reads the environment at dir (metadata and shared libraries),
// holds it against the named machines and prints the verdict; errFindings
// when the job should not start.
func (e *env) checkPrefix(c *cobra.Command, dir, how string, pc prefixCheck) error {
	// The libraries are walked while the metadata, the knowledge base
	// and this machine's GPUs are read: on a second run the walk (a stat
	// of every directory and candidate file) is most of the time, and it
	// needs of the metadata only the base interpreter's sites, which
	// BaseSitesIn reads first as ReadPrefixIn does. A directory that is
	// no environment is not walked (it is a usage error below); any
	// other early return waits for the walk, so that nothing is left
	// writing the cache.
	scanOpts := func(base []string) prefixscan.Options {
		so := prefixscan.Options{Getenv: e.getenv, SysRoot: pc.sysroot, BaseSites: base}
		if !pc.noCache {
			so.Cache = e.openCache()
		}
		return so
	}
	scanned := func() *resolver.Binaries { return nil }
	if base, ok := envspec.BaseSitesIn(dir, pc.sysroot); ok {
		so := scanOpts(base)
		done := make(chan *resolver.Binaries, 1)
		go func() { done <- prefixscan.Scan(dir, so) }()
		var b *resolver.Binaries
		scanned = func() *resolver.Binaries {
			if done != nil {
				b, done = <-done, nil
			}
			return b
		}
		defer scanned()
	}
	env, err := envspec.ReadPrefixIn(dir, pc.sysroot)
	if err != nil {
		// Say where the path came from: a stale $CONDA_PREFIX or a
		// python3 that is not the one the job runs is the usual cause.
		msg := fmt.Sprintf("%v (from %s)", err, how)
		if pc.explain {
			msg += "; pass --prefix DIR to name the environment the job runs in"
		}
		return usageErr("%s", msg)
	}
	cfg, err := e.config()
	if err != nil {
		return err
	}
	opt, err := e.optionsAll(cfg, "", pc.names, pc.targetsFile, pc.all)
	if err != nil {
		return err
	}
	opt.Getenv = e.getenv
	if opt.Binaries = scanned(); opt.Binaries == nil {
		// BaseSitesIn did not take dir for an environment and
		// ReadPrefixIn did (it was made in between): walked now.
		opt.Binaries = prefixscan.Scan(dir, scanOpts(env.BaseSites))
	}
	opt.MinFree = pc.minFree
	fail, err := e.failOn(pc.failOn, c.Flags().Changed("fail-on"), opt.Config)
	if err != nil {
		return err
	}
	r := report.FromEnv(env, opt)
	unread := append(append([]string(nil), env.Notes...), opt.Binaries.Unread...)
	r.Notes = append(r.Notes, opt.Binaries.Unread...)
	unreadIsUnknown(r, unread)
	if pc.format == "json" {
		if _, err := e.stdout.Write(r.JSON()); err != nil {
			return err
		}
	} else {
		writeVerdict(e, r, dir, how)
	}
	if r.ExitCode(fail) != 0 {
		return errFindings
	}
	return nil
}

// activePrefix finds the environment a job started from here would use:
// $CONDA_PREFIX, else $VIRTUAL_ENV, else the sys.prefix of the python3 on
// PATH, asked of the interpreter itself so that pyenv, asdf and uv shims
// (scripts that pick the real interpreter) resolve, and a venv's
// symlinked python reports the venv.
func (e *env) activePrefix(flag string) (dir, how string, err error) {
	if flag != "" {
		return flag, "--prefix", nil
	}
	if p := e.getenv("CONDA_PREFIX"); p != "" {
		return p, "$CONDA_PREFIX", nil
	}
	if p := e.getenv("VIRTUAL_ENV"); p != "" {
		return p, "$VIRTUAL_ENV", nil
	}
	py := e.lookPath("python3")
	if py == "" {
		return "", "", fmt.Errorf("no environment to check: $CONDA_PREFIX and $VIRTUAL_ENV are unset and there is no python3 on PATH; pass --prefix DIR")
	}
	prefix, err := e.pythonPrefix(py)
	if err != nil {
		return "", "", fmt.Errorf("asking python3 on PATH (%s) for its sys.prefix: %v; pass --prefix DIR", py, err)
	}
	return prefix, "python3 on PATH (" + py + ")", nil
}

// pythonPrefix runs the interpreter (or shim) at py for its sys.prefix,
// with e's PATH, within 20 seconds (a pyenv shim may first rehash).
func (e *env) pythonPrefix(py string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "-c", "import sys; print(sys.prefix)")
	cmd.Env = append(os.Environ(), "PATH="+e.getenv("PATH"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("%v: %s", err, report.TermEscape(lastLine(msg)))
		}
		return "", err
	}
	p := strings.TrimSpace(string(out))
	if !filepath.IsAbs(p) || strings.ContainsAny(p, "\n\x00") {
		return "", fmt.Errorf("it printed %q, not an absolute path", report.TermEscape(lastLine(p)))
	}
	return p, nil
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// lookPath finds an executable in the PATH of e's environment (not the
// process's, so that a test or the service controls it), as a shell would.
func (e *env) lookPath(name string) string {
	for _, d := range filepath.SplitList(e.getenv("PATH")) {
		if d == "" {
			d = "."
		}
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

func writeVerdict(e *env, r *report.Report, dir, how string) {
	// Names, versions and paths come from the prefix's own files: a
	// package could carry terminal escape sequences in its METADATA.
	w := termSafe{e.stdout}
	fmt.Fprintf(w, "envguard check: %s (from %s)\n", dir, how)
	st := r.Stack
	fw := "no framework found"
	if st != nil && st.Framework != nil {
		f := st.Framework
		v := f.Version
		switch {
		case v == "" && f.Installed != "":
			// a source build's pre-release, held to its release series
			v = fmt.Sprintf("%s (a build of the %s series)", f.Installed, strings.TrimSuffix(f.Spec, ".*"))
		case v == "":
			v = "(version unknown)"
		}
		from := string(f.From)
		if f.System != "" {
			from = "the system package manager (" + f.System + ")"
		}
		fw = fmt.Sprintf("%s %s from %s", f.Name, v, from)
		if f.Variant != "" {
			fw += ", " + f.Variant + " build"
		}
	}
	fmt.Fprintf(w, "  framework  %s\n", fw)
	if st != nil && st.CUDA != nil {
		// Three pieces of evidence say where the runtime comes from; a
		// conda env has a dozen CUDA packages that all agree.
		var ev []string
		for i, x := range st.CUDA.Evidence {
			if i == 3 {
				ev = append(ev, fmt.Sprintf("and %d more", len(st.CUDA.Evidence)-3))
				break
			}
			ev = append(ev, x.Item)
		}
		fmt.Fprintf(w, "  cuda       %s runtime (%s)\n", st.CUDA.Version, strings.Join(ev, ", "))
	}
	if st != nil && st.Python != "" {
		fmt.Fprintf(w, "  python     %s\n", st.Python)
	}
	for _, t := range r.Targets {
		if t.Name != "local" {
			// A described machine (--targets): its name and verdict head
			// its lines, since there may be several.
			fmt.Fprintf(w, "  target     %s: %s\n", t.Name, t.Verdict)
		}
		if !t.Available {
			fmt.Fprintf(w, "  driver     none: %s\n", t.Reason)
			continue
		}
		if v, ok := e.lookupEnv("CONDA_OVERRIDE_CUDA"); ok && t.Driver == "" && t.CUDADriver == strings.TrimSpace(v) {
			fmt.Fprintf(w, "  driver     overridden: CONDA_OVERRIDE_CUDA=%s says the driver supports CUDA %s (the real driver was not read)\n", v, t.CUDADriver)
		} else {
			fmt.Fprintf(w, "  driver     %s (supports CUDA %s)\n", t.Driver, t.CUDADriver)
		}
		for i, g := range t.GPUs {
			fmt.Fprintf(w, "  gpu %-6d %s (sm_%s)\n", i, g.Name, strings.ReplaceAll(g.ComputeCapability, ".", ""))
		}
		if len(t.GPUs) == 0 {
			why := "NVML reports none"
			if v, ok := e.lookupEnv("CUDA_VISIBLE_DEVICES"); ok {
				why = fmt.Sprintf("CUDA_VISIBLE_DEVICES=%q", clip(v, 64))
			} else if _, ok := e.lookupEnv("CONDA_OVERRIDE_CUDA"); ok {
				why = "CONDA_OVERRIDE_CUDA is set and CONDA_OVERRIDE_CUDA_ARCH is not: the GPUs are not known"
			}
			fmt.Fprintf(w, "  gpus       none visible (%s)\n", why)
		}
	}
	// Colour goes straight to stdout around escaped text: the only escape
	// sequences written are these.
	color, _ := e.useColor()
	paint := func(code, s string) string {
		if !color {
			return report.TermEscape(s)
		}
		return code + report.TermEscape(s) + "\x1b[0m"
	}
	verdict, vcolor := "OK: the job can start", "\x1b[1;32m"
	switch {
	case r.Summary.Errors > 0:
		verdict, vcolor = "STOP: the job would fail", "\x1b[1;31m"
	case unknownTarget(r) != nil:
		why := clip(gpucheck.UndecidedText(unknownTarget(r).Undecided), maxVerdictReason)
		verdict, vcolor = "UNKNOWN: not every check could be decided ("+why+")", "\x1b[1;33m"
	}
	fmt.Fprintf(e.stdout, "  verdict    %s%s\n", paint(vcolor, verdict), report.TermEscape(fmt.Sprintf(" (%s, %s)", plural(r.Summary.Errors, "error"), plural(r.Summary.Warnings, "warning"))))
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  note    %s\n", n)
	}
	// Errors first: the reason the job must not start leads, whatever
	// lines the findings are on.
	findings := append([]report.Finding(nil), r.Findings...)
	rank := map[string]int{"error": 0, "warning": 1, "info": 2}
	sort.SliceStable(findings, func(i, j int) bool { return rank[findings[i].Severity] < rank[findings[j].Severity] })
	for _, f := range findings {
		sev := map[string]string{"error": "\x1b[1;31m", "warning": "\x1b[1;33m", "info": "\x1b[1;36m"}[f.Severity]
		fmt.Fprintf(e.stdout, "  %s%s %s\n", paint(sev, f.Severity), strings.Repeat(" ", max(0, 7-len(f.Severity))), report.TermEscape(f.Code+" "+f.Message))
		if f.Hint != "" {
			fmt.Fprintf(w, "          hint: %s\n", f.Hint)
		}
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// parseSize reads 40GiB, 40G, 512MiB, 512M, 1TiB or a plain byte count.
func parseSize(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	units := []struct {
		suffix string
		mult   uint64
	}{
		{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10},
		{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3},
		{"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1},
	}
	mult := uint64(1)
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f < 0 {
		return 0, fmt.Errorf("%q is not a size (e.g. 40GiB, 512MiB)", s)
	}
	return uint64(f * float64(mult)), nil
}

// unknownTarget returns the first target whose verdict is unknown, nil if none.
func unknownTarget(r *report.Report) *report.TargetReport {
	for i := range r.Targets {
		if r.Targets[i].Verdict == gpucheck.VerdictUnknown {
			return &r.Targets[i]
		}
	}
	return nil
}

// termSafe writes text through report.TermEscape, so that what a prefix's
// files hold cannot move the cursor or retitle the terminal, and each
// write (a line) cut to maxVerdictLine bytes.
type termSafe struct{ w io.Writer }

func (t termSafe) Write(p []byte) (int, error) {
	s := report.TermEscape(string(p))
	if len(s) > maxVerdictLine {
		s = clip(strings.TrimSuffix(s, "\n"), maxVerdictLine-1) + "\n"
	}
	if _, err := io.WriteString(t.w, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Bounds on check's text: the reasons a verdict is unknown, and every
// line. The readers bound what they take from a prefix (names, versions),
// but a line joins several of them.
const (
	maxVerdictReason = 512
	maxVerdictLine   = 2048
)

// clip cuts s to at most max bytes on a character boundary, marking the
// cut with an ellipsis.
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	i := max - len(envspec.Ellipsis)
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + envspec.Ellipsis
}

// unreadIsUnknown holds check to what it could read: where the prefix's
// reader left something out (each is a note), no target is OK, since what
// could not be read (a site-packages, torch/version.py, a record) could be
// what fails the job. Such a target becomes unknown, its reason saying so,
// as the text verdict and --fail-on unknown then do (issue 22, N10).
func unreadIsUnknown(r *report.Report, notes []string) {
	if len(notes) == 0 {
		return
	}
	u := gpucheck.Undecided{Check: "environment", Reason: "prefix-unreadable",
		Why: "part of the environment could not be read, as the notes say"}
	for i := range r.Targets {
		t := &r.Targets[i]
		t.Undecided = append(t.Undecided, u)
		if t.Verdict != gpucheck.VerdictOK {
			continue
		}
		t.Verdict = gpucheck.VerdictUnknown
		if c := r.Summary.Targets; c != nil {
			c.OK--
			c.Unknown++
		}
	}
}

// checkGCPercent is check's GOGC. check runs on the GPU node before the
// job, where its memory is the job's, and its live heap peaks only at the
// end of a first run (every library read, the cache written): with Go's
// default 100 the heap grew to twice that peak, and check held 57–68 MiB on
// the H100 machine's torch venv; at 70 it held 56–57 MiB for a wall time
// within the run-to-run spread (docs/hardware.md, "Peak RSS").
const checkGCPercent = 70

// checkGC sets check's GOGC unless the user set GOGC.
func checkGC(lookupEnv func(string) (string, bool)) {
	if _, set := lookupEnv("GOGC"); !set {
		debug.SetGCPercent(checkGCPercent)
	}
}
