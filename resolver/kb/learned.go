package kb

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// LearnedBuild is one build of a package whose GPU code `envguard kb learn`
// read from its own shared libraries (native/): a wheel, a conda package or
// a distribution installed in a prefix. It is keyed by the package's name,
// version, build and the sha256 of the file it came from; its source is
// that file. Validation uses it where an environment names that exact
// build (a lock file's sha256, or name, version and build), as `envguard
// check` uses the binaries it reads.
type LearnedBuild struct {
	Package string `yaml:"package"` // the name as the package gives it: flash_attn, pytorch
	// Ecosystem is "pip" (a wheel, a dist-info) or "conda".
	Ecosystem string `yaml:"ecosystem"`
	// Version is the full version: a pip local version is part of it
	// (2.7.4.post1+cu12torch2.6cxx11abiFALSE).
	Version string `yaml:"version"`
	// Build is a conda package's build string ("" for pip).
	Build string `yaml:"build,omitempty"`
	// SHA256 is the hash the build is known by (lowercase hex), and
	// SHA256Of says of what: "package" is the package file itself (a
	// wheel, a .conda, a .tar.bz2: what lock files and --hash list),
	// "record" the installed distribution's record (its dist-info
	// RECORD), which no lock file lists, so that only name, version and
	// build find it.
	SHA256   string `yaml:"sha256"`
	SHA256Of string `yaml:"sha256_of"`
	// Source is the file the facts were read from (an absolute path: the
	// package, or the installed record), SourceSHA256 its sha256.
	Source       string `yaml:"source"`
	SourceSHA256 string `yaml:"source_sha256"`
	// Learned is the date it was read (YYYY-MM-DD).
	Learned string `yaml:"learned"`
	// Libraries are the package's shared libraries that carry GPU code.
	Libraries []LearnedLibrary `yaml:"libraries"`
	Note      string           `yaml:"note,omitempty"`
}

// LearnedLibrary is one shared library of a learned build: its loaded GPU
// code (the .nv_fatbin entries; relocatable device code is not loaded and
// not kept) and the libraries it needs.
type LearnedLibrary struct {
	// Path is the library's path inside the package, or under the
	// prefix, slash-separated.
	Path string `yaml:"path"`
	// Code groups the entries by code and compression.
	Code []LearnedCode `yaml:"code"`
	// Needed is DT_NEEDED, in the file's order.
	Needed []string `yaml:"needed,omitempty"`
}

// LearnedCode is a run of entries of one code: sm_90a, compute_120 (nvcc's
// spelling, the a/f variant included), stored one way (none, lz, zstd).
type LearnedCode struct {
	Code        string `yaml:"code"`
	Compression string `yaml:"compression"`
	Entries     int    `yaml:"entries"`
}

// Learned ecosystems and hash subjects.
const (
	LearnedPip         = "pip"
	LearnedConda       = "conda"
	LearnedHashPackage = "package"
	LearnedHashRecord  = "record"
)

// MaxLearnedEntries bounds the entries of one code in one library: the
// largest library measured (libtorch_cuda.so of torch 2.11) holds 2,789
// entries in all.
const MaxLearnedEntries = 1 << 16

var (
	learnedSHARe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{64}$`) })
	learnedCodeRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(sm|compute)_([1-9][0-9]{1,3})([af]?)$`) })
	learnedDateRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`) })
)

// ParseLearnedCode reads a code as LearnedCode spells it: whether it is
// SASS (sm_) or PTX (compute_), its architecture as 10*major+minor, and
// its variant ("", "a" or "f").
func ParseLearnedCode(s string) (sass bool, arch int, variant string, ok bool) {
	m := learnedCodeRe().FindStringSubmatch(s)
	if m == nil {
		return false, 0, "", false
	}
	arch, err := strconv.Atoi(m[2])
	if err != nil {
		return false, 0, "", false
	}
	return m[1] == "sm", arch, m[3], true
}

// Key is how the build is named in messages and file names:
// name version[=build] sha256:first-12.
func (b *LearnedBuild) Key() string {
	s := b.Package + " " + b.Version
	if b.Build != "" {
		s += "=" + b.Build
	}
	return s + " sha256:" + short(b.SHA256)
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// learnedBuilds checks learned_builds: the key's fields, hashes of 64 hex
// digits, a date, an absolute source, codes nvcc would spell, and one row
// per sha256.
func (v *validator) learnedBuilds() {
	const table = "learned_builds"
	seen := map[string]int{}
	for i, b := range v.k.LearnedBuilds {
		if strings.TrimSpace(b.Package) == "" {
			v.errf(table, i, "package is empty")
		}
		switch b.Ecosystem {
		case LearnedPip:
			if b.Build != "" {
				v.errf(table, i, "a pip build has no build string (its local version is part of version)")
			}
		case LearnedConda:
		default:
			v.errf(table, i, "ecosystem %q is not pip or conda", b.Ecosystem)
		}
		if strings.TrimSpace(b.Version) == "" {
			v.errf(table, i, "version is empty")
		}
		if !learnedSHARe().MatchString(b.SHA256) {
			v.errf(table, i, "sha256 %q is not 64 lowercase hex digits", b.SHA256)
		}
		if b.SHA256Of != LearnedHashPackage && b.SHA256Of != LearnedHashRecord {
			v.errf(table, i, "sha256_of %q is not package or record", b.SHA256Of)
		}
		if b.Source == "" || !(filepath.IsAbs(b.Source) || path.IsAbs(b.Source)) {
			v.errf(table, i, "source %q is not the absolute path of the file the facts were read from", b.Source)
		}
		if !learnedSHARe().MatchString(b.SourceSHA256) {
			v.errf(table, i, "source_sha256 %q is not 64 lowercase hex digits", b.SourceSHA256)
		}
		if !learnedDateRe().MatchString(b.Learned) {
			v.errf(table, i, "learned %q is not a date of the form 2026-11-30", b.Learned)
		}
		if len(b.Libraries) == 0 {
			v.errf(table, i, "no libraries: a build is learned only for the GPU code its libraries carry")
		}
		for j, l := range b.Libraries {
			if l.Path == "" {
				v.errf(table, i, "libraries[%d]: path is empty", j)
			}
			if len(l.Code) == 0 {
				v.errf(table, i, "libraries[%d] (%s): no code", j, l.Path)
			}
			for _, c := range l.Code {
				if _, _, _, ok := ParseLearnedCode(c.Code); !ok {
					v.errf(table, i, "libraries[%d] (%s): code %q is not sm_XY or compute_XY (with an a or f variant)", j, l.Path, c.Code)
				}
				switch c.Compression {
				case "none", "lz", "zstd":
				default:
					v.errf(table, i, "libraries[%d] (%s): compression %q of %s is not none, lz or zstd", j, l.Path, c.Compression, c.Code)
				}
				if c.Entries < 1 || c.Entries > MaxLearnedEntries {
					v.errf(table, i, "libraries[%d] (%s): %s has %d entries, not between 1 and %d", j, l.Path, c.Code, c.Entries, MaxLearnedEntries)
				}
			}
		}
		if b.SHA256 != "" {
			if prev, dup := seen[b.SHA256]; dup {
				p := v.at(table, prev)
				v.errf(table, i, "sha256 %s is learned twice (also at %s:%d)", short(b.SHA256), p.File, p.Line)
			}
			seen[b.SHA256] = i
		}
	}
}

// Learned is the learned layer: the rows of a directory of learned files,
// with where each was read.
type Learned struct {
	Builds []LearnedBuild
	pos    []pos
}

// FileOf is the file the i-th build was read from ("" when not known).
func (l *Learned) FileOf(i int) string {
	if i < 0 || i >= len(l.pos) {
		return ""
	}
	return l.pos[i].File
}

// LoadLearned reads the learned layer from dir: every *.yaml file in it
// holds learned_builds rows (and nothing else), which are validated as a
// table of their own; errors name the file and line. A directory that does
// not exist is an empty layer; one with no files is too.
func LoadLearned(dir string) (*Learned, error) {
	st, err := os.Stat(dir)
	if os.IsNotExist(err) {
		return &Learned{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("kb: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("kb: %s is not a directory", dir)
	}
	return loadLearnedFS(os.DirFS(dir), dir)
}

func loadLearnedFS(fsys fs.FS, label string) (*Learned, error) {
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	k := &KB{positions: map[string][]pos{}}
	var errs ErrorList
	for _, name := range names {
		file := filepath.Join(label, name)
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			errs = append(errs, &Error{File: file, Msg: err.Error()})
			continue
		}
		errs = append(errs, k.addLearnedFile(file, data)...)
	}
	if len(errs) == 0 {
		v := &validator{k: k}
		v.learnedBuilds()
		errs = v.errs
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return &Learned{Builds: k.LearnedBuilds, pos: k.positions["learned_builds"]}, nil
}

// DecodeLearned reads one learned file (as `kb learn` writes it) and
// validates its rows; file names it in errors.
func DecodeLearned(file string, data []byte) ([]LearnedBuild, error) {
	k := &KB{positions: map[string][]pos{}}
	errs := k.addLearnedFile(file, data)
	if len(errs) == 0 {
		v := &validator{k: k}
		v.learnedBuilds()
		errs = v.errs
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return k.LearnedBuilds, nil
}

// addLearnedFile is addFile for the learned layer: a file that sets any
// other table is an error, since learned facts are only read builds.
func (k *KB) addLearnedFile(file string, data []byte) ErrorList {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return yamlErrors(file, err)
	}
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		m := root.Content[0]
		if m.Kind != yaml.MappingNode {
			return ErrorList{{File: file, Line: m.Line, Msg: "a learned file is a mapping with one key, learned_builds"}}
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			if key := m.Content[i]; key.Value != "learned_builds" {
				return ErrorList{{File: file, Line: key.Line, Msg: fmt.Sprintf("%q: a learned file holds only learned_builds", key.Value)}}
			}
		}
	}
	return k.addFile(file, data)
}

// EncodeLearned writes rows as a learned file holds them.
func EncodeLearned(rows []LearnedBuild) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("# Written by envguard kb learn: GPU code read from the binaries of the file each row names.\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(struct {
		LearnedBuilds []LearnedBuild `yaml:"learned_builds"`
	}{rows}); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// LearnedBySHA256 finds the learned build of a file by its sha256 (hex,
// any case), where that hash is a package file's.
func (k *KB) LearnedBySHA256(sum string) (*LearnedBuild, bool) {
	sum = strings.ToLower(sum)
	for i := range k.LearnedBuilds {
		if b := &k.LearnedBuilds[i]; b.SHA256 == sum && b.SHA256Of == LearnedHashPackage {
			return b, true
		}
	}
	return nil, false
}

// LearnedStats are what `kb status` says of the learned layer.
type LearnedStats struct {
	Builds int    `json:"builds"`
	Newest string `json:"newest"` // the latest learned date, "" with no builds
}

// LearnedSummary counts rows and finds the newest learned date.
func LearnedSummary(rows []LearnedBuild) LearnedStats {
	s := LearnedStats{Builds: len(rows)}
	for _, r := range rows {
		if r.Learned > s.Newest {
			s.Newest = r.Learned
		}
	}
	return s
}
