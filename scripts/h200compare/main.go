// Command h200compare holds envguard's lists of GPU code to NVIDIA's own:
// for every library cuobjdump was run on (scripts/h200-cuobjdump-list.sh),
// the SASS and PTX entries `envguard inspect --format json` read from the
// headers against the files `cuobjdump --list-elf/--list-ptx` lists, as
// multisets, entry for entry. scripts/h200-compare.sh runs it.
//
//	h200compare PREFIX LISTS_DIR INSPECT_JSON
//	h200compare -make-lists FIXTURE_DIR LISTS_DIR
//
// The first prints one line per library that differs and a summary,
// "N libraries, M with device code, K equal, D differ", and exits 1 when D
// is not 0. The second makes a LISTS_DIR, as the H200 script writes one,
// from the NAME.cuobjdump files of native/testdata/fatbin, so the
// comparison runs where there is no cuobjdump.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("h200compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	makeLists := fs.Bool("make-lists", false, "make LISTS_DIR from the NAME.cuobjdump files of FIXTURE_DIR")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *makeLists {
		if fs.NArg() != 2 {
			fmt.Fprintln(stderr, "usage: h200compare -make-lists FIXTURE_DIR LISTS_DIR")
			return 2
		}
		if err := listsFromFixtures(fs.Arg(0), fs.Arg(1)); err != nil {
			fmt.Fprintf(stderr, "h200compare: %v\n", err)
			return 2
		}
		return 0
	}
	if fs.NArg() != 3 {
		fmt.Fprintln(stderr, "usage: h200compare PREFIX LISTS_DIR INSPECT_JSON")
		return 2
	}
	res, err := compare(fs.Arg(0), fs.Arg(1), fs.Arg(2))
	if err != nil {
		fmt.Fprintf(stderr, "h200compare: %v\n", err)
		return 2
	}
	for _, l := range res.lines {
		fmt.Fprintln(stdout, l)
	}
	fmt.Fprintf(stdout, "%d libraries, %d with device code, %d equal, %d differ\n", res.libraries, res.withCode, res.equal, res.differ)
	if res.differ > 0 {
		return 1
	}
	return 0
}

// listLine is a file cuobjdump names: "ELF file    1: x.1.sm_90a.cubin".
var listLine = regexp.MustCompile(`^(ELF|PTX) file +\d+: .*\.(sm_\d+a?)\.(?:cubin|ptx)$`)

// lists is what cuobjdump listed for one library, each name as often as
// it was listed.
type lists struct {
	sass, ptx map[string]int
}

// parseList reads a list file: cuobjdump's --list-elf output, "--- rc=N",
// its --list-ptx output, "--- rc=N" (or a fixture's .cuobjdump, which has
// no rc lines). Lines that name no file (no device code, no PTX) are
// skipped; the kind is in the line itself.
func parseList(r io.Reader) (lists, error) {
	l := lists{sass: map[string]int{}, ptx: map[string]int{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		m := listLine.FindStringSubmatch(strings.TrimRight(sc.Text(), "\r"))
		switch {
		case m == nil:
		case m[1] == "ELF":
			l.sass[m[2]]++
		default:
			l.ptx[m[2]]++
		}
	}
	return l, sc.Err()
}

// listKey is the list file's name for a library's path under the prefix:
// the path with every '/' a '%' (scripts/h200-cuobjdump-list.sh).
func listKey(rel string) string { return strings.ReplaceAll(rel, "/", "%") + ".txt" }

// report is the part of `envguard inspect --format json` read here.
type report struct {
	Libraries []struct {
		Path    string `json:"path"`
		Member  string `json:"member"`
		Entries []struct {
			Kind      string `json:"kind"`
			RawKind   int    `json:"raw_kind"`
			Cuobjdump string `json:"cuobjdump"`
			Section   string `json:"section"`
		} `json:"entries"`
	} `json:"libraries"`
	Errors []struct {
		Path    string `json:"path"`
		Message string `json:"message"`
	} `json:"errors"`
}

type result struct {
	lines                              []string
	libraries, withCode, equal, differ int
}

func compare(prefix, listsDir, inspectJSON string) (*result, error) {
	b, err := os.ReadFile(inspectJSON)
	if err != nil {
		return nil, err
	}
	var rep report
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("%s: %v", inspectJSON, err)
	}
	rel := func(p string) string {
		r, err := filepath.Rel(prefix, p)
		if err != nil {
			return p
		}
		return filepath.ToSlash(r)
	}
	type ours struct {
		l     lists
		other int
	}
	got := map[string]ours{}
	for _, lib := range rep.Libraries {
		if lib.Member != "" {
			continue
		}
		o := ours{l: lists{sass: map[string]int{}, ptx: map[string]int{}}}
		for _, e := range lib.Entries {
			if e.Section != ".nv_fatbin" {
				// __nv_relfatbin: device-link input, which cuobjdump
				// does not list and nothing loads.
				continue
			}
			switch e.Kind {
			case "sass":
				o.l.sass[e.Cuobjdump]++
			case "ptx":
				o.l.ptx[e.Cuobjdump]++
			default:
				o.other++
			}
		}
		got[rel(lib.Path)] = o
	}
	failed := map[string]string{}
	for _, e := range rep.Errors {
		failed[rel(e.Path)] = e.Message
	}

	libs, err := readLibraries(filepath.Join(listsDir, "libraries.tsv"))
	if err != nil {
		return nil, err
	}
	res := &result{libraries: len(libs)}
	seen := map[string]bool{}
	for _, r := range libs {
		seen[r] = true
		f, err := os.Open(filepath.Join(listsDir, "lists", listKey(r)))
		if err != nil {
			return nil, err
		}
		want, err := parseList(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", listKey(r), err)
		}
		o, ok := got[r]
		if len(want.sass)+len(want.ptx) > 0 || len(o.l.sass)+len(o.l.ptx)+o.other > 0 {
			res.withCode++
		}
		var diffs []string
		switch {
		case !ok && failed[r] != "":
			diffs = append(diffs, "envguard could not read it: "+failed[r])
		case !ok && (len(want.sass)+len(want.ptx) > 0):
			diffs = append(diffs, "envguard did not list it")
		}
		if ok || len(diffs) == 0 {
			diffs = append(diffs, diff("sass", o.l.sass, want.sass)...)
			diffs = append(diffs, diff("ptx", o.l.ptx, want.ptx)...)
			if o.other > 0 {
				diffs = append(diffs, fmt.Sprintf("%d entries of other kinds", o.other))
			}
		}
		if len(diffs) == 0 {
			res.equal++
			continue
		}
		res.differ++
		res.lines = append(res.lines, r+": "+strings.Join(diffs, "; "))
	}
	// Libraries envguard found that cuobjdump was not run on (not named
	// *.so*), with device code: said, not counted.
	for _, r := range slices.Sorted(maps.Keys(got)) {
		if o := got[r]; !seen[r] && len(o.l.sass)+len(o.l.ptx) > 0 {
			res.lines = append(res.lines, fmt.Sprintf("%s: not in the lists; envguard reads %d SASS and %d PTX entries", r, count(o.l.sass), count(o.l.ptx)))
		}
	}
	return res, nil
}

func count(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// diff words how two multisets of names differ, or nothing.
func diff(kind string, ours, theirs map[string]int) []string {
	var only, missing []string
	for _, k := range slices.Sorted(maps.Keys(ours)) {
		if d := ours[k] - theirs[k]; d > 0 {
			only = append(only, fmt.Sprintf("%s x%d", k, d))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(theirs)) {
		if d := theirs[k] - ours[k]; d > 0 {
			missing = append(missing, fmt.Sprintf("%s x%d", k, d))
		}
	}
	var out []string
	if len(only) > 0 {
		out = append(out, kind+" only envguard: "+strings.Join(only, ", "))
	}
	if len(missing) > 0 {
		out = append(out, kind+" only cuobjdump: "+strings.Join(missing, ", "))
	}
	return out
}

// readLibraries reads libraries.tsv: size, a tab, the path under the
// prefix.
func readLibraries(p string) ([]string, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" {
			continue
		}
		_, rel, ok := strings.Cut(line, "\t")
		if !ok || rel == "" {
			return nil, fmt.Errorf("%s:%d: want SIZE<tab>PATH, got %q", p, n, line)
		}
		out = append(out, rel)
	}
	return out, sc.Err()
}

// listsFromFixtures writes LISTS_DIR/libraries.tsv and lists/*.txt from the
// NAME.cuobjdump beside each NAME.so of dir.
func listsFromFixtures(dir, out string) error {
	sos, err := filepath.Glob(filepath.Join(dir, "*.so"))
	if err != nil {
		return err
	}
	if len(sos) == 0 {
		return errors.New(dir + ": no *.so fixtures")
	}
	if err := os.MkdirAll(filepath.Join(out, "lists"), 0o755); err != nil {
		return err
	}
	var tsv strings.Builder
	for _, so := range sos {
		st, err := os.Stat(so)
		if err != nil {
			return err
		}
		src, err := os.ReadFile(strings.TrimSuffix(so, ".so") + ".cuobjdump")
		if err != nil {
			return err
		}
		rel := filepath.Base(so)
		fmt.Fprintf(&tsv, "%d\t%s\n", st.Size(), rel)
		if err := os.WriteFile(filepath.Join(out, "lists", listKey(rel)), src, 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(out, "libraries.tsv"), []byte(tsv.String()), 0o644)
}
