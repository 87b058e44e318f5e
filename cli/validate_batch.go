package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/internal/cache"
	"github.com/envguard/envguard/internal/workpool"
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
// order given. Unless --no-cache, each file's rendering (text, json,
// github) is looked up in the content cache first (internal/cache) and
// stored there after. Requirements files on disk are not cached: their -r
// includes are other files the key would have to cover.
func (e *env) validateFiles(inputs []input, f validateFlags) ([]outcome, error) {
	color := false
	if f.format == "text" {
		var err error
		if color, err = e.useColor(); err != nil {
			return nil, err
		}
	}
	var c *cache.Cache
	var bases []cache.Key
	if !f.noCache && perFile(f.format) {
		c = e.openCache()
	}
	if c != nil {
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
	}
	var warnOnce sync.Once
	outs := workpool.Map(len(inputs), 0, func(i int) outcome {
		in := inputs[i]
		name, opt := in.name, in.opt
		src, err := e.readInputMax(name, f.maxSize)
		if err != nil {
			return outcome{unread: err}
		}
		isReq := name != "-" && envspec.SniffFile(name, src) == envspec.KindRequirements
		var key cache.Key
		if c != nil && !isReq {
			key = cache.NewKey().Add(bases[i][:]).AddString(in.display).Add(src).Key()
			if v, ok := c.Get(key); ok && len(v) > 0 && (v[0] == '0' || v[0] == '1') {
				return outcome{out: v[1:], fails: v[0] == '1'}
			}
		}
		var r *report.Report
		if isReq {
			// A requirements file on disk: its -r includes are read,
			// relative to it (report.Validate, which the service calls,
			// never opens files).
			env := envspec.ReadRequirements(name, src, envspec.LockOptions{Platform: opt.Platform, MaxItems: opt.Budget.MaxItems, ReadFile: func(p string) ([]byte, error) {
				// Includes are bounded like the files named on the command
				// line: `-r /dev/zero` must not read forever.
				if p == "-" {
					return nil, fmt.Errorf("an include cannot be standard input")
				}
				return e.readInputMax(p, f.maxSize)
			}})
			r = report.FromEnv(env, opt)
		} else {
			r = report.Validate(in.display, src, opt)
		}
		o := outcome{fails: r.ExitCode(in.failOn) != 0}
		if !perFile(f.format) {
			o.rep = r
			return o
		}
		var b bytes.Buffer
		switch f.format {
		case "json":
			b.Write(r.JSON())
		case "github":
			err = r.WriteGitHub(&b)
		default:
			err = r.WriteTextColor(&b, color)
		}
		if err != nil {
			// Writing to memory does not fail; a report that cannot be
			// rendered is a bug, and panics reach cli's internal-error exit.
			panic(fmt.Sprintf("rendering %s: %v", in.display, err))
		}
		o.out = b.Bytes()
		if c != nil && !isReq {
			v := append([]byte{'0'}, o.out...)
			if o.fails {
				v[0] = '1'
			}
			if err := c.Put(key, v); err != nil {
				warnOnce.Do(func() {
					fmt.Fprintf(e.stderr, "envguard: cache %s: %v; results are not being kept (--no-cache turns the cache off)\n", c.Dir(), err)
				})
			}
		}
		return o
	})
	return outs, nil
}

// openCache opens ~/.cache/envguard ($XDG_CACHE_HOME/envguard); nil where
// neither variable is set, and nil with a warning where it cannot be made.
func (e *env) openCache() *cache.Cache {
	dir := cache.Dir(e.getenv)
	if dir == "" {
		return nil
	}
	c, err := cache.Open(dir)
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
