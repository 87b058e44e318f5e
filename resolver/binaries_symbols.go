package resolver

import (
	"encoding/binary"
	"slices"
	"sort"
	"strings"

	"github.com/envguard/envguard/finding"
	"github.com/envguard/envguard/native"
	"github.com/envguard/envguard/resolver/kb"
)

// TorchSymbolPrefixes are the mangled namespaces of torch's C++ API:
// c10::, at:: and torch:: (the N forms, and the NK forms of const members).
// Only imports in them are held to torch's exports, so that a symbol an
// extension takes from libc, libstdc++ or CUDA is never counted; a reader
// keeps only the symbols in them (internal/prefixscan).
var TorchSymbolPrefixes = []string{"_ZN3c10", "_ZNK3c10", "_ZN2at", "_ZNK2at", "_ZN5torch", "_ZNK5torch"}

func torchSymbol(name string) bool {
	for _, p := range TorchSymbolPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// TorchSymbolHash is the 64-bit FNV-1a hash of a symbol's name, which
// TorchExports hold. Two names of one hash would make a missing import look
// exported: for the 10^5 to 10^6 names of a torch install against a few
// hundred imports, a chance of the order of 10^-11 an environment, which
// buys holding 8 bytes an export instead of its name (a second run of
// check decodes them with no allocation per name).
// It takes a string too, so that an import's name is hashed without a copy
// into bytes.
func TorchSymbolHash[T ~string | ~[]byte](name T) uint64 {
	h := uint64(14695981039346656037)
	for i := range len(name) {
		h ^= uint64(name[i])
		h *= 1099511628211
	}
	return h
}

// SymbolHashes is a sorted set of TorchSymbolHash values, 8 bytes each,
// little-endian, in the layout a cache entry keeps them (prefixscan's
// codec): a second run of check hands the entry's bytes over as they are,
// where decoding torch's 245,000 exports into a []uint64 was a tenth of
// the run. nil is no set; an empty one is a set with no names.
type SymbolHashes []byte

// HashesOf is the set of hs, which must be sorted.
func HashesOf(hs []uint64) SymbolHashes {
	if hs == nil {
		return nil
	}
	b := make(SymbolHashes, 0, 8*len(hs))
	for _, h := range hs {
		b = binary.LittleEndian.AppendUint64(b, h)
	}
	return b
}

// Len is the number of hashes.
func (s SymbolHashes) Len() int { return len(s) / 8 }

// At is the i-th hash.
func (s SymbolHashes) At(i int) uint64 { return binary.LittleEndian.Uint64(s[8*i:]) }

// Contains reports whether h is in the set (a binary search).
func (s SymbolHashes) Contains(h uint64) bool {
	lo, hi := 0, s.Len()
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.At(m) < h {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo < s.Len() && s.At(lo) == h
}

// symbolGap is an extension library that imports torch symbols the
// environment's torch libraries do not export.
type symbolGap struct {
	lib     *BinaryLibrary
	pkg     string
	missing []string // mangled, sorted
}

// missingTorchSymbols holds every library outside torch that imports
// torch's C++ API to the exports of the environment's torch libraries
// (libtorch*, libc10*, torch/_C): each strong import in c10::, at:: or
// torch:: that none exports is missing. Where no torch library with
// symbols was read nothing is decided here.
func missingTorchSymbols(st *Stack) []symbolGap {
	b := st.Binaries
	if b == nil {
		return nil
	}
	// Each torch library's exports, as sorted hashes: its TorchExports,
	// or its Lib.Exports hashed.
	var exports []SymbolHashes
	for i := range b.Libraries {
		l := &b.Libraries[i]
		if !torchPackage(l.Package) || l.Lib == nil {
			continue
		}
		if l.TorchExports.Len() > 0 {
			exports = append(exports, l.TorchExports)
		}
		var hs []uint64
		for _, s := range l.Lib.Exports {
			if torchSymbol(s.Name) {
				hs = append(hs, TorchSymbolHash(s.Name))
			}
		}
		if len(hs) > 0 {
			slices.Sort(hs)
			exports = append(exports, HashesOf(hs))
		}
	}
	if len(exports) == 0 {
		return nil
	}
	exported := func(name string) bool {
		h := TorchSymbolHash(name)
		for _, hs := range exports {
			if hs.Contains(h) {
				return true
			}
		}
		return false
	}
	var out []symbolGap
	for i := range b.Libraries {
		l := &b.Libraries[i]
		if torchPackage(l.Package) || l.Lib == nil || !linksTorch(l.Lib) {
			continue
		}
		var miss []string
		seen := map[string]bool{}
		for _, s := range l.Lib.Imports {
			if s.Weak || !torchSymbol(s.Name) || seen[s.Name] || exported(s.Name) {
				continue
			}
			seen[s.Name] = true
			miss = append(miss, s.Name)
		}
		if len(miss) > 0 {
			sort.Strings(miss)
			out = append(out, symbolGap{lib: l, pkg: l.Package, missing: miss})
		}
	}
	return out
}

// linksTorch reports a library that needs one of torch's own libraries.
func linksTorch(l *native.Library) bool {
	for _, n := range l.Needed {
		if strings.HasPrefix(n, "libc10") || strings.HasPrefix(n, "libtorch") {
			return true
		}
	}
	return false
}

// demangled renders the first n names demangled, and an ellipsis for more.
func demangled(names []string, n int) string {
	var parts []string
	for i, s := range names {
		if i == n {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, native.Demangle(s))
	}
	return strings.Join(parts, "; ")
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// PosOf points at the item of the package, or nowhere.
func (st *Stack) PosOf(pkg string) finding.Pos {
	for _, p := range st.GPUPackages {
		if kb.NormalizeName(p.Name) == pkg && p.Pos.IsValid() {
			return p.Pos
		}
	}
	for _, it := range st.items {
		if kb.NormalizeName(it.name) == pkg {
			return it.verPos()
		}
	}
	return finding.Pos{}
}
