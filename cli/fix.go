package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/envguard/envguard/api"
	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/fixer"
)

type fixFlags struct {
	diff     bool
	unsafe   bool
	selected []string
	platform string
	maxSize  int64
}

func fixCmd(e *env) *cobra.Command {
	var f fixFlags
	c := &cobra.Command{
		Use:   "fix [--diff] [--unsafe] [--select CODES] FILE...",
		Short: "Apply the certain fixes to environment.yml files in place, keeping comments and layout; - reads stdin and writes stdout",
		Long: "fix applies the fixes that envguard is certain of (the hints of EG501, EG201, EG203, EG103's\n" +
			"=> and =< operators, EG105, EG108, EG109, EG112) by editing the file's bytes where the findings\n" +
			"point, so comments, order, quoting, indentation and line ends stay as they were. --unsafe also\n" +
			"applies the fixes that change what gets installed (EG301, EG302, EG207). A fix that conflicts with\n" +
			"another, or whose text no longer matches, is skipped and listed. Exit 0: nothing left at error or\n" +
			"warning; 1: findings remain; 2: bad usage or unreadable input.",
		Example: "  envguard fix environment.yml\n" +
			"  envguard fix --diff environment.yml      # print the change, write nothing\n" +
			"  envguard fix --select EG201,EG501 envs/*.yml\n" +
			"  envguard fix --unsafe environment.yml",
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return e.fix(f, args) },
	}
	fl := c.Flags()
	fl.BoolVar(&f.diff, "diff", false, "print a unified diff of the fixes instead of writing the files")
	fl.BoolVar(&f.unsafe, "unsafe", false, "also apply the fixes that change what gets installed (EG301, EG302, EG207)")
	fl.StringSliceVar(&f.selected, "select", nil, "fix only these `CODES` (comma list or repeated)")
	fl.StringVar(&f.platform, "platform", "", "conda subdir to evaluate selectors for (default: this machine's, e.g. linux-64)")
	fl.Int64Var(&f.maxSize, "max-size", api.DefaultMaxBody, "largest input in `BYTES`")
	return c
}

func (e *env) fix(f fixFlags, files []string) error {
	if err := fixer.CheckSelect(f.selected); err != nil {
		return usageErr("%v", err)
	}
	if err := stdinOnce(files); err != nil {
		return err
	}
	opt, err := e.options(f.platform, nil, "")
	if err != nil {
		return err
	}
	remaining := false
	for _, name := range files {
		if st, err := os.Stat(name); err == nil && st.IsDir() {
			return usageErr("%s is a directory: name the environment files to fix (envguard validate %s finds them)", name, name)
		}
		src, err := e.readInputMax(name, f.maxSize)
		if err != nil {
			return usageErr("%v", err)
		}
		res, err := fixer.Fix(context.Background(), name, src, fixer.Options{Report: opt, Unsafe: f.unsafe, Select: f.selected})
		if errors.Is(err, fixer.ErrNotEnvFile) {
			return usageErr("%v", err)
		}
		if err != nil {
			return err
		}
		switch {
		case f.diff:
			fmt.Fprint(e.stdout, fixer.Diff(name, src, res.Fixed))
		case name == "-":
			if _, err := e.stdout.Write(res.Fixed); err != nil {
				return err
			}
		case len(res.Applied) > 0:
			if err := writeInPlace(name, res.Fixed); err != nil {
				return fmt.Errorf("%s: writing the fixed file: %w", name, err)
			}
		}
		e.fixSummary(name, res, f.diff)
		if res.Remaining > 0 {
			remaining = true
		}
	}
	if remaining {
		return errFindings
	}
	return nil
}

// fixSummary tells, on stderr, what was fixed, what was not, and what is
// left; stdout carries only the diff or the fixed file.
func (e *env) fixSummary(name string, res *fixer.Result, dry bool) {
	verb := "fixed"
	if dry {
		verb = "would fix"
	}
	for _, a := range res.Applied {
		fmt.Fprintf(e.stderr, "%s:%d:%d: %s %s: %s\n", name, a.Line, a.Column, verb, a.Code, a.Message)
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(e.stderr, "%s:%d: not fixed %s: %s\n", name, s.Line, s.Code, s.Reason)
	}
	var left []string
	for _, d := range res.Report.Diagnostics() {
		if d.Severity >= envspec.SeverityWarning {
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
	fmt.Fprintln(e.stderr, msg)
}

func fixesWord(n int) string {
	if n == 1 {
		return "fix"
	}
	return "fixes"
}

// writeInPlace replaces a file's contents through a temporary file in its
// directory and a rename, so that a crash leaves the old file or the new
// one, never half of each. A link is followed, so the file it names is
// what changes, and the file's mode is kept.
func writeInPlace(name string, data []byte) error {
	path, err := filepath.EvalSymlinks(name)
	if err != nil {
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".envguard-fix-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // gone after the rename; cleans up after a failure
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(st.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
