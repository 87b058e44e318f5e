package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/internal/kbstore"
	"github.com/envguard/envguard/internal/prefixscan"
	"github.com/envguard/envguard/native"
	"github.com/envguard/envguard/resolver/kb"
)

// The learned layer: `envguard kb learn PATH...` reads the GPU code of a
// wheel, a conda package or the distributions of a prefix (what `envguard
// inspect` reads) and keeps it, one build per file, under
// learnedKBPath; stackKB stacks it as the learned layer of the knowledge base the other
// commands use, so that validating an environment that names that exact
// build decides from the learned binaries (resolver.ApplyLearned).

// loadLearned reads the learned layer.
func (e *env) loadLearned() (*kb.Learned, string, error) {
	dir := e.learnedKBPath()
	if dir == "" {
		return &kb.Learned{}, "", nil
	}
	l, err := kb.LoadLearned(dir)
	return l, dir, err
}

func kbLearnCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "learn PATH...",
		Short: "Read the GPU code of a wheel, a conda package or a prefix's distributions and keep it, so that validating that exact build is decided",
		Long: "learn reads what envguard inspect reads (each shared library's SASS, PTX, variants, compression and\n" +
			"DT_NEEDED) and keeps it as a learned build, keyed by the package's name, version, build and sha256,\n" +
			"in $XDG_DATA_HOME/envguard/learned (else ~/.local/share/envguard/learned). A PATH is a wheel (.whl),\n" +
			"a conda package (.conda, .tar.bz2), or a prefix (a conda environment or a venv), whose every\n" +
			"distribution with GPU code is learned. validate then decides from it where a file names that exact\n" +
			"build: by its sha256 (a lock file, --hash, a URL's #sha256=) or by name, version and local version or\n" +
			"build string. docs/knowledge-base.md says what is hashed.",
		Example: "  envguard kb learn dist/flash_attn-2.7.4+cu12torch2.6-cp312-cp312-linux_x86_64.whl\n" +
			"  envguard kb learn /opt/conda/pkgs/pytorch-2.5.1-cuda124_py312h1a2b3c4_303.conda\n  envguard kb learn /opt/venvs/train",
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			dir := e.learnedKBPath()
			if dir == "" {
				return usageErr("kb learn: neither XDG_DATA_HOME nor HOME is set: nowhere to keep what is learned")
			}
			failed := false
			for _, p := range args {
				builds, err := e.readBuilds(p)
				if err != nil {
					fmt.Fprintf(e.stderr, "envguard: kb learn %s: %v; nothing learned from it\n", p, err)
					failed = true
					continue
				}
				if len(builds) == 0 {
					fmt.Fprintf(e.stdout, "%s: no shared library in it carries GPU code; nothing to learn\n", p)
					continue
				}
				for i := range builds {
					if err := e.storeBuild(dir, &builds[i]); err != nil {
						fmt.Fprintf(e.stderr, "envguard: kb learn %s: %s: %v\n", p, builds[i].Key(), err)
						failed = true
					}
				}
			}
			if failed {
				return &exitError{ExitUsage, errors.New("")}
			}
			return nil
		},
	}
}

// readBuilds reads the builds PATH holds: one for a package file, one per
// distribution with GPU code for a prefix.
func (e *env) readBuilds(p string) ([]kb.LearnedBuild, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return e.prefixBuilds(abs)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s)", st.Mode().Type())
	}
	if native.PackageFormat(abs) == "" {
		return nil, errors.New("not a package (a .whl, .conda or .tar.bz2 file) or a prefix (a directory)")
	}
	b, err := e.packageBuild(abs)
	if err != nil || b == nil {
		return nil, err
	}
	return []kb.LearnedBuild{*b}, nil
}

// packageBuild learns one wheel or conda package. Its name, version and
// build are those of its file name, as installers and lock files name
// it (NAME-VERSION(-BUILD)-PY-ABI-PLATFORM.whl, NAME-VERSION-BUILD.conda);
// its sha256 is the file's. Any library that cannot be read fails the
// whole: a build learned in part would be judged by part of its code.
func (e *env) packageBuild(p string) (*kb.LearnedBuild, error) {
	base := filepath.Base(p)
	format := native.PackageFormat(base)
	b := &kb.LearnedBuild{SHA256Of: kb.LearnedHashPackage, Source: p, Learned: e.clock().UTC().Format(time.DateOnly)}
	switch format {
	case native.Wheel:
		parts := strings.Split(strings.TrimSuffix(base, base[len(base)-len(".whl"):]), "-")
		if len(parts) != 5 && len(parts) != 6 {
			return nil, fmt.Errorf("the wheel's file name %q is not NAME-VERSION(-BUILD)-PYTHON-ABI-PLATFORM.whl (PEP 427)", base)
		}
		b.Ecosystem, b.Package, b.Version = kb.LearnedPip, parts[0], parts[1]
	default:
		stem := strings.TrimSuffix(strings.TrimSuffix(base, ".conda"), ".tar.bz2")
		in, err := envspec.ParsePackageURL("file:///x/" + stem + ".conda")
		if err != nil {
			return nil, fmt.Errorf("the conda package's file name %q is not NAME-VERSION-BUILD.conda or .tar.bz2", base)
		}
		b.Ecosystem, b.Package, b.Version, b.Build = kb.LearnedConda, in.Name, in.Version, in.Build
	}
	sum, err := fileSHA256(p)
	if err != nil {
		return nil, err
	}
	b.SHA256, b.SourceSHA256 = sum, sum
	pkg, err := native.Options{}.ReadPackage(p)
	if err != nil {
		return nil, err
	}
	for _, l := range pkg.Libraries {
		if ll, ok := learnedLib(l.Member, l); ok {
			b.Libraries = append(b.Libraries, ll)
		}
	}
	if len(b.Libraries) == 0 {
		return nil, nil
	}
	return b, nil
}

// prefixBuilds learns every distribution of the prefix at dir whose
// libraries carry GPU code, as `envguard check` reads them. A conda
// package is known by the sha256 its conda-meta record gives (the package
// file's, which lock files list), else by its record's; a pip
// distribution by its dist-info RECORD's sha256 (a list of every file it
// installed and their hashes), which no lock file lists: only its name
// and version (with the local version) find it. Anything the scan could
// not read fails the whole.
func (e *env) prefixBuilds(dir string) ([]kb.LearnedBuild, error) {
	env, err := envspec.ReadPrefix(dir)
	if err != nil {
		return nil, err
	}
	if len(env.Notes) > 0 {
		return nil, fmt.Errorf("part of the prefix could not be read: %s", strings.Join(env.Notes, "; "))
	}
	bins := prefixscan.Scan(dir, prefixscan.Options{})
	if len(bins.Unread) > 0 {
		return nil, fmt.Errorf("part of the prefix could not be read: %s", strings.Join(bins.Unread, "; "))
	}
	installed := map[string]*envspec.Installed{}
	for _, d := range env.Deps {
		if d.Installed != nil {
			installed[kb.NormalizeName(d.Installed.Name)] = d.Installed
		}
	}
	for _, d := range env.Pip {
		if d.Installed != nil {
			installed[kb.NormalizeName(d.Installed.Name)] = d.Installed // a dist-info wins, as prefixscan's owners do
		}
	}
	byPkg := map[string][]kb.LearnedLibrary{}
	var order []string
	for i := range bins.Libraries {
		bl := &bins.Libraries[i]
		if bl.Package == "" || bl.Lib == nil {
			continue
		}
		ll, ok := learnedLib(bl.Rel, bl.Lib)
		if !ok {
			continue
		}
		if _, seen := byPkg[bl.Package]; !seen {
			order = append(order, bl.Package)
		}
		byPkg[bl.Package] = append(byPkg[bl.Package], ll)
	}
	var out []kb.LearnedBuild
	for _, name := range order {
		in := installed[name]
		if in == nil {
			return nil, fmt.Errorf("libraries with GPU code belong to %s, whose record names no version", name)
		}
		b := kb.LearnedBuild{Package: in.Name, Version: in.Version, Build: in.Build, Learned: e.clock().UTC().Format(time.DateOnly), Libraries: byPkg[name]}
		if in.Installer == "conda" || strings.HasSuffix(in.Path, ".json") {
			b.Ecosystem, b.Source = kb.LearnedConda, in.Path
			sum, err := fileSHA256(in.Path)
			if err != nil {
				return nil, err
			}
			b.SourceSHA256 = sum
			b.SHA256, b.SHA256Of = sum, kb.LearnedHashRecord
			if pkgSum, err := condaMetaSHA256(in.Path); err != nil {
				return nil, err
			} else if pkgSum != "" {
				b.SHA256, b.SHA256Of = pkgSum, kb.LearnedHashPackage
			}
		} else {
			rec := filepath.Join(in.Path, "RECORD")
			sum, err := fileSHA256(rec)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", name, err)
			}
			b.Ecosystem, b.Source, b.SourceSHA256, b.SHA256, b.SHA256Of = kb.LearnedPip, rec, sum, sum, kb.LearnedHashRecord
		}
		out = append(out, b)
	}
	return out, nil
}

// condaMetaSHA256 is the package file's sha256 a conda-meta record gives,
// "" where it gives none.
func condaMetaSHA256(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var rec struct {
		SHA256 string `json:"sha256"`
	}
	if err := json.NewDecoder(io.LimitReader(f, 64<<20)).Decode(&rec); err != nil {
		return "", fmt.Errorf("%s: %v", p, err)
	}
	if s := strings.ToLower(rec.SHA256); len(s) == 64 && strings.Trim(s, "0123456789abcdef") == "" {
		return s, nil
	}
	return "", nil
}

// learnedLib is one library's loaded GPU code, grouped by code and
// compression, false when it carries none.
func learnedLib(rel string, l *native.Library) (kb.LearnedLibrary, bool) {
	if !l.HasDeviceCode() {
		return kb.LearnedLibrary{}, false
	}
	type key struct {
		code native.Code
		comp native.Compression
	}
	n := map[key]int{}
	for _, en := range l.Entries {
		if en.Loaded() && en.Kind != native.Other {
			n[key{en.Code(), en.Compression}]++
		}
	}
	keys := make([]key, 0, len(n))
	for k := range n {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.code.Kind != b.code.Kind {
			return a.code.Kind == native.SASS
		}
		if a.code.Arch != b.code.Arch {
			return a.code.Arch < b.code.Arch
		}
		if a.code.Variant != b.code.Variant {
			return a.code.Variant < b.code.Variant
		}
		return a.comp < b.comp
	})
	ll := kb.LearnedLibrary{Path: path.Clean(filepath.ToSlash(rel)), Needed: l.Needed}
	for _, k := range keys {
		ll.Code = append(ll.Code, kb.LearnedCode{Code: k.code.String(), Compression: string(k.comp), Entries: n[k]})
	}
	return ll, len(ll.Code) > 0
}

func fileSHA256(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("reading %s: %v", p, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// learnedFileName is the file a build is kept in: its name and version
// for people, its sha256 for uniqueness (one build, one file).
func learnedFileName(b *kb.LearnedBuild) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '+':
				return r
			}
			return '-'
		}, s)
	}
	name := clean(kb.NormalizeName(b.Package)) + "-" + clean(b.Version)
	if len(name) > 100 {
		name = name[:100]
	}
	return name + "-" + b.SHA256[:16] + ".yaml"
}

// storeBuild keeps b in dir. A build of the same sha256 already learned
// with the same facts is left as it is (learning twice changes nothing);
// one whose facts differ (a newer envguard reads more) is replaced.
func (e *env) storeBuild(dir string, b *kb.LearnedBuild) error {
	name := learnedFileName(b)
	// One file is one build: the same bytes under another name (a renamed
	// wheel) are refused rather than learned twice, which would leave the
	// layer with a sha256 of two builds.
	if l, err := kb.LoadLearned(dir); err == nil {
		for i, old := range l.Builds {
			if old.SHA256 == b.SHA256 && filepath.Base(l.FileOf(i)) != name {
				return fmt.Errorf("sha256 %s… is already learned as %s (%s): one file is one build", b.SHA256[:12], old.Key(), l.FileOf(i))
			}
		}
	}
	if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
		if old, err := kb.DecodeLearned(filepath.Join(dir, name), data); err == nil && len(old) == 1 && sameFacts(&old[0], b) {
			fmt.Fprintf(e.stdout, "%s: already learned (%s)\n", b.Key(), filepath.Join(dir, name))
			return nil
		}
	}
	data, err := kb.EncodeLearned([]kb.LearnedBuild{*b})
	if err != nil {
		return err
	}
	// What is written is read back as the layer will read it.
	if _, err := kb.DecodeLearned(name, data); err != nil {
		return err
	}
	if err := kbstore.PutFile(dir, name, data); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: learned %s from %d %s (%s)\n", b.Key(), learnedCodeText(b), len(b.Libraries), pluralWord(len(b.Libraries), "library", "libraries"), filepath.Join(dir, name))
	return nil
}

// sameFacts compares two learnings of one build, but for when and where.
func sameFacts(a, b *kb.LearnedBuild) bool {
	x, y := *a, *b
	x.Learned, y.Learned, x.Source, y.Source = "", "", "", ""
	return reflect.DeepEqual(x, y)
}

// learnedCodeText is the union of a build's codes: "sm_80 sm_90 compute_90".
func learnedCodeText(b *kb.LearnedBuild) string {
	seen := map[string]bool{}
	var out []string
	for _, l := range b.Libraries {
		for _, c := range l.Code {
			if !seen[c.Code] {
				seen[c.Code] = true
				out = append(out, c.Code)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		si, ai, vi, _ := kb.ParseLearnedCode(out[i])
		sj, aj, vj, _ := kb.ParseLearnedCode(out[j])
		if si != sj {
			return si
		}
		if ai != aj {
			return ai < aj
		}
		return vi < vj
	})
	return strings.Join(out, " ")
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// learnedStatus is what `kb status` says of the learned layer.
type learnedStatus struct {
	Path   string `json:"path"`
	Builds int    `json:"builds"`
	Newest string `json:"newest,omitempty"`
	Error  string `json:"error,omitempty"`
}

// learnedLayerStatus reads the learned layer for `kb status`; nil when
// there is no place for one.
func (e *env) learnedLayerStatus() *learnedStatus {
	l, dir, err := e.loadLearned()
	if dir == "" {
		return nil
	}
	s := &learnedStatus{Path: dir}
	if err != nil {
		s.Error = err.Error()
		return s
	}
	st := kb.LearnedSummary(l.Builds)
	s.Builds, s.Newest = st.Builds, st.Newest
	return s
}

func writeLearnedStatus(w io.Writer, s *learnedStatus) {
	if s == nil {
		return
	}
	switch {
	case s.Error != "":
		fmt.Fprintf(w, "learned: unreadable, not used:\n%s\n", s.Error)
	case s.Builds == 0:
		fmt.Fprintf(w, "learned: none (envguard kb learn PATH adds builds)\n")
	default:
		fmt.Fprintf(w, "learned: %d %s, newest learned %s\n", s.Builds, pluralWord(s.Builds, "build", "builds"), s.Newest)
	}
	fmt.Fprintf(w, "  path: %s\n", s.Path)
}
