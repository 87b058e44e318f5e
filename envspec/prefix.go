package envspec

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
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/internal/filekind"
)

// ReadPrefix reads an installed environment: a conda prefix (conda-meta/*.json)
// or a virtual environment (pyvenv.cfg), with the Python distributions in its
// site-packages and the installed torch's version.py. It reads only small
// metadata files (never RECORD or the conda file lists' contents beyond the
// few keys it needs), so a prefix of hundreds of packages reads in
// milliseconds.
func ReadPrefix(dir string) (*Env, error) { return ReadPrefixIn(dir, "") }

// ReadPrefixIn is ReadPrefix for a prefix of the root file system at root
// (an exported image, check --sysroot): the absolute paths its files name
// (a venv's base interpreter) are taken under root. "" is /.
func ReadPrefixIn(dir, root string) (*Env, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("read prefix: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("read prefix: %s is a file, not an environment directory", dir)
	}
	env := &Env{File: dir, Kind: KindPrefix}
	meta := filepath.Join(dir, "conda-meta")
	isConda := isDir(meta)
	cfg := filepath.Join(dir, "pyvenv.cfg")
	isVenv := isFile(cfg)
	sys := ""
	if !isConda && !isVenv {
		// A system Python (/usr, /usr/local: NGC and Docker images, `pip
		// install torch` into the system) has neither; its standard library
		// says it is a Python prefix, and its version.
		if sys = systemPython(dir); sys == "" {
			return nil, fmt.Errorf("read prefix: %s is neither a conda environment (no conda-meta/ directory), a virtual environment (no pyvenv.cfg) nor a system Python prefix (no lib/python3.X/os.py)", dir)
		}
		env.PythonVersion = sys
	}
	condaNames := map[string]bool{}
	if isConda {
		if err := readCondaMeta(env, meta, condaNames); err != nil {
			return nil, err
		}
	}
	if !isVenv {
		// There, but not a file: whether this is a venv, and of which
		// Python, is not known.
		if st, err := os.Stat(cfg); err == nil {
			env.Notes = append(env.Notes, fmt.Sprintf("%s left out: it is %s, not a regular file", cfg, filekind.Of(st.Mode())))
		} else if !errors.Is(err, fs.ErrNotExist) {
			env.Notes = append(env.Notes, fmt.Sprintf("%s left out: it %s", cfg, describe(err)))
		}
	}
	var venv pyvenvCfg
	if isVenv {
		venv, err = readPyvenvCfg(cfg)
		if err != nil {
			env.Notes = append(env.Notes, fmt.Sprintf("%s left out: it %s", cfg, describe(err)))
		} else if venv.Version != "" {
			env.PythonVersion = venv.Version
		}
	}
	sites := sitePackages(dir)
	if sys != "" {
		sites = systemSitePackages(dir)
	}
	seen := &siteSeen{names: map[string]bool{}}
	for _, sp := range sites {
		readSitePackages(env, sp, condaNames, seen)
	}
	if venv.SystemSite {
		// include-system-site-packages = true: the base interpreter's
		// site-packages come after the venv's on sys.path, so `import
		// torch` finds the base's torch unless the venv has its own, and
		// a distribution of the venv hides the base's of that name.
		base, baseSites := venvBaseSites(venv, dir, root)
		if base == "" {
			env.Notes = append(env.Notes, fmt.Sprintf("%s says include-system-site-packages = true, but names no base interpreter (no home or base-prefix key): the base's packages were not read", cfg))
		} else if len(baseSites) == 0 {
			env.Notes = append(env.Notes, fmt.Sprintf("%s says include-system-site-packages = true, but the base interpreter's prefix %s has no site-packages or dist-packages for Python %s: the base's packages were not read", cfg, base, orUnknown(majorMinorOf(env.PythonVersion))))
		}
		venvNames := seen.names
		seen.names = map[string]bool{}
		for n := range venvNames {
			seen.names[n] = true
		}
		seen.shadow = venvNames
		env.BaseSites = baseSites
		// A conda base (a venv made from a conda environment's python):
		// what conda installed there is the environment's too, less what
		// the venv's own packages hide.
		baseConda := map[string]bool{}
		if meta := filepath.Join(base, "conda-meta"); base != "" && isDir(meta) {
			scratch := &Env{}
			if err := readCondaMeta(scratch, meta, baseConda); err != nil {
				env.Notes = append(env.Notes, fmt.Sprintf("%s left out: %v", meta, err))
			}
			env.Notes = append(env.Notes, scratch.Notes...)
			for _, d := range scratch.Deps {
				n := d.Installed.Name
				if venvNames[NormalizePipName(n)] || (seen.torch && (n == "pytorch" || n == "pytorch-cpu" || n == "pytorch-gpu")) {
					continue
				}
				env.Deps = append(env.Deps, d)
			}
			if env.Platform == "" {
				env.Platform = scratch.Platform
			}
		}
		for _, sp := range baseSites {
			readSitePackages(env, sp, baseConda, seen)
		}
	}
	env.Notes = boundNotes(env.Notes)
	return env, nil
}

func orUnknown(s string) string {
	if s == "" {
		return "(version unknown)"
	}
	return s
}

// majorMinorOf cuts 3.11.4 to 3.11.
func majorMinorOf(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return ""
	}
	return parts[0] + "." + parts[1]
}

// pyvenvCfg is what envguard reads of a venv's pyvenv.cfg.
type pyvenvCfg struct {
	// Version is the interpreter's version (3.11.4) from `version`
	// (venv, virtualenv) or `version_info` (uv: 3.12.1.final.0, cut to
	// its numbers); "" where it names none.
	Version string
	// Home is the directory of the base interpreter (`home`), BasePrefix
	// virtualenv's `base-prefix`.
	Home, BasePrefix string
	// SystemSite is include-system-site-packages = true.
	SystemSite bool
}

// Compiled on first use (sync.OnceValue): Go runs every linked package's
// initialisation on every CLI start, and most runs need few of these.
var pyvenvVersionRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\d+\.\d+(?:\.\d+)?`)
})

// maxPathBytes bounds a path read from pyvenv.cfg (Linux's PATH_MAX).
const maxPathBytes = 4096

// parsePyvenvCfg reads pyvenv.cfg as Python's site module does: each line
// with a '=' is a key (case-insensitive, trimmed) and a value (trimmed);
// other lines are ignored, and include-system-site-packages is on only
// for "true" in any case. The first `version` or `version_info` gives the
// version. The error (a phrase, see describe) says which value is longer
// than any real one.
func parsePyvenvCfg(data []byte) (pyvenvCfg, error) {
	var c pyvenvCfg
	for _, line := range strings.Split(string(data), "\n") {
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key, value = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(value)
		switch key {
		case "version", "version_info":
			if c.Version != "" {
				continue
			}
			v := pyvenvVersionRe().FindString(value)
			if len(v) > maxVersionBytes {
				return c, fmt.Errorf("gives a version of %d bytes, over the limit of %d", len(v), maxVersionBytes)
			}
			c.Version = v
		case "home", "base-prefix":
			if len(value) > maxPathBytes {
				return c, fmt.Errorf("gives a %s of %d bytes, over the limit of %d", key, len(value), maxPathBytes)
			}
			if strings.ContainsRune(value, 0) {
				return c, fmt.Errorf("gives a %s with a NUL byte", key)
			}
			if key == "home" {
				c.Home = value
			} else {
				c.BasePrefix = value
			}
		case "include-system-site-packages":
			c.SystemSite = strings.EqualFold(value, "true")
		}
	}
	return c, nil
}

// readPyvenvCfg reads and parses a venv's pyvenv.cfg; on a parse error
// it returns what was read before the bad line too, which ReadPrefixIn
// keeps (with a note).
func readPyvenvCfg(cfg string) (pyvenvCfg, error) {
	data, err := readSmall(cfg, maxSmallFile)
	if err != nil {
		return pyvenvCfg{}, err
	}
	return parsePyvenvCfg(data)
}

// BaseSitesIn returns, of what ReadPrefixIn(dir, root) reads, only what a
// walk of the prefix's libraries needs to start: whether dir is an
// environment ReadPrefixIn takes (a conda prefix, a venv or a system
// Python prefix; reading it may still fail), and the Env.BaseSites it
// would give. check walks the libraries while the rest of the metadata
// is read; both come from the same pyvenv.cfg read by the same code.
func BaseSitesIn(dir, root string) (sites []string, isPrefix bool) {
	if !isDir(dir) {
		return nil, false
	}
	cfg := filepath.Join(dir, "pyvenv.cfg")
	if !isFile(cfg) {
		return nil, isDir(filepath.Join(dir, "conda-meta")) || systemPython(dir) != ""
	}
	venv, _ := readPyvenvCfg(cfg) // a bad line: what came before it, as ReadPrefixIn keeps
	if !venv.SystemSite {
		return nil, true
	}
	_, sites = venvBaseSites(venv, dir, root)
	return sites, true
}

// venvBaseSites finds the base interpreter's prefix of a venv and its
// site directories for the venv's Python, in sys.path order: virtualenv's
// base-prefix, else the parent of home when home is a bin directory (the
// interpreter's directory, as venv writes it), else home itself (Windows
// writes the prefix). A relative path is taken from the venv's directory.
// The sites are the base's lib/pythonX.Y/site-packages and, for a Debian
// Python, local/lib/pythonX.Y/dist-packages, lib/python3/dist-packages and
// lib/pythonX.Y/dist-packages.
func venvBaseSites(c pyvenvCfg, dir, root string) (base string, sites []string) {
	switch {
	case c.BasePrefix != "":
		base = c.BasePrefix
	case c.Home != "":
		base = c.Home
		if b := filepath.Base(filepath.Clean(base)); b == "bin" || strings.EqualFold(b, "Scripts") {
			base = filepath.Dir(filepath.Clean(base))
		}
	default:
		return "", nil
	}
	if !filepath.IsAbs(base) {
		base = filepath.Join(dir, base)
	} else if root != "" {
		base = filepath.Join(root, base)
	}
	base = filepath.Clean(base)
	py := majorMinorOf(c.Version)
	var cands []string
	if py != "" {
		cands = append(cands, filepath.Join(base, "local", "lib", "python"+py, "dist-packages"))
	}
	cands = append(cands, filepath.Join(base, "lib", "python3", "dist-packages"))
	if py != "" {
		cands = append(cands,
			filepath.Join(base, "lib", "python"+py, "dist-packages"),
			filepath.Join(base, "lib", "python"+py, "site-packages"))
	} else {
		m, _ := filepath.Glob(filepath.Join(base, "lib", "python3.*", "site-packages"))
		sort.Strings(m)
		cands = append(cands, m...)
	}
	cands = append(cands, filepath.Join(base, "Lib", "site-packages"))
	seen := map[string]bool{}
	for _, p := range cands {
		real, err := filepath.EvalSymlinks(p)
		if err != nil || seen[real] || !isDir(p) {
			continue
		}
		seen[real] = true
		sites = append(sites, p)
	}
	return base, sites
}

// siteSeen is what the site directories read so far hold: the normalised
// names of their distributions, and whether one had a torch. shadow holds
// the names of a venv's own distributions while its base's are read: a
// base distribution of such a name is hidden.
type siteSeen struct {
	names  map[string]bool
	shadow map[string]bool
	torch  bool
}

// systemDist says the site directory is the system package manager's: a
// Debian dist-packages outside /usr/local (where Debian's pip installs).
func systemDist(sp string) bool {
	return filepath.Base(sp) == "dist-packages" && !strings.Contains(filepath.ToSlash(sp), "/local/lib/")
}

// Bounds on the notes of one prefix: each names a path and why it was
// left out, and a prefix of 100,000 unreadable records needs no 100,000
// lines to say that it could not be read.
const (
	maxNotes     = 50
	maxNoteBytes = 1024
)

func boundNotes(notes []string) []string {
	for i, n := range notes {
		notes[i] = clipString(n, maxNoteBytes)
	}
	if len(notes) > maxNotes {
		more := len(notes) - (maxNotes - 1)
		notes = append(notes[:maxNotes-1], fmt.Sprintf("and %d more left out", more))
	}
	return notes
}

// clipString cuts s to at most max bytes, on a rune boundary, marking the
// cut with an ellipsis.
func clipString(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max - len(Ellipsis)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + Ellipsis
}

// systemPython returns the version (3.10) of the Python whose standard
// library is under dir/lib, or "" when there is none (or several, which no
// prefix a single interpreter reports has).
func systemPython(dir string) string {
	libs, _ := filepath.Glob(filepath.Join(dir, "lib", "python3.*", "os.py"))
	if len(libs) != 1 {
		return ""
	}
	return strings.TrimPrefix(filepath.Base(filepath.Dir(libs[0])), "python")
}

// systemSitePackages lists where a system Python's packages live:
// site-packages (upstream builds, Fedora, the python Docker images) and
// Debian's dist-packages, both versioned and the shared lib/python3 one;
// for /usr also /usr/local's, where Debian's pip installs (NGC images put
// torch there).
func systemSitePackages(dir string) []string {
	var out []string
	roots := []string{dir}
	if filepath.Clean(dir) == "/usr" || filepath.Base(dir) == "usr" {
		roots = append(roots, filepath.Join(dir, "local"))
	}
	for _, r := range roots {
		for _, pat := range []string{"python3*/site-packages", "python3*/dist-packages"} {
			m, _ := filepath.Glob(filepath.Join(r, "lib", pat))
			out = append(out, m...)
		}
	}
	sort.Strings(out)
	return out
}

func isDir(p string) bool  { st, err := os.Stat(p); return err == nil && st.IsDir() }
func isFile(p string) bool { st, err := os.Stat(p); return err == nil && st.Mode().IsRegular() }

// Bounds on what one file of a prefix may cost. A conda-meta record of a
// large package lists its files, each with its hash, and runs to megabytes
// (pytorch's to several); the other files read are a few lines.
const (
	maxMetaFile  = 64 << 20
	maxSmallFile = 1 << 20
	// maxMetaDecode bounds a record not in conda's indented layout, which
	// encoding/json decodes whole, at a cost and with allocations that
	// follow its size; conda, mamba and pixi write indented records, so
	// only a hand-made one is decoded this way.
	maxMetaDecode = 4 << 20
	// maxHeader bounds the header of a METADATA file read for its Name and
	// Version (the long description after it is never read).
	maxHeader = 4 << 20
)

// The longest strings taken from a prefix's records. Real ones are far
// shorter; a longer one makes its record invalid (a note), so that a
// hostile record of 30 MB strings costs no more than its reading, and a
// version of a megabyte never reaches a verdict (issue 22, N11).
const (
	maxNameBytes      = 214 // npm's bound on a name; Python and conda set none, and none comes near
	maxVersionBytes   = 128 // PEP 440 and conda versions, local labels included
	maxBuildBytes     = 256
	maxSubdirBytes    = 64
	maxURLBytes       = 2048 // channel, url, direct_url.json's url
	maxInstallerBytes = 64
)

// openFile opens a prefix's file for reading without blocking, so that a
// FIFO is opened and refused at once rather than waiting for a writer; a
// variable so that tests can make a file unreadable, which chmod cannot
// when they run as root.
var openFile = func(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// readDir lists a directory of a prefix (a variable for the same reason).
var readDir = os.ReadDir

// openRegular opens path only when it is a regular file, after following
// links: a FIFO would block the reading forever, and /dev/zero (or a link
// to it) would feed it without end. The file opened is the one checked
// (fstat), so a swap between a check and the open cannot pass a FIFO.
func openRegular(path string) (*os.File, int64, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("is %s, not a regular file", filekind.Of(st.Mode()))
	}
	return f, st.Size(), nil
}

// describe says why a file of a prefix was not read, as a phrase whose
// subject is the file ("is a FIFO, not a regular file"): the readers' own
// errors are such phrases, and the system's say what the call met, the
// path being the note's already.
func describe(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return "could not be read: " + pe.Err.Error()
	}
	return err.Error()
}

// readSmall reads a regular file of at most max bytes.
func readSmall(path string, max int64) ([]byte, error) {
	f, size, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > max {
		return nil, fmt.Errorf("is larger than %d bytes", max)
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(b)) > max {
		err = fmt.Errorf("is larger than %d bytes", max)
	}
	return b, err
}

// condaMetaRecord holds the keys of a conda-meta record envguard uses.
type condaMetaRecord struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Build   string `json:"build"`
	Channel string `json:"channel"`
	Subdir  string `json:"subdir"`
	URL     string `json:"url"`
	// long names a key whose value fastCondaMeta found too long to
	// decode; the record is then invalid.
	long string
}

// tooLong says which of rec's strings passes its bound, if one does.
func (rec *condaMetaRecord) tooLong() error {
	if rec.long != "" {
		return fmt.Errorf("its %s is longer than %d bytes", rec.long, condaLimit(rec.long))
	}
	for _, f := range []struct {
		key, v string
	}{{"name", rec.Name}, {"version", rec.Version}, {"build", rec.Build}, {"channel", rec.Channel}, {"subdir", rec.Subdir}, {"url", rec.URL}} {
		if n := condaLimit(f.key); len(f.v) > n {
			return fmt.Errorf("its %s is %d bytes, over the limit of %d", f.key, len(f.v), n)
		}
	}
	return nil
}

// condaLimit is the longest value of a conda-meta key that is read.
func condaLimit(key string) int {
	switch key {
	case "name":
		return maxNameBytes
	case "version":
		return maxVersionBytes
	case "build":
		return maxBuildBytes
	case "subdir":
		return maxSubdirBytes
	}
	return maxURLBytes
}

func readCondaMeta(env *Env, meta string, condaNames map[string]bool) error {
	entries, err := os.ReadDir(meta)
	if err != nil {
		return fmt.Errorf("read prefix: %w", err)
	}
	var buf []byte // reused: records are read one at a time and not kept
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		path := filepath.Join(meta, e.Name())
		data, err := readInto(&buf, path)
		if err != nil {
			env.Notes = append(env.Notes, fmt.Sprintf("conda-meta record %s left out: it %s", path, describe(err)))
			continue
		}
		rec, ok := fastCondaMeta(data)
		if !ok {
			if len(data) > maxMetaDecode {
				env.Notes = append(env.Notes, fmt.Sprintf("conda-meta record %s left out: it is not in conda's layout, and at %d bytes over the limit of %d for decoding one that is not", path, len(data), maxMetaDecode))
				continue
			}
			rec = condaMetaRecord{}
			if json.Unmarshal(data, &rec) != nil || rec.Name == "" {
				env.Notes = append(env.Notes, fmt.Sprintf("conda-meta record %s left out: not a package record (no JSON object with a name)", path))
				continue
			}
		}
		if err := rec.tooLong(); err != nil {
			env.Notes = append(env.Notes, fmt.Sprintf("conda-meta record %s left out: %v", path, err))
			continue
		}
		if rec.Subdir == "" || rec.Channel == "" {
			// Older records lack subdir; the URL has both.
			if in, err := ParsePackageURL(rec.URL); err == nil {
				if rec.Subdir == "" {
					rec.Subdir = in.Subdir
				}
				if rec.Channel == "" {
					rec.Channel = in.Channel
				}
			}
		}
		in := &Installed{Name: rec.Name, Version: rec.Version, Build: rec.Build,
			Channel: channelName(rec.Channel), Subdir: rec.Subdir, Installer: "conda", Path: path}
		raw := rec.Name + "==" + rec.Version + "=" + rec.Build
		env.Deps = append(env.Deps, &CondaDep{
			Raw:       String{Value: raw, Pos: finding.Pos{File: path}},
			Spec:      PinnedSpec(in),
			Installed: in,
		})
		condaNames[NormalizePipName(rec.Name)] = true
		if rec.Name == "python" {
			env.PythonVersion = rec.Version
		}
		if env.Platform == "" && rec.Subdir != "" && rec.Subdir != "noarch" {
			env.Platform = rec.Subdir
		}
	}
	sort.Slice(env.Deps, func(i, j int) bool { return env.Deps[i].Installed.Name < env.Deps[j].Installed.Name })
	return nil
}

// readInto reads a file into *buf, growing it as needed.
func readInto(buf *[]byte, path string) ([]byte, error) {
	f, size, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > maxMetaFile {
		return nil, fmt.Errorf("is larger than %d bytes", maxMetaFile)
	}
	n := int(size) + 1
	if cap(*buf) < n {
		*buf = make([]byte, 0, n+n/4)
	}
	b := (*buf)[:0]
	for {
		m, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+m]
		if err != nil || m == 0 {
			break
		}
		if len(b) > maxMetaFile {
			return nil, fmt.Errorf("grew past %d bytes while it was read", maxMetaFile)
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
	*buf = b
	return b, nil
}

// channelName shortens an anaconda.org channel URL to its name, as conda
// shows channels; other URLs stay whole.
func channelName(c string) string {
	for _, p := range []string{"https://conda.anaconda.org/", "http://conda.anaconda.org/"} {
		if rest, ok := strings.CutPrefix(c, p); ok {
			return strings.TrimSuffix(rest, "/")
		}
	}
	return c
}

// fastCondaMeta picks the few keys out of a conda-meta record without
// decoding the whole of it: records list every file of the package and run
// to hundreds of kilobytes. They are written indented, so a top-level key
// is a line starting with the first key's indentation and a quote, and one
// pass from key line to key line reads them all. It reports false
// when the layout is not that one (the caller then decodes the record).
func fastCondaMeta(data []byte) (condaMetaRecord, bool) {
	var rec condaMetaRecord
	// The indentation of the first key is that of every top-level key
	// (two spaces from conda, four from some other clients).
	nl := bytes.IndexByte(data, '\n')
	if nl < 0 {
		return rec, false
	}
	ind := nl + 1
	for ind < len(data) && data[ind] == ' ' {
		ind++
	}
	if ind == nl+1 || ind >= len(data) || data[ind] != '"' {
		return rec, false
	}
	needle := data[nl : ind+1]
	for i := 0; ; {
		j := bytes.Index(data[i:], needle)
		if j < 0 {
			break
		}
		i += j + len(needle)
		k := bytes.IndexByte(data[i:], '"')
		if k < 0 {
			break
		}
		key := data[i : i+k]
		var dst *string
		switch string(key) {
		case "name":
			dst = &rec.Name
		case "version":
			dst = &rec.Version
		case "build":
			dst = &rec.Build
		case "channel":
			dst = &rec.Channel
		case "subdir":
			dst = &rec.Subdir
		case "url":
			dst = &rec.URL
		default:
			continue
		}
		v := bytes.TrimLeft(data[i+k+1:], " :")
		if len(v) == 0 || v[0] != '"' {
			continue
		}
		end := 1
		for end < len(v) && v[end] != '"' {
			if v[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(v) {
			return rec, false
		}
		// A value whose quoted form is over six times the bound (\u0000
		// is the longest escape of one byte) decodes past it: not decoded,
		// so that a value of 30 MB costs its scan and no copy.
		if end-1 > 6*condaLimit(string(key)) {
			rec.long = string(key)
			return rec, true
		}
		if err := json.Unmarshal(v[:end+1], dst); err != nil {
			return rec, false
		}
	}
	return rec, rec.Name != "" && rec.Version != ""
}

// sitePackages lists lib/python3.X/site-packages (POSIX) and
// Lib/site-packages (Windows) under dir.
func sitePackages(dir string) []string {
	var out []string
	matches, _ := filepath.Glob(filepath.Join(dir, "lib", "python3*", "site-packages"))
	out = append(out, matches...)
	if sp := filepath.Join(dir, "Lib", "site-packages"); isDir(sp) {
		// On a case-insensitive file system Lib and lib are one directory.
		dup := false
		for _, m := range out {
			if strings.EqualFold(m, sp) {
				dup = true
			}
		}
		if !dup {
			out = append(out, sp)
		}
	}
	sort.Strings(out)
	return out
}

// readSitePackages reads the distributions and torch in sp. What cannot be
// read is a note, never a silence: a site-packages that cannot be listed
// hides every pip package and torch, and check's verdict, which would then
// judge what is left, must say it could not see them (issue 22, N10).
func readSitePackages(env *Env, sp string, condaNames map[string]bool, seen *siteSeen) {
	entries, err := readDir(sp)
	if err != nil {
		why := err
		var pe *fs.PathError
		if errors.As(err, &pe) {
			why = pe.Err
		}
		env.Notes = append(env.Notes, fmt.Sprintf("%s left out: it could not be listed: %v", sp, why))
		return
	}
	system := systemDist(sp)
	var torch *TorchInfo
	var torchDist *PipDep
	for _, e := range entries {
		name := e.Name()
		switch {
		case e.IsDir() && strings.HasSuffix(name, ".dist-info"):
			d := readDistInfo(env, filepath.Join(sp, name), condaNames, system)
			if d == nil {
				continue
			}
			norm := d.Line.Req.Normalized
			if seen.shadow[norm] {
				continue // the venv's own distribution of that name wins
			}
			seen.names[norm] = true
			env.Pip = append(env.Pip, d)
			if norm == "torch" {
				torchDist = d
			}
		case e.IsDir() && name == "torch":
			if seen.shadow != nil && seen.torch {
				continue // the venv's torch is the one imported
			}
			path := filepath.Join(sp, name, "version.py")
			t, err := readTorchVersion(path)
			if err != nil {
				env.Notes = append(env.Notes, fmt.Sprintf("%s left out: it %s", path, describe(err)))
			} else if t != nil {
				torch = t
			}
		}
	}
	if torch != nil {
		// Who installed torch: its distribution's record where this
		// directory has one, else the directory's owner.
		if torchDist != nil {
			torch.System = torchDist.Installed.System
		} else if system {
			torch.System = SystemDebian
		}
		env.Torch = torch
		seen.torch = true
	}
}

// SystemDebian is Installed.System for Debian's package manager (dpkg, apt),
// whose Python packages lie in dist-packages.
const SystemDebian = "debian"

// readDistInfo reads a .dist-info directory. It returns nil for a package
// conda installed: conda writes INSTALLER "conda" into the metadata of the
// Python packages it links, and older conda packages carry no INSTALLER at
// all; listing those as pip installs would invent pip/conda mixes.
func readDistInfo(env *Env, di string, condaNames map[string]bool, system bool) *PipDep {
	meta := filepath.Join(di, "METADATA")
	name, version, err := readMetadataHeader(meta)
	if err != nil {
		// A dist-info without METADATA is no distribution pip would list;
		// one whose METADATA is there but cannot be read hides a package.
		if !errors.Is(err, fs.ErrNotExist) {
			env.Notes = append(env.Notes, fmt.Sprintf("%s left out: its METADATA %s", di, describe(err)))
		}
		return nil
	}
	installer := ""
	if b, err := readSmall(filepath.Join(di, "INSTALLER"), maxSmallFile); err == nil {
		installer = strings.TrimSpace(string(b))
		if len(installer) > maxInstallerBytes {
			env.Notes = append(env.Notes, fmt.Sprintf("%s left out: its INSTALLER is %d bytes, over the limit of %d", di, len(installer), maxInstallerBytes))
			return nil
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		// Whether conda or pip installed it is not known.
		env.Notes = append(env.Notes, fmt.Sprintf("%s left out: its INSTALLER %s", di, describe(err)))
		return nil
	}
	norm := NormalizePipName(name)
	if installer == "conda" || (installer == "" && condaNames[norm]) {
		return nil
	}
	directURL := ""
	if b, err := readSmall(filepath.Join(di, "direct_url.json"), maxSmallFile); err == nil {
		var du struct {
			URL string `json:"url"`
		}
		if json.Unmarshal(b, &du) == nil {
			directURL = du.URL
		}
		if len(directURL) > maxURLBytes {
			env.Notes = append(env.Notes, fmt.Sprintf("%s left out: its direct_url.json's url is %d bytes, over the limit of %d", di, len(directURL), maxURLBytes))
			return nil
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		env.Notes = append(env.Notes, fmt.Sprintf("%s left out: its direct_url.json %s", di, describe(err)))
		return nil
	}
	raw := name + "==" + version
	line := &PipLine{Raw: raw, Req: &PipRequirement{
		Name: name, Normalized: norm, URL: directURL,
		Specifiers: []PipSpecifier{{Op: "==", Version: version, Span: Span{Start: len(name), End: len(raw)}}},
		NameSpan:   Span{End: len(name)}, SpecSpan: Span{Start: len(name), End: len(raw)},
	}}
	// A package of the system's package manager has an INSTALLER of
	// debian, or none in the system's dist-packages (issue 27); pip and uv
	// write their own names.
	sysPM := ""
	if installer == SystemDebian || (installer == "" && system) {
		sysPM = SystemDebian
	}
	return &PipDep{
		Raw:  String{Value: raw, Pos: finding.Pos{File: filepath.Join(di, "METADATA")}},
		Line: line,
		Installed: &Installed{Name: name, Version: version, Installer: installer,
			Path: di, DirectURL: directURL, System: sysPM},
	}
}

// readMetadataHeader reads Name and Version from the header of a METADATA
// file, stopping at the blank line that ends it (the long description after
// it can be large), and after maxHeader bytes. The error (a phrase, see
// describe) says why it names no package: it cannot be read, its header
// names none, or its name or version is longer than any real one.
func readMetadataHeader(path string) (name, version string, err error) {
	f, _, err := openRegular(path)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, maxHeader))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Name:"); ok && name == "" {
			name = strings.TrimSpace(v)
		} else if v, ok := strings.CutPrefix(line, "Version:"); ok && version == "" {
			version = strings.TrimSpace(v)
		}
		if name != "" && version != "" {
			break
		}
	}
	switch {
	case sc.Err() != nil && name == "":
		return "", "", fmt.Errorf("could not be read: %v", sc.Err())
	case name == "":
		return "", "", fmt.Errorf("names no package in its header (first %d bytes)", maxHeader)
	case len(name) > maxNameBytes:
		return "", "", fmt.Errorf("names a package of %d bytes, over the limit of %d", len(name), maxNameBytes)
	case len(version) > maxVersionBytes:
		return "", "", fmt.Errorf("gives a version of %d bytes, over the limit of %d", len(version), maxVersionBytes)
	}
	return name, version, nil
}

var (
	torchVersionRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^__version__\s*(?::\s*[\w\[\], ]+)?=\s*['"]([^'"]+)['"]`)
	})
	torchCUDARe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^cuda\s*(?::\s*[\w\[\], ]+)?=\s*(None|['"]([^'"]*)['"])`)
	})
)

// readTorchVersion reads torch/version.py: `__version__ = '2.5.1+cu124'` and
// `cuda: Optional[str] = '12.4'` (None for a CPU build). None there is no
// torch and no error; one that cannot be read, names no version or gives
// strings longer than a version is an error.
func readTorchVersion(path string) (*TorchInfo, error) {
	data, err := readSmall(path, maxSmallFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	m := torchVersionRe().FindSubmatch(data)
	if m == nil {
		return nil, errors.New("gives no __version__")
	}
	if len(m[1]) > maxVersionBytes {
		return nil, fmt.Errorf("gives a __version__ of %d bytes, over the limit of %d", len(m[1]), maxVersionBytes)
	}
	t := &TorchInfo{Version: string(m[1]), Path: path}
	if c := torchCUDARe().FindSubmatch(data); c != nil && string(c[1]) != "None" {
		if len(c[2]) > maxVersionBytes {
			return nil, fmt.Errorf("gives a cuda of %d bytes, over the limit of %d", len(c[2]), maxVersionBytes)
		}
		t.CUDA = string(c[2])
	}
	return t, nil
}
