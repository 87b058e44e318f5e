package resolver

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/native"
	"github.com/envguard/envguard/resolver/kb"
)

// Binaries is what the shared libraries of a live prefix say of
// themselves (native/), each mapped to the package that installed it:
// `envguard check` reads them (internal/prefixscan) and ApplyBinaries
// holds the Stack to them. The binary wins over a knowledge-base row.
type Binaries struct {
	// Prefix is the environment's root; Libraries' paths are under it.
	Prefix    string          `json:"prefix"`
	Libraries []BinaryLibrary `json:"libraries"`
	// Unread names what could not be read (a library, a directory, a
	// RECORD): each leaves every target unknown, never ok.
	Unread []string `json:"unread,omitempty"`
	// Notes are what the reader should know that decides nothing: where
	// the knowledge base and a binary disagree (ApplyBinaries adds them).
	Notes []string `json:"notes,omitempty"`
}

// BinaryLibrary is one shared library of the prefix.
type BinaryLibrary struct {
	// Rel is the path under the prefix, slash-separated.
	Rel string `json:"rel"`
	// Package is the normalized name of the distribution or conda package
	// that installed it ("" when no record lists it and no directory
	// names it).
	Package string          `json:"package,omitempty"`
	Lib     *native.Library `json:"lib"`
	// TorchExports are the TorchSymbolHash of each torch C++ symbol the
	// library exports, sorted: what a reader keeps of a torch library's
	// exports in place of Lib.Exports (libtorch_cpu's are a hundred
	// thousand names, and EG211 asks only whether a name is among them).
	TorchExports SymbolHashes `json:"-"`
	// Missing lists the DT_NEEDED entries that neither the environment
	// nor the system provides, in the file's order (EG411).
	Missing []string `json:"missing,omitempty"`
}

// BinarySummary is one library of a GPU-code package in the report:
// what `envguard inspect` prints of it, in the knowledge base's spelling.
type BinarySummary struct {
	Rel         string         `json:"rel"`
	SASS        []string       `json:"sass,omitempty"`
	PTX         []string       `json:"ptx,omitempty"`
	Variants    []string       `json:"variants,omitempty"` // sm_90a, compute_100f, …
	Compression map[string]int `json:"compression,omitempty"`
	Missing     []string       `json:"missing,omitempty"` // DT_NEEDED nothing provides (EG411)
}

// summary is b as the report lists it.
func (b *BinaryLibrary) summary() BinarySummary {
	s := BinarySummary{Rel: b.Rel, Missing: b.Missing}
	if b.Lib == nil {
		return s
	}
	for _, c := range b.Lib.SASS() {
		s.SASS = append(s.SASS, ccOf(c))
	}
	for _, c := range b.Lib.PTX() {
		s.PTX = append(s.PTX, ccOf(c))
	}
	for _, c := range b.Lib.Variants() {
		s.Variants = append(s.Variants, c.String())
	}
	for k, n := range b.Lib.Compressions() {
		if s.Compression == nil {
			s.Compression = map[string]int{}
		}
		s.Compression[string(k)] = n
	}
	return s
}

// Name is the library's file name.
func (b *BinaryLibrary) Name() string { return path.Base(b.Rel) }

// torchPackage reports the names torch's own libraries are installed
// under: the pip wheel (torch), conda's pytorch and its libtorch split.
func torchPackage(name string) bool {
	switch name {
	case "torch", "pytorch", "libtorch", "pytorch-gpu", "pytorch-cuda-libs":
		return true
	}
	return false
}

// ccOf spells a native architecture as the knowledge base does: "9.0",
// "9.0a" for an arch-specific cubin. A family-specific cubin (sm_100f)
// runs on every later minor of its major, as plain SASS does, so it is
// spelled plain.
func ccOf(c native.Code) string {
	s := fmt.Sprintf("%d.%d", int(c.Arch)/10, int(c.Arch)%10)
	if c.Variant == native.Variant("a") {
		s += "a"
	}
	return s
}

// codeOf is the union of the loaded GPU code of libs, in the knowledge
// base's spelling, sorted by architecture.
func codeOf(libs []*BinaryLibrary) (sass, ptx []string, zstd bool, names []string) {
	seenS, seenP := map[string]native.Arch{}, map[string]native.Arch{}
	for _, b := range libs {
		if b.Lib == nil || !b.Lib.HasDeviceCode() {
			continue
		}
		names = append(names, b.Rel)
		for _, c := range b.Lib.SASS() {
			seenS[ccOf(c)] = c.Arch
		}
		for _, c := range b.Lib.PTX() {
			seenP[ccOf(c)] = c.Arch
		}
		zstd = zstd || b.Lib.HasZstd()
	}
	sorted := func(m map[string]native.Arch) []string {
		out := make([]string, 0, len(m))
		for k := range m {
			out = append(out, k)
		}
		slices.SortFunc(out, func(a, b string) int {
			if m[a] != m[b] {
				return int(m[a]) - int(m[b])
			}
			return strings.Compare(a, b)
		})
		return out
	}
	return sorted(seenS), sorted(seenP), zstd, names
}

// FromBinary reports whether the package's GPU code was read from its
// shared libraries.
func (p *GPUPackage) FromBinary() bool {
	if !p.Code.Known {
		return false
	}
	for _, e := range p.Evidence {
		if e.Kind == EvidenceBinary {
			return true
		}
	}
	return false
}

// ApplyBinaries holds the Stack to what the prefix's binaries carry: each
// GPU-code package's Code becomes the union of its libraries' SASS and
// PTX (known, with a "binary" evidence naming them), where a knowledge-base
// row said otherwise a note says so, and a package whose libraries carry
// GPU code but that the resolver did not recognise becomes an extension.
// It keeps b on the Stack for the rules that read symbols and DT_NEEDED
// (EG211, EG411, EG412).
func ApplyBinaries(st *Stack, b *Binaries) {
	if st == nil || b == nil {
		return
	}
	applyCode(st, b, func(string) string { return "" })
}

// applyCode is ApplyBinaries, for binaries read now (a prefix) or earlier
// (learned builds, ApplyLearned): the one place where a package's GPU
// code is taken from its libraries. how(pkg) is said after the names of
// the libraries in the package's evidence: where the facts were read.
func applyCode(st *Stack, b *Binaries, how func(pkg string) string) {
	st.Binaries = b
	byPkg := map[string][]*BinaryLibrary{}
	var order []string
	for i := range b.Libraries {
		l := &b.Libraries[i]
		if l.Package == "" {
			continue
		}
		if _, ok := byPkg[l.Package]; !ok {
			order = append(order, l.Package)
		}
		byPkg[l.Package] = append(byPkg[l.Package], l)
	}
	for _, name := range order {
		libs := byPkg[name]
		sass, ptx, zstd, names := codeOf(libs)
		if len(names) == 0 {
			if p := st.packageFor(name); p != nil {
				p.Binaries = appendMissing(p.Binaries, libs)
			}
			continue
		}
		p := st.packageFor(name)
		if p == nil {
			if torchPackage(name) {
				continue // a CPU build's framework is no GPU package
			}
			st.GPUPackages = append(st.GPUPackages, GPUPackage{Name: name, Role: RoleExtension, From: fromOf(st, name)})
			p = &st.GPUPackages[len(st.GPUPackages)-1]
			p.Version = versionOf(st, name)
		}
		if p.Code.Known && !p.FromBinary() && (!slices.Equal(p.Code.SASS, sass) || !slices.Equal(p.Code.PTX, ptx)) {
			b.Notes = append(b.Notes, fmt.Sprintf("%s: the knowledge base says %s, the binary carries %s (%s); the binary is taken",
				pkgText(p), codeText(p.Code.SASS, p.Code.PTX), codeText(sass, ptx), libList(names)))
		}
		p.Code.SASS, p.Code.PTX, p.Code.Known, p.Code.Zstd = sass, ptx, true, zstd
		p.Code.MinCC, p.Code.JIT = "", false
		p.Code.SupportedCC, p.Code.UnlistedCC = nil, ""
		if !p.Known {
			// What it was built for may still be unknown (EG211 reads its
			// symbols), but the code the GPUs are judged by is read.
			p.Known, p.Unknown = true, ""
		}
		p.Evidence = append(p.Evidence, Evidence{Item: libList(names) + how(name), Kind: EvidenceBinary, Says: codeText(sass, ptx), Package: p.Name})
		for _, l := range libs {
			if l.Lib != nil && l.Lib.HasDeviceCode() {
				p.Binaries = append(p.Binaries, l.summary())
			}
		}
		p.Binaries = appendMissing(p.Binaries, libs)
	}
}

// appendMissing adds the libraries of libs without GPU code whose
// DT_NEEDED the loader could not satisfy: EG411 names them, and the
// report shows them beside the package's code.
func appendMissing(out []BinarySummary, libs []*BinaryLibrary) []BinarySummary {
	for _, l := range libs {
		if len(l.Missing) > 0 && (l.Lib == nil || !l.Lib.HasDeviceCode()) {
			out = append(out, l.summary())
		}
	}
	return out
}

// packageFor finds the GPU-code package a distribution's libraries
// belong to: torch's are the framework's.
func (st *Stack) packageFor(name string) *GPUPackage {
	for i := range st.GPUPackages {
		p := &st.GPUPackages[i]
		if torchPackage(name) && p.Role == RoleFramework {
			return p
		}
		if kb.NormalizeName(p.Name) == name {
			return p
		}
	}
	return nil
}

// fromOf and versionOf read a package the resolver did not take as GPU
// code from the items it read.
func fromOf(st *Stack, name string) envspec.Provider {
	for _, it := range st.items {
		if kb.NormalizeName(it.name) == name {
			return it.from()
		}
	}
	return ""
}

func versionOf(st *Stack, name string) string {
	for _, it := range st.items {
		if kb.NormalizeName(it.name) == name {
			if it.exact != "" {
				return it.exact
			}
			return it.verText
		}
	}
	return ""
}

func pkgText(p *GPUPackage) string {
	if p.Version != "" {
		return p.Name + " " + p.Version
	}
	return p.Name
}

// codeText renders SASS and PTX lists: "SASS sm_80 sm_90, PTX compute_90".
func codeText(sass, ptx []string) string {
	sm := func(list []string, pre string) string {
		if len(list) == 0 {
			return "none"
		}
		out := make([]string, len(list))
		for i, s := range list {
			out[i] = pre + strings.Replace(s, ".", "", 1)
		}
		return strings.Join(out, " ")
	}
	return "SASS " + sm(sass, "sm_") + ", PTX " + sm(ptx, "compute_")
}

// libList names up to three libraries and counts the rest.
func libList(names []string) string {
	if len(names) <= 3 {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:3], ", ") + fmt.Sprintf(" and %d more", len(names)-3)
}
