package prefixscan

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/envguard/envguard/native"
)

// defaultDirs are the trusted directories the loader searches last
// (ld.so(8): "In the default path /lib, and then /usr/lib. (On some 64-bit
// architectures, the default paths for 64-bit shared objects are /lib64,
// and then /usr/lib64.)"), with Debian's multiarch directories, which its
// glibc adds to the same list.
var defaultDirs = []string{"/lib64", "/usr/lib64", "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib", "/usr/lib"}

// driverLibrary reports a library the NVIDIA driver installs (libcuda,
// libnvidia-ml, …): it comes with the machine's driver, which EG404 and
// EG401 judge, not with the environment, so its absence here is not EG411.
func driverLibrary(soname string) bool {
	for _, p := range []string{"libcuda.so", "libnvidia-", "libnvcuvid.so", "libnvoptix.so"} {
		if strings.HasPrefix(soname, p) {
			return true
		}
	}
	return false
}

// loader answers whether a directory holds a file, listing each directory
// once.
type loader struct {
	root  string // SysRoot for system paths
	lists map[string]map[string]bool
	cache map[string]bool // SONAMEs ld.so.cache lists for the machine
}

func (ld *loader) has(dir, name string) bool {
	l, ok := ld.lists[dir]
	if !ok {
		l = map[string]bool{}
		if ents, err := os.ReadDir(dir); err == nil {
			for _, e := range ents {
				l[e.Name()] = true
			}
		}
		ld.lists[dir] = l
	}
	return l[name]
}

// sys maps a system path under SysRoot.
func (ld *loader) sys(p string) string {
	if ld.root == "" || ld.root == "/" {
		return p
	}
	return filepath.Join(ld.root, p)
}

// resolveNeeded finds, for each library's DT_NEEDED entries, the file the
// loader would open, in ld.so(8)'s order, and records those nothing
// provides (EG411):
//
//  1. when the library has no DT_RUNPATH: its DT_RPATH, then the DT_RPATH
//     of the library that loaded it, and on up (glibc's elf/dl-load.c:
//     "First try the DT_RPATH of the dependent object that caused NAME to
//     be loaded. Then that object's dependent, and on up"); a library with
//     a DT_RUNPATH has no DT_RPATH for the loader (elf/get-dynamic-info.h:
//     "If both RUNPATH and RPATH are given, the latter is ignored");
//  2. LD_LIBRARY_PATH, from the process environment given;
//  3. DT_RUNPATH (with $ORIGIN, $LIB and $PLATFORM expanded in both, see
//     native.ExpandTokens);
//  4. libraries the environment loads first: torch preloads its CUDA
//     libraries from site-packages/nvidia/*/lib, `import torch` loads
//     torch/lib's, and conda's $PREFIX/lib is on every conda binary's path;
//  5. /etc/ld.so.cache;
//  6. the default directories.
//
// A name with a slash is a path, opened as is.
func (s *scanner) resolveNeeded() {
	ld := &loader{root: s.opt.SysRoot, lists: map[string]map[string]bool{}, cache: map[string]bool{}}
	cachePath := ld.sys("/etc/ld.so.cache")
	ents, err := readLDCache(cachePath)
	if err != nil {
		s.unread("%s: %v", cachePath, err)
	}
	machine := ""
	for _, b := range s.b.Libraries {
		if b.Lib != nil && b.Lib.Machine != "" {
			machine = b.Lib.Machine
			break
		}
	}
	want := archFlag(machine)
	for _, e := range ents {
		if want == 0 || e.Flags&0xff00 == want {
			ld.cache[e.SONAME] = true
		}
	}
	// What the environment loads first, by file name and SONAME.
	preloaded := map[string]bool{}
	for _, b := range s.b.Libraries {
		if !s.preloads(b.Rel) {
			continue
		}
		preloaded[path.Base(b.Rel)] = true
		if b.Lib != nil && b.Lib.SONAME != "" {
			preloaded[b.Lib.SONAME] = true
		}
	}
	// glibc splits LD_LIBRARY_PATH at ':' and ';'.
	var ldPath []string
	if s.opt.Getenv != nil {
		ldPath = strings.FieldsFunc(s.opt.Getenv("LD_LIBRARY_PATH"), func(r rune) bool { return r == ':' || r == ';' })
	}
	condaLib := ""
	if s.conda {
		condaLib = filepath.Join(s.dir, "lib")
	}
	chain := s.rpathChains()
	for i := range s.b.Libraries {
		b := &s.b.Libraries[i]
		l := b.Lib
		if l == nil {
			continue
		}
		// The RPATH chain is walked only for a name nothing else provides:
		// whether a library is found does not depend on the order of the
		// places searched, and most are found without it.
		var rpath, runpath []string
		chained := len(l.RUNPATH) != 0
		if chained {
			runpath = native.ExpandTokens(l.RUNPATH, l.Origin(), l.Machine)
		}
		for _, n := range l.Needed {
			if driverLibrary(n) || preloaded[n] {
				continue
			}
			if strings.Contains(n, "/") {
				p := n
				if !filepath.IsAbs(p) {
					p = filepath.Join(l.Origin(), p)
				}
				if _, err := os.Stat(p); err == nil {
					continue
				}
				b.Missing = append(b.Missing, n)
				continue
			}
			if ld.found(n, rpath, ldPath, runpath, condaLib) {
				continue
			}
			if !chained {
				rpath, chained = chain(i), true
				if ld.found(n, rpath, nil, nil, "") {
					continue
				}
			}
			b.Missing = append(b.Missing, n)
		}
	}
}

// rpathChains returns, for a library of the scan, the directories of its
// own DT_RPATH and then of the DT_RPATHs up its chain of loaders (see
// resolveNeeded). The loader follows one chain, through the object that
// first caused each library to be loaded; which one that is depends on the
// import order of the job, so every library of the prefix that names it in
// DT_NEEDED counts as a loader. That can only find more, never less: a
// library is reported missing only when no chain provides it.
func (s *scanner) rpathChains() func(i int) []string {
	libs := s.b.Libraries
	own := make([][]string, len(libs))
	byName := map[string][]int{}
	for i, b := range libs {
		l := b.Lib
		if l == nil {
			continue
		}
		if len(l.RUNPATH) == 0 {
			own[i] = native.ExpandTokens(l.RPATH, l.Origin(), l.Machine)
		}
		byName[path.Base(b.Rel)] = append(byName[path.Base(b.Rel)], i)
		if l.SONAME != "" && l.SONAME != path.Base(b.Rel) {
			byName[l.SONAME] = append(byName[l.SONAME], i)
		}
	}
	loaders := make([][]int, len(libs))
	for j, b := range libs {
		if b.Lib == nil {
			continue
		}
		for _, n := range b.Lib.Needed {
			for _, i := range byName[path.Base(n)] {
				if i != j {
					loaders[i] = append(loaders[i], j)
				}
			}
		}
	}
	return func(i int) []string {
		var dirs []string
		have := map[string]bool{}
		add := func(ds []string) {
			for _, d := range ds {
				if !have[d] {
					have[d] = true
					dirs = append(dirs, d)
				}
			}
		}
		add(own[i])
		seen := map[int]bool{i: true}
		queue := append([]int(nil), loaders[i]...)
		for len(queue) > 0 {
			j := queue[0]
			queue = queue[1:]
			if seen[j] {
				continue
			}
			seen[j] = true
			add(own[j])
			queue = append(queue, loaders[j]...)
		}
		return dirs
	}
}

func (ld *loader) found(n string, rpath, ldPath, runpath []string, condaLib string) bool {
	for _, list := range [][]string{rpath, ldPath, runpath} {
		for _, d := range list {
			if d != "" && !strings.Contains(d, "$") && ld.has(d, n) {
				return true
			}
		}
	}
	if condaLib != "" && ld.has(condaLib, n) {
		return true
	}
	if ld.cache[n] {
		return true
	}
	for _, d := range defaultDirs {
		if ld.has(ld.sys(d), n) {
			return true
		}
	}
	return false
}

// preloads reports a library the environment has loaded before an
// extension's: torch's own (torch/lib) and the CUDA libraries it preloads
// (nvidia/*/lib), under any site-packages.
func (s *scanner) preloads(rel string) bool {
	for _, sp := range s.sites {
		rest, ok := strings.CutPrefix(rel, sp+"/")
		if !ok {
			continue
		}
		parts := strings.Split(rest, "/")
		switch {
		case len(parts) == 3 && parts[0] == "torch" && parts[1] == "lib":
			return true
		case len(parts) == 4 && parts[0] == "nvidia" && parts[2] == "lib":
			return true
		}
	}
	return false
}
