package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/builder"
	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/fixer"
)

type fixFlags struct {
	targets     []string
	targetsFile string
	diff        bool
	unsafe      bool
	selected    []string
	platform    string
	maxSize     int64
	force       bool
}

func fixCmd(e *env) *cobra.Command {
	var f fixFlags
	c := &cobra.Command{
		Use:   "fix [--diff] [--unsafe] [--select CODES] [--target NAME]... [--force] FILE...",
		Short: "Apply the certain fixes to environment.yml and requirements files in place, keeping comments and layout; - reads stdin and writes stdout",
		Long: "fix applies the fixes that envguard is certain of (the hints of EG201, EG203, EG103's\n" +
			"=> and =< operators, EG105, EG109) by editing the file's bytes where the findings point, so\n" +
			"comments, order, quoting, indentation and line ends stay as they were; requirements files get\n" +
			"the fixes of a pip: section. --unsafe also applies the fixes that change what gets installed or\n" +
			"how the environment is addressed (EG301, EG302, EG207, EG205's wheel index, EG108's and EG112's\n" +
			"channels, EG501's name). Each fix is validated before it is written: one that would add a\n" +
			"finding is not made, and the report says which. --target NAME validates against that machine too;\n" +
			"with --unsafe, a pytorch release or variant left to the solver (EG502, EG207, EG304, EG409) is\n" +
			"pinned to the newest build that validates on every target named. A fix that conflicts with\n" +
			"another, or whose text no longer matches, is skipped and listed. The file keeps its mode, owner,\n" +
			"group and links; a read-only file, or one you cannot write, is refused unless --force; a file that\n" +
			"changes while it is being fixed is fixed again from its new text, or refused. Exit 0: nothing left\n" +
			"at error or warning; 1: findings remain; 2: bad usage, unreadable input, or a file refused.",
		Example: "  envguard fix environment.yml\n" +
			"  envguard fix --diff environment.yml      # print the change, write nothing\n" +
			"  envguard fix --select EG201,EG203 envs/*.yml\n" +
			"  envguard fix --unsafe environment.yml\n" +
			"  envguard fix --unsafe --targets fleet.yml --target a100 --target l4 requirements.txt",
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return e.fix(f, args) },
	}
	fl := c.Flags()
	fl.BoolVar(&f.diff, "diff", false, "print a unified diff of the fixes instead of writing the files")
	fl.BoolVar(&f.unsafe, "unsafe", false, "also apply the fixes that change what gets installed or the environment's name or channels (EG301, EG302, EG207, EG205, EG108, EG112, EG501)")
	fl.StringSliceVar(&f.selected, "select", nil, "fix only these `CODES` (comma list or repeated)")
	fl.StringVar(&f.platform, "platform", "", "conda subdir to evaluate selectors for (default: this machine's, e.g. linux-64)")
	fl.Int64Var(&f.maxSize, "max-size", api.DefaultMaxBody, "largest input in `BYTES`")
	fl.StringArrayVar(&f.targets, "target", nil, "validate every edit against this machine `NAME` (repeatable; local for this machine's GPUs); with --unsafe, also pin a release or variant left to the solver to the newest build that validates on every target")
	fl.StringVar(&f.targetsFile, "targets", "", "read target machines from `FILE` (as validate does)")
	fl.BoolVar(&f.force, "force", false, "write files that are read-only or that you cannot write (replacing them through their directory)")
	return c
}

func (e *env) fix(f fixFlags, files []string) error {
	if err := fixer.CheckSelect(f.selected); err != nil {
		return usageErr("%v", err)
	}
	if err := stdinOnce(files); err != nil {
		return err
	}
	opt, err := e.options(f.platform, f.targets, f.targetsFile)
	if err != nil {
		return err
	}
	// only the targets named are held: fix changes files, and a machine
	// the user did not name is no reason to change one
	fopt := fixer.Options{Report: opt, Unsafe: f.unsafe, Select: f.selected}
	if len(f.targets) > 0 {
		fopt.Targets, fopt.Pin = opt.Hosts, builder.PinPick
	}
	remaining := false
	for _, name := range files {
		if st, err := os.Stat(name); err == nil && st.IsDir() {
			return usageErr("%s is a directory: name the environment files to fix (envguard validate %s finds them)", name, name)
		}
		var res *fixer.Result
		if f.diff || name == "-" {
			src, err := e.readInputMax(name, f.maxSize)
			if err != nil {
				return usageErr("%v", err)
			}
			if res, err = fixer.Fix(context.Background(), name, src, fopt); err != nil {
				return fixErr(err)
			}
			out := res.Fixed
			if f.diff {
				out = []byte(fixer.Diff(name, src, res.Fixed))
			}
			if _, err := e.stdout.Write(out); err != nil {
				return err
			}
		} else {
			// read, fixed and written under the file's lock, and only if
			// it is still what was read
			fr, err := fixer.FixFile(context.Background(), name, fopt, fixer.FileOptions{MaxSize: f.maxSize, Force: f.force})
			if err != nil {
				return fixErr(err)
			}
			res = fr.Result
			if fr.Attempts > 1 {
				fmt.Fprintf(e.stderr, "%s: the file changed while it was being fixed; the fixes were made again on its new text\n", name)
			}
			for _, n := range fr.Notes {
				fmt.Fprintf(e.stderr, "%s: %s\n", name, n)
			}
		}
		// the report goes to stdout, so that fix … > log keeps it, unless
		// stdout carries the fixed file (-) or a diff meant for patch
		rw := e.stdout
		if f.diff || name == "-" {
			rw = e.stderr
		}
		fixSummary(rw, name, res, f.diff)
		if res.Remaining > 0 {
			remaining = true
		}
	}
	if remaining {
		return errFindings
	}
	return nil
}

// fixSummary tells w what was fixed, what was not, and what is left.
func fixSummary(w io.Writer, name string, res *fixer.Result, dry bool) {
	verb := "fixed"
	if dry {
		verb = "would fix"
	}
	for _, a := range res.Applied {
		fmt.Fprintf(w, "%s:%d:%d: %s %s: %s\n", name, a.Line, a.Column, verb, a.Code, a.Message)
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(w, "%s:%d: not fixed %s: %s\n", name, s.Line, s.Code, s.Reason)
	}
	var left []string
	for _, d := range res.Report.Diagnostics() {
		if d.Severity >= finding.SeverityWarning {
			left = append(left, fmt.Sprintf("%s (line %d)", d.Code, d.Pos.Line))
		}
	}
	msg := fmt.Sprintf("%s: %d %s", name, len(res.Applied), fixesWord(len(res.Applied)))
	if dry {
		msg += " to make"
	} else {
		msg += " made"
	}
	if len(left) > 0 {
		msg += fmt.Sprintf("; %d left at error or warning: %s (envguard validate %s says more)", len(left), strings.Join(left, ", "), name)
	} else {
		msg += "; nothing left at error or warning"
	}
	fmt.Fprintln(w, msg)
}

func fixesWord(n int) string {
	if n == 1 {
		return "fix"
	}
	return "fixes"
}

// fixErr is the exit for a file that could not be fixed: one that is no
// environment file, cannot be read, or was refused is bad input (2).
func fixErr(err error) error {
	if errors.Is(err, fixer.ErrNotEnvFile) || errors.Is(err, fixer.ErrRefused) {
		return usageErr("%v", err)
	}
	return err
}
