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
//  1. DT_RPATH, when the library has no DT_RUNPATH;
//  2. LD_LIBRARY_PATH, from the process environment given;
//  3. DT_RUNPATH ($ORIGIN expanded in both);
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
	for i := range s.b.Libraries {
		b := &s.b.Libraries[i]
		l := b.Lib
		if l == nil {
			continue
		}
		var rpath, runpath []string
		if len(l.RUNPATH) == 0 {
			rpath = native.ExpandOrigin(l.RPATH, l.Origin())
		} else {
			runpath = native.ExpandOrigin(l.RUNPATH, l.Origin())
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
			b.Missing = append(b.Missing, n)
		}
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
