// Package cli is the envguard command line. main only calls Main, so every
// subcommand is testable with in-memory streams.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/envguard/envguard/gpucheck"
	"github.com/envguard/envguard/internal/discover"
	"github.com/envguard/envguard/internal/kbstore"
	"github.com/envguard/envguard/report"
	"github.com/envguard/envguard/resolver/kb"
)

// Version is envguard's version, set at build time with -ldflags.
var Version = "0.1.0"

// Exit codes, as DESIGN.md fixes them.
const (
	ExitOK       = 0 // no findings at the fail level
	ExitFindings = 1 // findings at or above the fail level
	ExitUsage    = 2 // bad usage or unreadable input
	ExitInternal = 3 // a bug
	ExitShutdown = 4 // serve: stopped with requests still in flight (grace ran out, or a second signal)
)

// exitError carries an exit code through cobra.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageErr(format string, a ...any) error {
	return &exitError{ExitUsage, fmt.Errorf(format, a...)}
}

// findingsExit makes a command exit 1 without printing an error: the
// findings already said what is wrong.
var errFindings = &exitError{ExitFindings, errors.New("")}

// env is what every subcommand shares.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	lookupEnv      func(string) (string, bool)
	probe          *gpucheck.Probe
	local          func() *gpucheck.Host // when set, what NVML would read (tests)
	kbDir          string
	configFile     string
	kb             *kb.KB
	now            func() time.Time // the clock (tests set it)
	keys           *kbstore.Keys    // trusted bundle keys; nil = kbstore.ReleaseKeys (tests set it)

	// Set by validate's flags, read by the configuration code (config.go).
	selectCodes, ignoreCodes []string
	stdinFilename            string
	color                    string                       // --color: auto, always or never
	configs                  map[string]*report.Config    // by path; "" = none found
	validateOpts             map[string]validateOpt       // by configuration path
	configDirs               map[string]string            // configPath's answers, by absolute directory
	dirFacts                 map[string]discover.DirFacts // what validate's search saw in each directory, by absolute path
	wd                       string                       // the working directory, once read (absPath)
}

// knowledge is the knowledge base of this run, its layers stacked once
// (stackKB, cli/kb.go).
func (e *env) knowledge() (*kb.KB, error) {
	if e.kb != nil {
		return e.kb, nil
	}
	k, err := e.stackKB()
	if err != nil {
		return nil, err
	}
	e.kb = k
	return k, nil
}

// ReadGPUsCommand is the hidden first argument that makes envguard print
// this machine's GPUs as NVML reads them, as JSON, and exit: the child
// process a one-shot command reads the GPUs through (gpucheck.NewChildProbe
// says why).
const ReadGPUsCommand = "__read-gpus"

// gpuReader is the executable whose ReadGPUsCommand reads the GPUs; "" reads
// them in this process (tests, and builds whose path is unknown).
var gpuReader string

// ReadGPUsWith makes one-shot commands read the GPUs by running exe (this
// envguard binary) with ReadGPUsCommand. Only the envguard command sets it:
// a test binary run with that argument would run its tests instead.
func ReadGPUsWith(exe string) { gpuReader = exe }

// Main runs envguard with args (without the program name) and returns the
// exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 1 && args[0] == ReadGPUsCommand {
		if err := gpucheck.WriteHost(stdout, gpucheck.NewLocalProbe()); err != nil {
			fmt.Fprintf(stderr, "envguard: %v\n", err)
			return ExitInternal
		}
		return ExitOK
	}
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv, lookupEnv: os.LookupEnv}
	defer e.close()
	return run(args, e)
}

func run(args []string, e *env) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(e.stderr, "envguard: internal error: %v\nplease report this with the input that caused it\n", r)
			code = ExitInternal
		}
	}()
	root := &cobra.Command{
		Use:   "envguard",
		Short: "Will this conda environment work on that GPU machine?",
		Long: "envguard reads environment.yml files and installed prefixes, works out the framework,\n" +
			"CUDA runtime, cuDNN and Python they really get, and holds them against GPU machines.",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       versionText(),
	}
	root.SetVersionTemplate("{{.Version}}")
	root.SetArgs(args)
	root.SetIn(e.stdin)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.PersistentFlags().StringVar(&e.kbDir, "kb", "", "add the knowledge base files in `DIR` above the embedded, downloaded and learned layers (a DIR with every table replaces them)")
	root.PersistentFlags().StringVar(&e.configFile, "config", "", "project configuration `FILE` (default: the first .envguard.yml from each input's directory up to the repository root)")
	root.PersistentFlags().StringVar(&e.color, "color", "auto", "colour the text output: auto (when stdout is a terminal and NO_COLOR is unset), always or never")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &exitError{ExitUsage, fmt.Errorf("%v\nrun '%s --help' for usage", err, c.CommandPath())}
	})
	root.AddCommand(
		validateCmd(e), nameCmd(e), rulesCmd(e), specCmd(e), gpuCmd(e),
		serveCmd(e), checkCmd(e), buildCmd(e), coverageCmd(e), healthCmd(e),
		versionCmd(e), initCmd(e), fixCmd(e), inspectCmd(e), targetsCmd(e), pickCmd(e), kbCmd(e),
	)
	err := root.Execute()
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err.Error() != "" {
			fmt.Fprintf(e.stderr, "envguard: %v\n", ee.err)
		}
		return ee.code
	}
	// cobra's own errors (unknown command, wrong argument count) are usage.
	fmt.Fprintf(e.stderr, "envguard: %v\n", err)
	return ExitUsage
}

// localHost reads this machine through NVML (once per process), narrowed by
// CUDA_VISIBLE_DEVICES and with conda's overrides applied.
func (e *env) localHost() *gpucheck.Host {
	if e.local != nil {
		// The same narrowing gpucheck.Local applies to the probe's reading.
		h := e.local().Clone()
		if v, ok := e.lookupEnv("CUDA_VISIBLE_DEVICES"); ok {
			h = gpucheck.SelectVisible(h, v, true)
		}
		return gpucheck.ApplyOverrides(h, e.lookupEnv)
	}
	if e.probe == nil {
		e.probe = gpucheck.NewLocalProbe()
		if gpuReader != "" {
			e.probe = gpucheck.NewChildProbe(gpuReader, ReadGPUsCommand)
		}
	}
	return gpucheck.Local(e.probe, e.lookupEnv)
}

func (e *env) close() {
	if e.probe != nil {
		_ = e.probe.Close()
	}
}
