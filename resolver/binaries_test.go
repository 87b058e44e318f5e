package resolver

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/envguard/envguard/native"
	"github.com/envguard/envguard/resolver/kb"
)

func fixtureLib(t *testing.T, name string) *native.Library {
	t.Helper()
	l, err := native.ReadFile(filepath.Join("..", "native", "testdata", "fatbin", name))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// The binary wins over a knowledge-base row, and a note says where they
// disagree; a library of a package the resolver did not take as GPU code
// makes it an extension, known from the binary.
func TestApplyBinaries(t *testing.T) {
	st := &Stack{GPUPackages: []GPUPackage{
		{Name: "flash-attn", Role: RoleExtension, Version: "2.7.4", Known: true,
			Code:     GPUCode{SASS: []string{"8.0", "9.0"}, Known: true},
			Evidence: []Evidence{{Kind: EvidenceKBRow, Item: "flash-attn 2.7.4 (pypi)"}}},
	}}
	b := &Binaries{Libraries: []BinaryLibrary{
		{Rel: "lib/python3.11/site-packages/flash_attn_2_cuda.so", Package: "flash-attn", Lib: fixtureLib(t, "sm80.so")},
		{Rel: "lib/python3.11/site-packages/newext/_C.so", Package: "newext", Lib: fixtureLib(t, "multi.so")},
		{Rel: "lib/python3.11/site-packages/plain/_x.so", Package: "plain", Lib: &native.Library{Type: "shared"}},
	}}
	ApplyBinaries(st, b)
	fa := st.GPUPackages[0]
	if !fa.FromBinary() || strings.Join(fa.Code.SASS, " ") != "8.0" || len(fa.Code.PTX) != 0 {
		t.Errorf("flash-attn code %+v", fa.Code)
	}
	if len(b.Notes) != 1 || !strings.Contains(b.Notes[0], "the knowledge base says SASS sm_80 sm_90, PTX none, the binary carries SASS sm_80, PTX none") {
		t.Errorf("notes %q", b.Notes)
	}
	if len(st.GPUPackages) != 2 {
		t.Fatalf("packages %+v", st.GPUPackages)
	}
	ne := st.GPUPackages[1]
	if ne.Name != "newext" || ne.Role != RoleExtension || !ne.Known || !ne.Code.Zstd ||
		strings.Join(ne.Code.SASS, " ") != "7.5 8.0 9.0" || strings.Join(ne.Code.PTX, " ") != "9.0" {
		t.Errorf("newext %+v", ne)
	}
	// A second application with the same binaries says nothing new.
	ApplyBinaries(st, b)
	if len(b.Notes) != 1 {
		t.Errorf("notes after a second application: %q", b.Notes)
	}
}

// Only torch's namespaces count, weak imports do not, and symbols torch's
// libraries export are not missing.
func TestMissingTorchSymbols(t *testing.T) {
	torch := &native.Library{Exports: []native.Symbol{{Name: "_ZN3c103fooEv"}}}
	ext := &native.Library{Needed: []string{"libc10.so"}, Imports: []native.Symbol{
		{Name: "_ZN3c103fooEv"}, {Name: "_ZN3c103barEi"}, {Name: "_ZN2at4bazEv", Weak: true}, {Name: "malloc"}, {Name: "_ZNSt6vectorIiE"},
	}}
	st := &Stack{Binaries: &Binaries{Libraries: []BinaryLibrary{
		{Rel: "torch/lib/libc10.so", Package: "torch", Lib: torch},
		{Rel: "ext/_C.so", Package: "ext", Lib: ext},
	}}}
	gaps := missingTorchSymbols(st)
	if len(gaps) != 1 || strings.Join(gaps[0].missing, " ") != "_ZN3c103barEi" {
		t.Fatalf("gaps %+v", gaps)
	}
	if got := demangled(gaps[0].missing, 3); got != "c10::bar(int)" {
		t.Errorf("demangled %q", got)
	}
	// Without torch's libraries read nothing is decided.
	st.Binaries.Libraries = st.Binaries.Libraries[1:]
	if gaps := missingTorchSymbols(st); gaps != nil {
		t.Errorf("gaps without torch: %+v", gaps)
	}
}

// TestOptionalOpsNotEG211: a release whose compiled ops are optional
// (torchao 0.11.0 catches a failed load at import) with a library that
// imports torch symbols the installed torch lacks gets no EG211 ("fails at
// import" would be false); OptionalOpsUnloadable says what does not load,
// for the GPU check. Another extension with the same gap keeps EG211.
func TestOptionalOpsNotEG211(t *testing.T) {
	k := kb.Default()
	torch := &native.Library{Exports: []native.Symbol{{Name: "_ZN3c103fooEv"}}}
	ext := &native.Library{Needed: []string{"libc10.so"}, Imports: []native.Symbol{{Name: "_ZN3c103barEi"}}}
	st := &Stack{
		Framework: &Framework{Name: "pytorch", Version: "2.6.0", Variant: "cuda"},
		GPUPackages: []GPUPackage{
			{Name: "torchao", Version: "0.11.0", Role: RoleExtension},
			{Name: "otherext", Version: "1.0", Role: RoleExtension},
		},
		Binaries: &Binaries{Libraries: []BinaryLibrary{
			{Rel: "torch/lib/libc10.so", Package: "torch", Lib: torch},
			{Rel: "torchao/_C.abi3.so", Package: "torchao", Lib: ext},
			{Rel: "otherext/_C.so", Package: "otherext", Lib: ext},
		}},
	}
	if optionalOpsRelease(k, st, "torchao") == "" {
		t.Fatal("torchao 0.11.0: no optional_ops row")
	}
	ds := runEG211(&Context{Stack: st, KB: k, rule: ruleEG211})
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "otherext/_C.so") {
		t.Errorf("EG211 %+v, want one, for otherext", ds)
	}
	if got := OptionalOpsUnloadable(st, "torchao"); !strings.Contains(got, "torchao/_C.abi3.so needs 1 symbol") || !strings.Contains(got, "c10::bar(int)") {
		t.Errorf("OptionalOpsUnloadable %q", got)
	}
}
