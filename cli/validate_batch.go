package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/internal/cache"
	"github.com/envguard/envguard/internal/discover"
	"github.com/envguard/envguard/internal/workpool"
	"github.com/envguard/envguard/lockfile"
	"github.com/envguard/envguard/report"
)

// input is one file to validate, with the options its .envguard.yml gives.
type input struct {
	name    string // as given ("-" for standard input)
	display string // as the report names it (--stdin-filename)
	opt     report.Options
	failOn  report.FailOn
}

// outcome is one file's result: its rendering in the output format, or,
// for formats that are one document over all files (SARIF, GitLab code
// quality), its report; unread says why the file could not be read.
type outcome struct {
	out    []byte
	rep    *report.Report
	fails  bool // ExitCode(failOn) != 0
	unread error
}

// validateFiles reads and judges the inputs on every core, results in the
// order given. Unless --no-cache, the run's manifest (internal/cache) is
// read first: a file whose size and time match its entry, and are safely
// older than the manifest, is not even read; one whose bytes hash as its
// entry's is not judged again. The manifest is written once at the end,
// and only where something in it changed. Standard input and requirements
// files on disk (their -r includes are other files the entry would have to
// cover) are judged every time.
func (e *env) validateFiles(inputs []input, f validateFlags, rc *runCache) ([]outcome, error) {
	color := false
	if f.format == "text" {
		var err error
		if color, err = e.useColor(); err != nil {
			return nil, err
		}
	}
	var (
		c     *cache.Cache
		m     *cache.Manifest
		bases []cache.Key
		recs  []cache.Record // this run's entries, by input; Path "" for none
		dirty atomic.Bool    // an entry differs from the manifest read
	)
	if rc != nil {
		c, m = rc.c, rc.m
		// Inputs under one .envguard.yml share their options, and so the
		// part of the key the options give.
		bases = make([]cache.Key, len(inputs))
		memo := map[*report.Config]cache.Key{}
		for i, in := range inputs {
			k, ok := memo[in.opt.Config]
			if !ok {
				k = cacheBase(f.format, color, in.opt, in.failOn)
				memo[in.opt.Config] = k
			}
			bases[i] = k
		}
		recs = make([]cache.Record, len(inputs))
	}
	outs := workpool.Map(len(inputs), 0, func(i int) outcome {
		in := inputs[i]
		name, opt := in.name, in.opt
		var src []byte
		var err error
		var st fs.FileInfo
		if name == "-" {
			src, err = e.readInputMax(name, f.maxSize)
		} else if st, err = statInput(name, f.maxSize); err == nil {
			if c != nil {
				if prev, ok := m.Get(name); ok && prev.Base == bases[i] && m.Fresh(prev, st.Size(), st.ModTime().UnixNano()) {
					if o, ok := cachedOutcome(prev.Value); ok {
						recs[i] = cache.Record{Path: name, Entry: prev}
						return o
					}
				}
			}
			src, err = readFileMax(name, f.maxSize)
		}
		if err != nil {
			return outcome{unread: err}
		}
		isReq := name != "-" && lockfile.SniffFile(name, src) == envspec.KindRequirements
		keep := c != nil && name != "-" && !isReq
		var entry cache.Entry
		if keep {
			entry = cache.Entry{Size: st.Size(), ModTime: st.ModTime().UnixNano(), Sum: cache.SumOf(src), Base: bases[i]}
			// Touched but unchanged (or too recent to trust its time):
			// the bytes say it is the file already judged.
			if prev, ok := m.Get(name); ok && prev.Base == entry.Base && prev.Sum == entry.Sum {
				if o, ok := cachedOutcome(prev.Value); ok {
					entry.Value = prev.Value
					recs[i] = cache.Record{Path: name, Entry: entry}
					dirty.Store(true)
					return o
				}
			}
		}
		var r *report.Report
		if isReq {
			// A requirements file on disk: its -r includes are read,
			// relative to it (report.Validate, which the service calls,
			// never opens files).
			env := lockfile.ReadRequirements(name, src, lockfile.Options{Platform: opt.Platform, MaxItems: opt.Budget.MaxItems,
				ReadFile: e.includeReader(name, f.maxSize)})
			r = report.FromEnv(env, opt)
		} else {
			r = report.Validate(in.display, src, opt)
		}
		o := outcome{fails: r.ExitCode(in.failOn) != 0}
		if !perFile(f.format) {
			o.rep = r
			return o
		}
		// The fail bit and the rendering, as the manifest keeps them.
		b := bytes.NewBuffer(make([]byte, 1, 1+len(src)))
		b.Bytes()[0] = '0'
		if o.fails {
			b.Bytes()[0] = '1'
		}
		switch f.format {
		case "json":
			b.Write(r.JSON())
		case "github":
			err = r.WriteGitHub(b)
		default:
			err = r.WriteTextColor(b, color)
		}
		if err != nil {
			// Writing to memory does not fail; a report that cannot be
			// rendered is a bug, and panics reach cli's internal-error exit.
			panic(fmt.Sprintf("rendering %s: %v", in.display, err))
		}
		o.out = b.Bytes()[1:]
		if keep {
			entry.Value = b.Bytes()
			recs[i] = cache.Record{Path: name, Entry: entry}
			dirty.Store(true)
		}
		return o
	})
	if c != nil {
		// A file named twice (validate a a) is one entry.
		var keep []cache.Record
		seen := make(map[string]bool, len(recs))
		for _, r := range recs {
			if r.Path != "" && !seen[r.Path] {
				seen[r.Path] = true
				keep = append(keep, r)
			}
		}
		// Unchanged entries, none gone, the same search: the manifest on
		// disk is this run's already, and a warm run writes nothing.
		if dirty.Load() || len(keep) != m.Len() || rc.searchChanged {
			if err := c.Save(rc.key, keep, rc.search); err != nil {
				fmt.Fprintf(e.stderr, "envguard: cache %s: %v; results are not being kept (--no-cache turns the cache off)\n", c.Dir(), err)
			}
		}
	}
	return outs, nil
}

// runCache is a validate run's manifest: read before the search of the
// directories (whose answer it may hold) and written, where anything in
// it changed, after the files are judged.
type runCache struct {
	c             *cache.Cache
	key           cache.Key
	m             *cache.Manifest
	search        []byte // the search record to save (searchRecord)
	searchChanged bool   // search differs from the manifest's
}

// openRun opens the cache and reads this run's manifest; nil where there
// is no cache (openCache says why where that needs saying). An unreadable
// or damaged manifest is a miss for every file, and this run's save
// replaces it; there is no flag to show it under, and the results do not
// depend on it.
func (e *env) openRun(f validateFlags, color bool) *runCache {
	c := e.openCache()
	if c == nil {
		return nil
	}
	rc := &runCache{c: c, key: e.manifestKey(f, color)}
	rc.m, _ = c.Load(rc.key)
	return rc
}

// cachedOutcome reads a manifest entry's value: the fail bit ('0' or '1')
// and the rendering.
func cachedOutcome(v []byte) (outcome, bool) {
	if len(v) == 0 || (v[0] != '0' && v[0] != '1') {
		return outcome{}, false
	}
	return outcome{out: v[1:], fails: v[0] == '1'}, true
}

// manifestKey names this run's manifest: the working directory and the
// arguments (relative paths mean nothing without it), and the flags that
// pick a result, so that runs with other targets or codes keep manifests
// of their own. What a result depends on is in each entry's options key
// (cacheBase): a changed .envguard.yml (or --config file), targets file,
// knowledge base (--kb) or build is a miss for the files it governs.
func (e *env) manifestKey(f validateFlags, color bool) cache.Key {
	wd, _ := os.Getwd()
	k := cache.NewKey().AddString("manifest").AddString(wd).AddString(f.format).AddString(fmt.Sprint(color)).
		AddString(f.platform).AddString(f.targetsFile).AddString(f.failOn).AddString(fmt.Sprint(f.failOnSet)).AddString(fmt.Sprint(f.filter)).
		AddString(e.configFile) // its include: and exclude: decide the search
	for _, list := range [][]string{f.args, f.targets, e.selectCodes, e.ignoreCodes} {
		k.AddString(fmt.Sprint(len(list)))
		for _, s := range list {
			k.AddString(s)
		}
	}
	return k.Key()
}

// openCache opens ~/.cache/envguard ($XDG_CACHE_HOME/envguard); nil where
// neither variable is set, and nil with a warning where it cannot be made
// or is not safe to trust (one line, as ssh says of a key file others can
// read: "not using cache DIR: writable by group or others").
func (e *env) openCache() *cache.Cache {
	dir := cache.Dir(e.getenv)
	if dir == "" {
		return nil
	}
	c, err := cache.Open(dir)
	var unsafe *cache.UnsafeError
	if errors.As(err, &unsafe) {
		fmt.Fprintf(e.stderr, "envguard: %s\n", report.TermEscape(err.Error()))
		return nil
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "envguard: cache: %v; validating without it (--no-cache turns the cache off)\n", err)
		return nil
	}
	return c
}

// cacheBase is the part of a file's key that its options give: the
// program's build, the knowledge base, the project configuration (with
// --select and --ignore), the machines, the platform, the format, colour
// and the fail level. Anything else a rendering depends on is the file's
// name and bytes.
func cacheBase(format string, color bool, opt report.Options, failOn report.FailOn) cache.Key {
	cfg, _ := json.Marshal(opt.Config)
	hosts, _ := json.Marshal(opt.Hosts)
	platform := opt.Platform
	if platform == "" {
		platform = "host " + runtime.GOOS + "/" + runtime.GOARCH
	}
	kbVersion := ""
	if opt.KB != nil {
		kbVersion = opt.KB.Version()
	}
	return cache.NewKey().
		AddString(Version).AddString(buildID()).
		AddString(kbVersion).
		Add(cfg).Add(hosts).
		AddString(platform).AddString(format).AddString(fmt.Sprint(color)).AddString(fmt.Sprintf("%+v", failOn)).
		Key()
}

// buildID names the program's code: its VCS revision when built from a
// clean checkout; else (a modified tree, go test, go run) the executable's
// size and time, so that a rebuild never reads the last build's results.
var buildID = sync.OnceValue(func() string {
	var parts []string
	clean := false
	if bi, ok := debug.ReadBuildInfo(); ok {
		parts = append(parts, bi.Main.Version)
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				parts = append(parts, s.Value)
				clean = true
			case "vcs.modified":
				if s.Value == "true" {
					clean = false
					parts = append(parts, "modified")
				}
			}
		}
	}
	if !clean {
		if exe, err := os.Executable(); err == nil {
			if st, err := os.Stat(exe); err == nil {
				parts = append(parts, exe, fmt.Sprint(st.Size(), st.ModTime().UnixNano()))
			}
		}
	}
	return strings.Join(parts, " ")
})

// renderOutcomes writes the results of the files that could be read, as
// render would their reports.
func (e *env) renderOutcomes(format string, outs []outcome) error {
	if !perFile(format) {
		var reports []*report.Report
		for _, o := range outs {
			if o.unread == nil {
				reports = append(reports, o.rep)
			}
		}
		return e.render(format, reports)
	}
	if format == "json" {
		// Always an array, one report per input (render's shape).
		var parts []string
		for _, o := range outs {
			if o.unread == nil {
				parts = append(parts, strings.TrimRight(string(o.out), "\n"))
			}
		}
		if len(parts) == 0 {
			_, err := io.WriteString(e.stdout, "[]\n")
			return err
		}
		_, err := fmt.Fprintf(e.stdout, "[\n%s\n]\n", strings.Join(parts, ",\n"))
		return err
	}
	// One write per file would be one system call per file.
	w := bufio.NewWriterSize(e.stdout, 64<<10)
	for _, o := range outs {
		if o.unread != nil {
			continue
		}
		if _, err := w.Write(o.out); err != nil {
			return err
		}
	}
	return w.Flush()
}

// perFile reports whether format renders each file on its own (and so can
// be cached file by file); the others are one document over all files.
func perFile(format string) bool {
	return format == "text" || format == "json" || format == "github"
}

// includeReader is the ReadFile for the -r includes of the requirements
// file top. A contributed requirements file must not put another file's
// text into a report that CI logs (`-r .git/config`, where checkout keeps
// its token; `-r ../.netrc`), so it opens only files inside the repository
// that holds top (the nearest directory above it with .git), or, outside
// any repository, inside top's directory. A path is judged where it leads,
// symbolic links resolved, and nothing under a .git directory is read.
// Any other path is refused with a *lockfile.IncludeRefusedError, which
// names the path and never its content. Includes are bounded like the
// files named on the command line: `-r /dev/zero` must not read forever.
//
// One reader serves one ReadRequirements call, which calls it from one
// goroutine; the root is found on its first include.
func (e *env) includeReader(top string, max int64) func(string) ([]byte, error) {
	var lexRoot, realRoot, what string
	found := false
	findRoot := func() error {
		abs, err := filepath.Abs(top)
		if err != nil {
			return err
		}
		dir := filepath.Dir(abs)
		realDir, err := filepath.EvalSymlinks(dir)
		if err != nil {
			return err
		}
		lexRoot, realRoot, what = discover.RepoRoot(dir), discover.RepoRoot(realDir), "the repository"
		if realRoot == "" {
			lexRoot, realRoot, what = dir, realDir, "the directory of "+top+" (there is no repository)"
		} else if lexRoot == "" {
			lexRoot = realRoot
		}
		found = true
		return nil
	}
	return func(p string) ([]byte, error) {
		if p == "-" {
			return nil, fmt.Errorf("an include cannot be standard input")
		}
		if !found {
			if err := findRoot(); err != nil {
				return nil, &lockfile.IncludeRefusedError{Reason: fmt.Sprintf("the directory of %s cannot be resolved (%v), so nothing it includes is read", top, err)}
			}
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		outside := &lockfile.IncludeRefusedError{Reason: fmt.Sprintf("it is outside %s (%s)", what, realRoot)}
		if within(abs, lexRoot) {
			outside.Reason = fmt.Sprintf("it leads outside %s (%s) through a symbolic link", what, realRoot)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			// A missing file is said to be missing only where the path
			// breaks off inside the root: a link out of it must not tell
			// whether what it points at exists.
			var pe *fs.PathError
			if !errors.As(err, &pe) {
				if within(abs, lexRoot) {
					return nil, fmt.Errorf("%s: %v", p, err) // a loop of links
				}
				return nil, outside
			}
			if !within(pe.Path, realRoot) {
				return nil, outside
			}
			return nil, fmt.Errorf("%s: %v", p, pe.Err)
		}
		if !within(real, realRoot) {
			return nil, outside
		}
		if inGitDir(realRoot, real) {
			return nil, &lockfile.IncludeRefusedError{Reason: "it is inside a .git directory, which holds git's own files (and the credentials a CI checkout keeps), not requirements"}
		}
		return e.readInputMax(real, max)
	}
}

// within reports whether path p (absolute, clean) is root or lies under it.
func within(p, root string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// inGitDir reports whether p, under root, has a .git directory (any case:
// macOS and Windows file systems do not tell .GIT from .git) on its way.
func inGitDir(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return false
	}
	for _, c := range strings.Split(rel, string(filepath.Separator)) {
		if strings.EqualFold(c, ".git") {
			return true
		}
	}
	return false
}
