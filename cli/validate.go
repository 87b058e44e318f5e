package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/internal/filekind"
	"github.com/envguard/envguard/lockfile"
	"github.com/envguard/envguard/report"
)

type validateFlags struct {
	targets     []string
	targetsFile string
	format      string
	failOn      string
	failOnSet   bool
	platform    string
	maxSize     int64
	exitZero    bool
	showConfig  bool
	noCache     bool
	verbose     bool
	filter      bool
	args        []string // as given, before directories are searched
}

func validateCmd(e *env) *cobra.Command {
	var f validateFlags
	c := &cobra.Command{
		Use:   "validate [flags] [FILE|DIR]...",
		Short: "Check environment.yml, lock files (conda-lock, pixi, uv, pylock), pixi manifests or requirements files; a directory (default .) is searched; - reads stdin",
		Example: "  envguard validate environment.yml\n" +
			"  envguard validate uv.lock requirements.txt pixi.lock\n" +
			"  envguard validate .                     # every environment, lock and requirements file under it\n" +
			"  envguard validate --target h100-pool --targets fleet.yml --format sarif envs/*.yml\n" +
			"  envguard validate --select EG2,EG3 --ignore EG207 --exit-zero\n" +
			"  cat environment.yml | envguard validate --stdin-filename envs/train/environment.yml -",
		RunE: func(c *cobra.Command, args []string) error {
			f.failOnSet = c.Flags().Changed("fail-on")
			return e.validate(f, args)
		},
	}
	fl := c.Flags()
	fl.StringArrayVar(&f.targets, "target", nil, "hold the environment against machine `NAME` only (repeatable; \"local\" is this machine through NVML); default: every target of .envguard.yml and --targets")
	fl.StringVar(&f.targetsFile, "targets", "", "targets `FILE` (targets: list, a conda-lock virtual-packages.yml, or a pixi manifest's [system-requirements])")
	fl.StringVar(&f.format, "format", "text", "output format: text, json, sarif, github or codequality (GitLab)")
	fl.StringVar(&f.failOn, "fail-on", "error", failOnUsage)
	fl.StringVar(&f.platform, "platform", "", "conda subdir to evaluate selectors for (default: this machine's, e.g. linux-64)")
	fl.BoolVar(&f.noCache, "no-cache", false, "validate every file afresh, neither reading nor writing the cache (~/.cache/envguard, or $XDG_CACHE_HOME/envguard)")
	fl.Int64Var(&f.maxSize, "max-size", api.DefaultMaxBody, "largest input in `BYTES` (the service's --max-body default); only regular files and - are read")
	fl.StringArrayVar(&e.selectCodes, "select", nil, "report only these `CODES` (comma-separated codes or prefixes: EG2,EG301); repeatable")
	fl.StringArrayVar(&e.ignoreCodes, "ignore", nil, "never report these `CODES` (comma-separated codes or prefixes); repeatable")
	fl.BoolVar(&f.exitZero, "exit-zero", false, "exit 0 even when findings reach the fail level (2 still means bad usage or an unreadable input)")
	fl.BoolVar(&f.showConfig, "show-config", false, "print which .envguard.yml governs each input, and what it sets, instead of validating")
	fl.BoolVar(&f.verbose, "verbose", false, "text output: end with a line naming the knowledge base used, layer by layer (date, version, bundle serial)")
	fl.BoolVar(&f.filter, "discover-filter", false, "hold the files named to the directory search's choice too, skipping without a word those it would not pick (non-environment YAML, exclude:); the pre-commit hook passes it")
	fl.StringVar(&e.stdinFilename, "stdin-filename", "", "the `NAME` to report standard input (-) as; its directory picks the .envguard.yml and its name the format")
	return c
}

func (e *env) validate(f validateFlags, files []string) error {
	switch f.format {
	case "text", "json", "sarif", "github", "codequality":
	default:
		return usageErr("--format %q: want text, json, sarif, github or codequality", f.format)
	}
	if _, err := report.ParseFailOn(f.failOn); err != nil {
		return usageErr("--fail-on %v", err)
	}
	if err := stdinOnce(files); err != nil {
		return err
	}
	if f.maxSize <= 0 {
		return usageErr("--max-size %d: want a positive number of bytes", f.maxSize)
	}
	color, err := e.useColor()
	if err != nil {
		return err
	}
	if len(files) == 0 {
		files = []string{"."}
	}
	f.args = files
	var rc *runCache
	if !f.noCache && !f.showConfig && perFile(f.format) {
		rc = e.openRun(f, color && f.format == "text")
	}
	files, err = e.inputFiles(files, rc, f.filter)
	if err != nil {
		return usageErr("%v", err)
	}
	if f.showConfig {
		return e.showConfig(files)
	}
	// Options are worked out in order (each .envguard.yml read once); the
	// files are then read and judged on every core (validate_batch.go).
	inputs := make([]input, len(files))
	for i, name := range files {
		display := name
		if name == "-" && e.stdinFilename != "" {
			display = e.stdinFilename
		}
		opt, failOn, err := e.validateOptions(f, e.inputDir(name))
		if err != nil {
			return err
		}
		inputs[i] = input{name: name, display: display, opt: opt, failOn: failOn}
	}
	outs, err := e.validateFiles(inputs, f, rc)
	if err != nil {
		return err
	}
	failed, unreadable := false, 0
	for _, o := range outs {
		if o.unread != nil {
			// One unreadable input among many: say so, validate the rest,
			// and exit 2 at the end.
			fmt.Fprintf(e.stderr, "envguard: %v\n", report.TermEscape(o.unread.Error()))
			unreadable++
			continue
		}
		if o.fails {
			failed = true
		}
	}
	if err := e.renderOutcomes(f.format, outs); err != nil {
		return err
	}
	if f.format == "text" {
		if err := e.kbLines(f.verbose); err != nil {
			return err
		}
	}
	if unreadable > 0 {
		return usageErr("%d of %d inputs could not be read (see above)", unreadable, len(files))
	}
	if failed && !f.exitZero {
		return errFindings
	}
	return nil
}

// kbLines ends the text output: with --verbose, the knowledge base used,
// layer by layer; and, when its newest layer is more than kbStaleDays old
// by the env's clock, one warning line that says so (as kb status does).
func (e *env) kbLines(verbose bool) error {
	k, err := e.knowledge()
	if err != nil {
		return err
	}
	if verbose {
		if _, err := fmt.Fprintln(e.stdout, report.KnowledgeOf(k).Text()); err != nil {
			return err
		}
	}
	if w := e.kbStaleWarning(k); w != "" {
		_, err = fmt.Fprintf(e.stdout, "warning: %s\n", w)
	}
	return err
}

// validateOptions are the options and fail level for an input in dir,
// under the .envguard.yml that governs dir (read once per configuration).
func (e *env) validateOptions(f validateFlags, dir string) (report.Options, report.FailOn, error) {
	path, err := e.configPath(dir)
	if err != nil {
		return report.Options{}, report.FailOn{}, usageErr("config: %v", err)
	}
	if e.validateOpts == nil {
		e.validateOpts = map[string]validateOpt{}
	}
	if o, ok := e.validateOpts[path]; ok {
		return o.opt, o.failOn, nil
	}
	cfg, err := e.loadConfig(path)
	if err != nil {
		return report.Options{}, report.FailOn{}, err
	}
	// No --target: every target of .envguard.yml and --targets FILE, as
	// pixi solves for every platform it lists; --target narrows the set.
	opt, err := e.optionsAll(cfg, f.platform, f.targets, f.targetsFile, len(f.targets) == 0)
	if err != nil {
		return report.Options{}, report.FailOn{}, err
	}
	failOn, err := e.failOn(f.failOn, f.failOnSet, cfg)
	if err != nil {
		return report.Options{}, report.FailOn{}, err
	}
	e.validateOpts[path] = validateOpt{opt, failOn}
	return opt, failOn, nil
}

type validateOpt struct {
	opt    report.Options
	failOn report.FailOn
}

const failOnUsage = "exit 1 on: error (error findings), unknown (also any target whose verdict is unknown), warning (also warnings) or info (any finding); default error, or fail_on in .envguard.yml"

// failOn reads --fail-on; where the flag was not given, .envguard.yml's
// fail_on decides, else errors alone fail.
func (e *env) failOn(flag string, set bool, cfg *report.Config) (report.FailOn, error) {
	if !set && cfg != nil && cfg.FailOn != nil {
		return *cfg.FailOn, nil
	}
	f, err := report.ParseFailOn(flag)
	if err != nil {
		return f, usageErr("--fail-on %v", err)
	}
	return f, nil
}

// options builds the validation options shared by validate, name and check:
// the knowledge base, the project configuration and the machines. The
// configuration is the one that governs the working directory.
func (e *env) options(platform string, targetNames []string, targetsFile string) (report.Options, error) {
	cfg, err := e.config()
	if err != nil {
		return report.Options{}, err
	}
	return e.optionsWith(cfg, platform, targetNames, targetsFile)
}

// optionsWith is options under a configuration already read.
func (e *env) optionsWith(cfg *report.Config, platform string, targetNames []string, targetsFile string) (report.Options, error) {
	return e.optionsAll(cfg, platform, targetNames, targetsFile, false)
}

// optionsAll is optionsWith; with all, the machines are every target
// described (the configuration's, then the targets file's, each name
// once) rather than those named.
func (e *env) optionsAll(cfg *report.Config, platform string, targetNames []string, targetsFile string, all bool) (report.Options, error) {
	k, err := e.knowledge()
	if err != nil {
		return report.Options{}, err
	}
	m := &report.Machines{KB: k, Local: e.localHost}
	if cfg != nil {
		m.Targets = append(m.Targets, cfg.Targets...)
	}
	if targetsFile != "" {
		src, err := os.ReadFile(targetsFile)
		if err != nil {
			return report.Options{}, usageErr("--targets: %v", err)
		}
		ts, err := gpucheck.ParseTargets(targetsFile, src)
		if err != nil {
			return report.Options{}, usageErr("%v", err)
		}
		m.Targets = append(m.Targets, ts...)
	}
	if all {
		targetNames = nil
		for _, t := range m.Targets {
			targetNames = append(targetNames, t.Name)
		}
	}
	hosts, err := m.Resolve(targetNames)
	if err != nil {
		return report.Options{}, usageErr("--target: %v", err)
	}
	return report.Options{Platform: platform, KB: k, Config: cfg, Hosts: hosts}, nil
}

func (e *env) readInput(name string) ([]byte, error) {
	return e.readInputMax(name, api.DefaultMaxBody)
}

// readInputMax reads one input of at most max bytes: standard input, or a
// file that is regular once links are followed. A device (/dev/zero, or a
// link to it) would be read without end and a FIFO would block, so they
// are refused by name, before anything is opened.
func (e *env) readInputMax(name string, max int64) ([]byte, error) {
	if name == "-" {
		return readCapped(e.stdin, "standard input", max)
	}
	if _, err := statInput(name, max); err != nil {
		return nil, err
	}
	return readFileMax(name, max)
}

// statInput stats a file named as an input and says why it will not be
// read: it is missing, a directory, not a regular file, or over max bytes.
func statInput(name string, max int64) (fs.FileInfo, error) {
	st, err := os.Stat(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: no such file or directory", name)
		}
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s is a directory with no environment, lock or requirements file; validate reads %s (use `envguard check --prefix %s` for an installed environment)", name, lockfile.Formats, name)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is %s, not a regular file: envguard reads files, or - for standard input", name, filekind.Of(st.Mode()))
	}
	if st.Size() > max {
		return nil, fmt.Errorf("%s is %d bytes, over the limit of %d (--max-size)", name, st.Size(), max)
	}
	return st, nil
}

// readFileMax reads a file statInput passed; max still bounds it, since
// it may have grown since.
func readFileMax(name string, max int64) ([]byte, error) {
	fh, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return readCapped(fh, name, max)
}

// readCapped reads r to its end, failing once it passes max bytes.
func readCapped(r io.Reader, name string, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s is larger than the limit of %d bytes (--max-size)", name, max)
	}
	return b, nil
}

func (e *env) render(format string, reports []*report.Report) error {
	switch format {
	case "json":
		// Always an array, one report per input, whatever their number
		// (docs/output.md): a script need not test for two shapes.
		if len(reports) == 0 {
			_, err := io.WriteString(e.stdout, "[]\n")
			return err
		}
		var parts []string
		for _, r := range reports {
			parts = append(parts, strings.TrimRight(string(r.JSON()), "\n"))
		}
		_, err := fmt.Fprintf(e.stdout, "[\n%s\n]\n", strings.Join(parts, ",\n"))
		return err
	case "sarif":
		var docs []report.RuleDoc
		for _, r := range report.Catalog() {
			docs = append(docs, report.RuleDoc{Code: r.Code, Title: r.Title, Help: ruleMarkdown(r), HelpText: ruleText(r)})
		}
		return report.WriteSARIF(e.stdout, reports, docs, Version)
	case "github":
		for _, r := range reports {
			if err := r.WriteGitHub(e.stdout); err != nil {
				return err
			}
		}
		return nil
	case "codequality":
		return report.WriteCodeQuality(e.stdout, reports)
	}
	color, err := e.useColor()
	if err != nil {
		return err
	}
	for _, r := range reports {
		if err := r.WriteTextColor(e.stdout, color); err != nil {
			return err
		}
	}
	return nil
}

// stdinOnce refuses - (standard input) named more than once: the second
// read would see an empty stream and report on it.
func stdinOnce(files []string) error {
	n := 0
	for _, name := range files {
		if name == "-" {
			n++
		}
	}
	if n > 1 {
		return usageErr("- (standard input) given %d times; it can be read once", n)
	}
	return nil
}
