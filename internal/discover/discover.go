// Package discover finds the files envguard reads under directory
// arguments, as git would see them (.gitignore, .git/info/exclude), and
// records what the answer depends on, so that a re-run whose tree has not
// changed takes the last answer instead of listing the tree again.
package discover

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/envguard/envguard/internal/cache"
	"github.com/envguard/envguard/lockfile"
)

// RepoRoot returns the directory holding .git at or above dir (abs), or "".
func RepoRoot(dir string) string {
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

// ConfigName is the configuration file a directory's listing records
// (DirFacts.Config), as cli.ConfigName.
const ConfigName = ".envguard.yml"

// Search expands directory arguments to the input files under them.
// Abs makes a path absolute (the caller's working directory, read once);
// Facts, filled as directories are listed, is what the search saw of each,
// by absolute path.
//
// Load reads the include: and exclude: globs of a configuration file
// (the caller's parser; nil: no globs); Config, where set, is the one
// configuration that governs every file (--config), else each file is
// governed by the first .envguard.yml from its directory up to the
// repository root. Filter applies the search's choice to the files named
// too: one the search would not pick is dropped without a word (the
// pre-commit hook, given every YAML file a commit touches).
type Search struct {
	Abs    func(string) (string, error)
	Facts  map[string]DirFacts
	Load   func(config string) (include, exclude []string, err error)
	Config string
	Filter bool

	mu    sync.Mutex
	loads map[string]loaded
}

type loaded struct {
	sel *selection
	err error
}

// Inputs expands each directory argument to the files under it that
// envguard reads, in a stable order, skipping what .gitignore ignores and
// what the governing configuration's exclude: names: those picked by name
// (lockfile.IsInputName: environment*.yml, *.environment.yml, *.conda.yml,
// conda-lock, pixi, uv, pylock and requirements files), those whose
// content says so (lockfile.PickByContent: any other YAML file that holds
// an environment, pyproject.toml with [tool.pixi], explicit files), and
// those the configuration's include: names. Hidden directories, virtual
// environments and installed packages are not searched. A directory with
// none of them is kept, so that reading it says so. A file named is kept
// whatever it is, unless s.Filter. What the search saw of each directory
// is kept in s.Facts.
//
// Where m is not nil and every argument is a directory, the search is
// recorded: search is the record to keep with m (its Aux), changed says
// whether it is new. A record in m.Aux() that still holds is the answer,
// unsearched. Otherwise search is nil.
func (s *Search) Inputs(args []string, m *cache.Manifest) (files []string, search []byte, changed bool, err error) {
	allDirs := true
	for _, a := range args {
		if st, err := os.Stat(a); a == "-" || err != nil || !st.IsDir() {
			allDirs = false
		}
	}
	// Where every argument is a directory and nothing the last search's
	// answer depends on has changed, that answer stands.
	if m != nil && allDirs {
		if rec, err := Decode(m.Aux()); err == nil && rec.holds(m) {
			s.Facts = rec.facts
			return rec.files, m.Aux(), false, nil
		}
	}
	var rec *record
	if m != nil && allDirs {
		rec = &record{}
	}
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if a == "-" || err != nil || !st.IsDir() {
			// (Only a regular file is looked into: a FIFO would block;
			// reading says what is wrong with the others.)
			if s.Filter && a != "-" && err == nil && st.Mode().IsRegular() {
				ok, err := s.Picks(a)
				if err != nil {
					return nil, nil, false, err
				}
				if !ok {
					continue
				}
			}
			out = append(out, a)
			continue
		}
		found, err := s.walkInputs(a, rec)
		if err != nil {
			return nil, nil, false, err
		}
		if len(found) == 0 {
			out = append(out, a)
			continue
		}
		out = append(out, found...)
	}
	if rec != nil {
		rec.files, rec.facts = out, s.Facts
		return out, rec.encode(), true, nil
	}
	return out, nil, false, nil
}

// Picks reports whether a directory search would pick file: not
// excluded (the file, or a directory on its way from the configuration's
// directory), and included, or an input by its name and, where that needs
// it, by its content. An unreadable file is picked, so that reading it
// says what is wrong.
func (s *Search) Picks(file string) (bool, error) {
	abs, err := s.Abs(file)
	if err != nil {
		return false, err
	}
	sel, _, err := s.governing(filepath.Dir(abs), false)
	if err != nil {
		return false, err
	}
	if sel != nil {
		for p := abs; len(p) > len(sel.dir); p = filepath.Dir(p) {
			if sel.excludes(p) {
				return false, nil
			}
		}
		if sel.includes(abs) && filepath.Base(abs) != ConfigName {
			return true, nil
		}
	}
	if !lockfile.IsInputName(file) {
		return false, nil
	}
	if !lockfile.NeedsContentToPick(file) {
		return true, nil
	}
	src, err := readHead(file)
	if err != nil {
		return true, nil
	}
	return lockfile.PickByContent(file, src), nil
}

// readHead reads what lockfile.PickByContent needs of a file: the first
// lockfile.PickHead bytes of a YAML file, the whole of any other.
func readHead(name string) ([]byte, error) {
	if !strings.HasSuffix(strings.ToLower(name), ".yml") && !strings.HasSuffix(strings.ToLower(name), ".yaml") {
		return os.ReadFile(name)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, lockfile.PickHead))
}

// governing finds the include and exclude globs that govern the files of
// directory dir (absolute): those of s.Config (relative to the working
// directory), else of the first .envguard.yml from dir up to the
// repository root, as the configuration of each file is found. With
// parent false, dir itself is looked at first; with true, the search
// starts at its parent (the walk reads dir's own listing). watch lists
// the paths looked at.
func (s *Search) governing(dir string, parent bool) (*selection, []watched, error) {
	if s.Load == nil {
		return nil, nil, nil
	}
	if s.Config != "" {
		abs, err := s.Abs(s.Config)
		if err != nil {
			return nil, nil, err
		}
		sel, err := s.load(s.Config) // as given, for its errors
		if sel != nil {
			// --config's globs are relative to the working directory, as
			// ruff reads the paths of a configuration named on its
			// command line: the file may live anywhere.
			wd, werr := s.Abs(".")
			if werr != nil {
				return nil, nil, werr
			}
			c := *sel
			c.dir = wd
			sel = &c
		}
		return sel, []watched{watchPath(abs, 'f')}, err
	}
	var watch []watched
	d := dir
	if parent {
		if d = filepath.Dir(dir); d == dir {
			return nil, nil, nil
		}
	}
	for {
		p := filepath.Join(d, ConfigName)
		watch = append(watch, watchPath(p, 'f'))
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			sel, err := s.load(p)
			return sel, watch, err
		}
		watch = append(watch, watchPath(filepath.Join(d, ".git"), 'e'))
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return nil, watch, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return nil, watch, nil
		}
		d = up
	}
}

// load reads one configuration's globs, once; nil where it has none.
func (s *Search) load(config string) (*selection, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l, ok := s.loads[config]; ok {
		return l.sel, l.err
	}
	inc, exc, err := s.Load(config)
	var sel *selection
	if err == nil && len(inc)+len(exc) > 0 {
		sel = &selection{dir: filepath.Dir(config), include: inc, exclude: exc}
	}
	if s.loads == nil {
		s.loads = map[string]loaded{}
	}
	s.loads[config] = loaded{sel, err}
	return sel, err
}

// selection is one configuration's include: and exclude: globs, matched
// (doublestar) against paths relative to its directory.
type selection struct {
	dir              string
	include, exclude []string
}

func (sel *selection) rel(abs string) (string, bool) {
	r, err := filepath.Rel(sel.dir, abs)
	if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// excludes and includes take a nil selection: no globs.
func (sel *selection) excludes(abs string) bool { return sel != nil && sel.matches(sel.exclude, abs) }
func (sel *selection) includes(abs string) bool { return sel != nil && sel.matches(sel.include, abs) }

func (sel *selection) matches(globs []string, abs string) bool {
	if len(globs) == 0 {
		return false
	}
	r, ok := sel.rel(abs)
	if !ok {
		return false
	}
	for _, g := range globs {
		// The globs were validated when the configuration was read.
		if ok, _ := doublestar.Match(g, r); ok {
			return true
		}
	}
	return false
}

// DirFacts is what a directory's listing says about it, so that finding
// the .envguard.yml of the files in it takes no system call.
type DirFacts struct {
	Config     bool // holds a regular file .envguard.yml
	ConfigLink bool // holds a link named .envguard.yml (stat says what it is)
	Git        bool // holds .git: the repository root
}

// walkInputs finds the input files under dir, honouring the .gitignore
// files of the repository dir is in (those above dir as well as those
// under it) and .git/info/exclude, as git would. Matching is go-git's,
// the gitignore reader of the Go git implementation.
// Where rec is not nil, what the answer depends on is added to its watch
// list.
func (s *Search) walkInputs(dir string, rec *record) ([]string, error) {
	abs, err := s.Abs(dir)
	if err != nil {
		return nil, err
	}
	base := RepoRoot(abs)
	var patterns []gitignore.Pattern
	if rec != nil {
		// RepoRoot's answer: .git in abs or a directory above it.
		for d := abs; ; d = filepath.Dir(d) {
			rec.watch = append(rec.watch, watchPath(filepath.Join(d, ".git"), 'e'))
			if d == base || filepath.Dir(d) == d {
				break
			}
		}
	}
	if base != "" {
		if rec != nil {
			rec.watch = append(rec.watch, watchPath(filepath.Join(base, ".git", "info", "exclude"), 'f'))
			for d := filepath.Dir(abs); len(d) >= len(base) && d != abs; d = filepath.Dir(d) {
				rec.watch = append(rec.watch, watchPath(filepath.Join(d, ".gitignore"), 'f'))
				if d == base {
					break
				}
			}
		}
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
	rel, _ := filepath.Rel(base, abs)
	var parts []string
	if rel != "." {
		parts = strings.Split(filepath.ToSlash(rel), "/")
	}
	if s.Facts == nil {
		s.Facts = map[string]DirFacts{}
	}
	// The globs that govern dir from above (dir's own listing may
	// replace them).
	sel, selWatch, err := s.governing(abs, true)
	if err != nil {
		return nil, err
	}
	if rec != nil {
		rec.watch = append(rec.watch, selWatch...)
	}
	w := &walker{facts: s.Facts, extra: make(chan struct{}, max(runtime.GOMAXPROCS(0)-1, 0)), record: rec != nil, search: s}
	w.walk(dir, abs, parts, patterns, sel)
	w.wg.Wait()
	if w.err != nil {
		return nil, fmt.Errorf("searching %s: %w", dir, w.err)
	}
	if rec != nil {
		rec.watch = append(rec.watch, w.watch...)
	}
	sort.Strings(w.found)
	return w.found, nil
}

// walker searches a tree on every core: listing directories is system
// calls (open, getdents, close), which on a tree of 10,000 directories is
// most of a warm run's time.
type walker struct {
	extra chan struct{} // a slot for each further goroutine
	wg    sync.WaitGroup

	record bool    // keep what the answer depends on in watch
	search *Search // its configurations' globs

	mu      sync.Mutex
	watch   []watched
	found   []string
	facts   map[string]DirFacts
	err     error
	errPath string
}

// fail keeps the error of the first directory in path order, so that the
// message does not depend on which goroutine got there first.
func (w *walker) fail(p string, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil || p < w.errPath {
		w.err, w.errPath = err, p
	}
}

// walk searches directory p (abs, absolute; parts, its path from the
// repository root) under the ignore patterns that apply to it. Each
// directory is listed once, and the listing answers what would otherwise
// be a system call a file: is there a .gitignore, a .envguard.yml, a .git.
// A directory's patterns reach only below it (go-git's domains), so they
// are dropped when the walk leaves it rather than matched, in vain,
// against every later path. A subdirectory goes to another goroutine
// where a core is free, else is walked here.
//
// sel is the include and exclude globs that govern p from above; p's own
// .envguard.yml replaces them, and a repository root (.git) without one
// has none, as each file's configuration is found.
func (w *walker) walk(p, abs string, parts []string, patterns []gitignore.Pattern, sel *selection) {
	ents, dirSig, err := w.list(p)
	if err != nil {
		w.fail(p, err)
		return
	}
	var watch []watched
	if w.record {
		watch = append(watch, dirSig)
	}
	var facts DirFacts
	ignoreFile := false
	for _, d := range ents {
		switch d.Name() {
		case ConfigName:
			facts.Config = d.Type().IsRegular()
			facts.ConfigLink = d.Type()&fs.ModeSymlink != 0
		case ".git":
			facts.Git = true
		case ".gitignore":
			ignoreFile = true
		}
	}
	if w.search.Load != nil && w.search.Config == "" {
		cfg := filepath.Join(abs, ConfigName)
		isConfig := facts.Config
		if !isConfig && facts.ConfigLink {
			st, err := os.Stat(cfg)
			isConfig = err == nil && !st.IsDir()
		}
		switch {
		case isConfig:
			if w.record {
				watch = append(watch, watchPath(cfg, 'f'))
			}
			var err error
			if sel, err = w.search.load(cfg); err != nil {
				w.fail(p, err)
				return
			}
		case facts.Git:
			sel = nil
		}
	}
	if ignoreFile {
		// This directory's own .gitignore governs what lies below it.
		ignore := filepath.Join(abs, ".gitignore")
		if w.record {
			watch = append(watch, watchPath(ignore, 'f'))
		}
		patterns = append(patterns[:len(patterns):len(patterns)], readIgnore(ignore, parts)...)
	}
	var m gitignore.Matcher
	if len(patterns) > 0 {
		m = gitignore.NewMatcher(patterns)
	}
	var found []string
	for _, d := range ents {
		n := d.Name()
		child := filepath.Join(p, n)
		cparts := append(parts[:len(parts):len(parts)], n)
		if d.IsDir() {
			if strings.HasPrefix(n, ".") || n == "node_modules" || n == "__pycache__" || n == "site-packages" || n == "venv" || n == "conda-meta" {
				continue
			}
			if m != nil && m.Match(cparts, true) {
				continue
			}
			cabs := filepath.Join(abs, n)
			if sel.excludes(cabs) {
				continue
			}
			select {
			case w.extra <- struct{}{}:
				w.wg.Add(1)
				go func() {
					defer func() { <-w.extra; w.wg.Done() }()
					w.walk(child, cabs, cparts, patterns, sel)
				}()
			default:
				w.walk(child, cabs, cparts, patterns, sel)
			}
			continue
		}
		if !d.Type().IsRegular() || (m != nil && m.Match(cparts, false)) {
			continue
		}
		if sel != nil {
			cabs := filepath.Join(abs, n)
			if sel.excludes(cabs) {
				continue
			}
			if sel.includes(cabs) && n != ConfigName {
				// (include: ["**/*.yml"] does not make the configuration
				// an input.)
				found = append(found, child)
				continue
			}
		}
		if !lockfile.IsInputName(child) {
			continue
		}
		if lockfile.NeedsContentToPick(child) {
			if w.record {
				watch = append(watch, watchPath(child, 'f'))
			}
			src, err := readHead(child)
			if err != nil || !lockfile.PickByContent(child, src) {
				continue
			}
		}
		found = append(found, child)
	}
	w.mu.Lock()
	w.facts[abs] = facts
	w.found = append(w.found, found...)
	w.watch = append(w.watch, watch...)
	w.mu.Unlock()
}

// list reads directory p; when recording, also its modification time,
// taken before the listing so that a change during it shows as a newer
// time.
func (w *walker) list(p string) ([]fs.DirEntry, watched, error) {
	if !w.record {
		ents, err := os.ReadDir(p)
		return ents, watched{}, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, watched{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, watched{}, err
	}
	ents, err := f.ReadDir(-1)
	return ents, watched{path: p, kind: 'd', mtime: st.ModTime().UnixNano()}, err
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
