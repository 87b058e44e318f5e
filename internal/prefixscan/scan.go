// Package prefixscan reads the shared libraries of a live prefix for
// `envguard check`: it walks the prefix's site-packages (and a conda
// prefix's lib/) with native, maps each library to the package that
// installed it (dist-info RECORD files, conda-meta file lists, else the
// top-level directory under site-packages), resolves each DT_NEEDED the
// way the dynamic loader does, and keeps results in the signed cache
// (internal/cache) keyed by path, size, mtime and inode. What it returns
// is resolver.Binaries, which resolver.ApplyBinaries holds the Stack to.
//
// It sits between native and the faces: it imports native, resolver (for
// the types it fills) and internal/cache, and nothing above them.
package prefixscan

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/envguard/envguard/internal/cache"
	"github.com/envguard/envguard/native"
	"github.com/envguard/envguard/resolver"
	"github.com/envguard/envguard/resolver/kb"
)

// Options tune a scan.
type Options struct {
	// Getenv reads the process environment (LD_LIBRARY_PATH); nil reads
	// nothing.
	Getenv func(string) string
	// SysRoot is where the system's loader cache and default directories
	// are read ("" is /). A prefix checked for targets (an exported root
	// filesystem) names its root here.
	SysRoot string
	// Cache keeps native results between runs; nil reads every library.
	Cache *cache.Cache
	// MaxLibraries bounds the libraries read (0: DefaultMaxLibraries);
	// past it the rest are unread, and the verdict unknown.
	MaxLibraries int
	// BaseSites are site directories outside the prefix that its Python
	// also imports from, after its own (envspec.Env.BaseSites: a venv's
	// base interpreter with include-system-site-packages). Their
	// libraries are read too, except under a top-level name the prefix's
	// own site-packages also has, which Python takes from the prefix.
	BaseSites []string
}

// DefaultMaxLibraries is far above a real environment's count (the H200
// venv of torch 2.11 has 851 ELF shared objects).
const DefaultMaxLibraries = 20000

// maxMetaFile bounds one RECORD or conda-meta record read.
const maxMetaFile = 16 << 20

// Scan reads the shared libraries of the prefix at dir. It never fails:
// what cannot be read is listed in Unread, which leaves every target
// unknown.
func Scan(dir string, opt Options) *resolver.Binaries { return scan(dir, opt).b }

// now is the clock a run's start is read from (a test moves it).
var now = time.Now

func scan(dir string, opt Options) *scanner {
	b := &resolver.Binaries{Prefix: dir}
	s := &scanner{opt: opt, b: b, dir: dir, owners: map[string]string{}}
	if s.opt.MaxLibraries <= 0 {
		s.opt.MaxLibraries = DefaultMaxLibraries
	}
	s.start = now().UnixNano() // before anything is read: see tree.go
	if s.opt.Cache != nil {
		s.m, _ = s.opt.Cache.Load(manifestKey(dir)) // a bad manifest is empty: every file a miss
		s.tree = newTreeCache(dir, s.start, s.m.Aux())
	}
	s.conda = isDir(filepath.Join(dir, "conda-meta"))
	s.sites = sitePackages(dir)
	s.addBaseSites()
	// The owners are read while the tree is walked: neither reads what
	// the other writes (the walk cache's records of directories and files
	// are the walk's, those of RECORDs readOwners'; both record fresh reads
	// under the cache's lock), and the walk's results are asked whose they
	// are only after both are done (walk waits for owned). readOwners'
	// notes are kept apart and put first, where a run one after the other
	// put them.
	owned := make(chan []string, 1)
	go func() {
		o := &owners{}
		s.readOwners(o)
		owned <- o.unread
	}()
	s.walk(owned)
	s.resolveNeeded()
	return s
}

type scanner struct {
	opt    Options
	b      *resolver.Binaries
	dir    string
	conda  bool
	sites  []string          // site-packages directories, relative to dir
	owners map[string]string // rel path under dir → normalized package
	found  []native.Found
	// base are the sites of Options.BaseSites, relative to dir (they
	// start with ../), also in sites; shadowed are the top-level names of
	// the prefix's own sites, which hide the base's of that name.
	base     []string
	shadowed map[string]bool

	start int64           // the run's start, ns since 1970
	m     *cache.Manifest // the cache's manifest of the prefix; nil with no cache
	tree  *treeCache      // the walk cache; nil with no cache
}

// addBaseSites adds Options.BaseSites to the sites, relative to the
// prefix, and notes the top-level names the prefix's own sites hold.
func (s *scanner) addBaseSites() {
	if len(s.opt.BaseSites) == 0 {
		return
	}
	s.shadowed = map[string]bool{}
	for _, sp := range s.sites {
		ents, _ := os.ReadDir(filepath.Join(s.dir, filepath.FromSlash(sp)))
		for _, e := range ents {
			s.shadowed[e.Name()] = true
		}
	}
	for _, b := range s.opt.BaseSites {
		rel, err := filepath.Rel(s.dir, b)
		if err != nil || !isDir(b) {
			continue
		}
		rel = filepath.ToSlash(rel)
		s.sites = append(s.sites, rel)
		s.base = append(s.base, rel)
	}
}

// hidden reports a library of a base site under a top-level name the
// prefix's own sites also have.
func (s *scanner) hidden(rel string) bool {
	for _, sp := range s.base {
		if rest, ok := strings.CutPrefix(rel, sp+"/"); ok {
			top, _, _ := strings.Cut(rest, "/")
			return s.shadowed[top]
		}
	}
	return false
}

func (s *scanner) unread(format string, args ...any) {
	s.b.Unread = append(s.b.Unread, fmt.Sprintf(format, args...))
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// sitePackages lists lib/python3.*/site-packages (and lib64's, and a
// system Python's dist-packages) under dir.
func sitePackages(dir string) []string {
	var out []string
	// A venv's lib64 is often a link to lib: the same directory is walked
	// once, under the first name.
	seen := map[string]bool{}
	for _, pat := range []string{"lib/python3*/site-packages", "lib64/python3*/site-packages", "lib/python3*/dist-packages", "local/lib/python3*/dist-packages"} {
		m, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(pat)))
		for _, p := range m {
			real, err := filepath.EvalSymlinks(p)
			if err != nil {
				real = p
			}
			if seen[real] {
				continue
			}
			if rel, err := filepath.Rel(dir, p); err == nil && isDir(p) {
				seen[real] = true
				out = append(out, filepath.ToSlash(rel))
			}
		}
	}
	sort.Strings(out)
	return out
}

// owners is what readOwners fills: s.owners (read by nothing else until
// it is done) and its own notes.
type owners struct {
	unread []string
}

func (o *owners) note(format string, args ...any) {
	o.unread = append(o.unread, fmt.Sprintf(format, args...))
}

// readOwners reads which package installed which file: conda-meta's
// "files" (relative to the prefix), then each dist-info's RECORD (relative
// to its site-packages), which wins where both list a file. Only the files
// a walk may find (native.MaybeELF) are kept: a library's owner is all
// that is asked, and torch's RECORD alone lists some 15,000 headers and
// sources.
func (s *scanner) readOwners(o *owners) {
	if s.conda {
		recs, _ := filepath.Glob(filepath.Join(s.dir, "conda-meta", "*.json"))
		for _, r := range recs {
			s.readMeta(o, r, func() (string, []string, error) {
				var meta struct {
					Name  string   `json:"name"`
					Files []string `json:"files"`
				}
				data, err := readBounded(r)
				if err == nil {
					err = json.Unmarshal(data, &meta)
				}
				if err != nil {
					return "", nil, err
				}
				var files []string
				for _, f := range meta.Files {
					if f = path.Clean(f); native.MaybeELF(f) {
						files = append(files, f)
					}
				}
				return kb.NormalizeName(meta.Name), files, nil
			})
		}
	}
	for _, sp := range s.sites {
		recs, _ := filepath.Glob(filepath.Join(s.dir, filepath.FromSlash(sp), "*.dist-info", "RECORD"))
		for _, r := range recs {
			s.readMeta(o, r, func() (string, []string, error) {
				files, err := readRecord(r, sp)
				return distName(filepath.Base(filepath.Dir(r))), files, err
			})
		}
	}
}

// readMeta adds the owners one record lists: from the walk cache where
// the record's key holds, else read.
func (s *scanner) readMeta(o *owners, p string, read func() (string, []string, error)) {
	key, err := statKey(p)
	if err != nil {
		o.note("%s: %v", p, err)
		return
	}
	var r *metaRec
	ok := false
	if s.tree != nil {
		r, ok = s.tree.meta(p, key)
	}
	if !ok {
		name, files, err := read()
		if err != nil {
			o.note("%s: %v", p, err)
			return
		}
		r = &metaRec{name: name, files: files}
		if s.tree != nil {
			s.tree.keepMeta(p, key, name, files)
		}
	}
	for _, f := range r.files {
		s.owners[f] = r.name
	}
}

// distName is the normalized name of a dist-info directory
// (flash_attn-2.7.4.post1.dist-info → flash-attn).
func distName(di string) string {
	n := strings.TrimSuffix(di, ".dist-info")
	if i := strings.IndexByte(n, '-'); i > 0 {
		n = n[:i]
	}
	return kb.NormalizeName(n)
}

// readRecord lists the files of a RECORD that may be ELF, relative to the
// prefix.
func readRecord(p, site string) ([]string, error) {
	data, err := readBounded(p)
	if err != nil {
		return nil, err
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	var files []string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		if len(rec) == 0 || rec[0] == "" || !native.MaybeELF(rec[0]) {
			continue
		}
		rel := path.Clean(path.Join(site, filepath.ToSlash(rec[0])))
		if path.IsAbs(rel) || (strings.HasPrefix(rel, "../") && !strings.HasPrefix(rel, site+"/")) {
			// outside the prefix, or, for a base site, outside it
			continue
		}
		files = append(files, rel)
	}
}

func readBounded(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// A record over the bound is refused by its size, before a byte of it
	// is read.
	if st, err := f.Stat(); err != nil {
		return nil, err
	} else if st.Size() > maxMetaFile {
		return nil, fmt.Errorf("%d bytes, more than the %d read", st.Size(), maxMetaFile)
	}
	b, err := io.ReadAll(io.LimitReader(bufio.NewReader(f), maxMetaFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxMetaFile {
		return nil, fmt.Errorf("more than %d bytes", maxMetaFile)
	}
	return b, nil
}

// roots are the directories walked: a conda prefix's lib/ (which holds its
// site-packages), else each site-packages.
func (s *scanner) roots() []string {
	if s.conda && isDir(filepath.Join(s.dir, "lib")) {
		return append([]string{"lib"}, s.base...)
	}
	return s.sites
}

var errTooMany = errors.New("too many libraries")

func (s *scanner) walk(owned <-chan []string) {
	for _, root := range s.roots() {
		var wc native.WalkCache
		if s.tree != nil {
			wc = s.tree
		}
		err := native.WalkCached(filepath.Join(s.dir, filepath.FromSlash(root)), wc, func(f native.Found) error {
			if f.Type != "shared" || (s.base != nil && s.hidden(s.rel(f.Path))) {
				return nil
			}
			if len(s.found) >= s.opt.MaxLibraries {
				return errTooMany
			}
			s.found = append(s.found, f)
			return nil
		})
		switch {
		case errors.Is(err, errTooMany):
			s.unread("%s: more than %d shared libraries; the rest were not read", root, s.opt.MaxLibraries)
		case err != nil:
			s.unread("%v", err)
		}
	}
	s.b.Unread = append(<-owned, s.b.Unread...)
	libs := s.readAll()
	for i, f := range s.found {
		if libs[i].lib == nil {
			continue
		}
		rel := s.rel(f.Path)
		s.b.Libraries = append(s.b.Libraries, resolver.BinaryLibrary{Rel: rel, Package: s.ownerOf(rel), Lib: libs[i].lib, TorchExports: libs[i].exports})
	}
}

func (s *scanner) rel(p string) string {
	r, err := filepath.Rel(s.dir, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(r)
}

// ownerOf names the package of a library: its record's, else the
// top-level directory under site-packages (torch/lib/x.so → torch; a
// top-level module flash_attn_2_cuda.so → flash-attn-2-cuda, which a
// RECORD normally names first).
func (s *scanner) ownerOf(rel string) string {
	if n, ok := s.owners[rel]; ok {
		return n
	}
	for _, sp := range s.sites {
		if rest, ok := strings.CutPrefix(rel, sp+"/"); ok {
			top, _, _ := strings.Cut(rest, "/")
			top = strings.TrimSuffix(top, ".libs")
			if i := strings.IndexByte(top, '.'); i > 0 {
				top = top[:i]
			}
			return kb.NormalizeName(top)
		}
	}
	return ""
}

// needsSymbols reports a library whose dynamic symbols EG211 reads: torch's
// own C++ libraries (their exports) and every library that needs them
// (their imports).
func needsSymbols(owner string, l *native.Library) bool {
	base := path.Base(l.Path)
	if owner == "torch" || owner == "pytorch" || owner == "libtorch" {
		if strings.HasPrefix(base, "libtorch") || strings.HasPrefix(base, "libc10") || strings.HasPrefix(base, "_C.") {
			return true
		}
	}
	for _, n := range l.Needed {
		if strings.HasPrefix(n, "libc10") || strings.HasPrefix(n, "libtorch") {
			return true
		}
	}
	return false
}

// torchNamespace reports a symbol in torch's C++ namespaces: only those
// are judged, and libtorch_cpu alone exports a hundred thousand.
func torchNamespace(name []byte) bool {
	for _, p := range resolver.TorchSymbolPrefixes {
		if len(name) >= len(p) && string(name[:len(p)]) == p {
			return true
		}
	}
	return false
}
