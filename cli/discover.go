package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/envguard/envguard/envspec"
)

// repoRoot returns the directory holding .git at or above dir (abs), or "".
func repoRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
}

// inputFiles expands each directory argument to the files under it that
// envguard reads (envspec.IsInputName: environment*.yml, env*.yml,
// *.environment.yml, conda-lock and explicit files, pixi, uv, pylock and
// requirements files), in a stable order, skipping what .gitignore
// ignores. Hidden directories, virtual environments and installed
// packages are not searched. A directory with none of them is kept, so
// that reading it says so.
func inputFiles(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if a == "-" || err != nil || !st.IsDir() {
			out = append(out, a)
			continue
		}
		found, err := walkInputs(a)
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			out = append(out, a)
			continue
		}
		out = append(out, found...)
	}
	return out, nil
}

// walkInputs finds the input files under dir, honouring the .gitignore
// files of the repository dir is in (those above dir as well as those
// under it) and .git/info/exclude, as git would. Matching is go-git's,
// the gitignore reader of the Go git implementation.
func walkInputs(dir string) ([]string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	base := repoRoot(abs)
	var patterns []gitignore.Pattern
	if base != "" {
		patterns = append(patterns, readIgnore(filepath.Join(base, ".git", "info", "exclude"), nil)...)
		// The .gitignore files from the repository root down to dir
		// (excluded) apply to dir's contents too.
		rel, _ := filepath.Rel(base, abs)
		var parts []string
		if rel != "." {
			parts = strings.Split(filepath.ToSlash(rel), "/")
		}
		for i := 0; i < len(parts); i++ {
			patterns = append(patterns, readIgnore(filepath.Join(append([]string{base}, parts[:i]...)...), parts[:i])...)
		}
	} else {
		base = abs
	}
	var found []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		ap, _ := filepath.Abs(p)
		rel, _ := filepath.Rel(base, ap)
		var parts []string
		if rel != "." {
			parts = strings.Split(filepath.ToSlash(rel), "/")
		}
		if d.IsDir() {
			n := d.Name()
			if p != dir && (strings.HasPrefix(n, ".") || n == "node_modules" || n == "__pycache__" || n == "site-packages" || n == "venv" || n == "conda-meta") {
				return filepath.SkipDir
			}
			if p != dir && gitignore.NewMatcher(patterns).Match(parts, true) {
				return filepath.SkipDir
			}
			// This directory's own .gitignore governs what lies below it.
			patterns = append(patterns, readIgnore(filepath.Join(ap, ".gitignore"), parts)...)
			return nil
		}
		if !d.Type().IsRegular() || !envspec.IsInputName(p) || gitignore.NewMatcher(patterns).Match(parts, false) {
			return nil
		}
		if envspec.NeedsContentToPick(p) {
			src, err := os.ReadFile(p)
			if err != nil || !envspec.PickByContent(p, src) {
				return nil
			}
		}
		found = append(found, p)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("searching %s: %w", dir, err)
	}
	sort.Strings(found)
	return found, nil
}

// readIgnore reads one .gitignore-format file; a missing file has no
// patterns. domain is the path, from the repository root, of the directory
// the patterns are relative to.
func readIgnore(name string, domain []string) []gitignore.Pattern {
	if filepath.Base(name) != ".gitignore" && filepath.Base(name) != "exclude" {
		name = filepath.Join(name, ".gitignore")
	}
	src, err := os.ReadFile(name)
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, append([]string(nil), domain...)))
	}
	return ps
}
