package native

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/envguard/envguard/internal/golden"
)

// cuobjdumpLine is one file cuobjdump --list-elf or --list-ptx names:
// "ELF file    1: sm90a.1.sm_90a.cubin", "PTX file    1: ptx120.1.sm_120.ptx".
var cuobjdumpLine = regexp.MustCompile(`^(ELF|PTX) file +\d+: .*\.(sm_\d+a?)\.(cubin|ptx)$`)

// readCuobjdump returns the SASS and PTX names a .cuobjdump file lists, in
// its order.
func readCuobjdump(t *testing.T, path string) (sass, ptx []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := cuobjdumpLine.FindStringSubmatch(sc.Text())
		switch {
		case m == nil:
		case m[1] == "ELF":
			sass = append(sass, m[2])
		default:
			ptx = append(ptx, m[2])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return sass, ptx
}

// cuobjdumpNames lists the library's entries of kind k as cuobjdump names
// them.
func cuobjdumpNames(l *Library, k Kind) []string {
	var out []string
	for _, e := range l.Entries {
		if e.Kind == k {
			out = append(out, e.Code().Cuobjdump())
		}
	}
	return out
}

func fixtures(t *testing.T) []string {
	t.Helper()
	fs, err := filepath.Glob(filepath.Join("testdata", "fatbin", "*.cuobjdump"))
	if err != nil || len(fs) == 0 {
		t.Fatalf("no fixtures under testdata/fatbin: %v", err)
	}
	var libs []string
	for _, f := range fs {
		base := strings.TrimSuffix(f, ".cuobjdump")
		for _, ext := range []string{".so", ".o"} {
			if _, err := os.Stat(base + ext); err == nil {
				libs = append(libs, base+ext)
			}
		}
	}
	return libs
}

// TestFixturesAgreeWithCuobjdump: for every library nvcc 13.0 built
// (testdata/fatbin/build.sh), the SASS and PTX entries native reads from
// the headers are the files cuobjdump lists, entry for entry, in order.
func TestFixturesAgreeWithCuobjdump(t *testing.T) {
	for _, lib := range fixtures(t) {
		t.Run(filepath.Base(lib), func(t *testing.T) {
			l, err := ReadFile(lib)
			if err != nil {
				t.Fatal(err)
			}
			wantSASS, wantPTX := readCuobjdump(t, strings.TrimSuffix(lib, filepath.Ext(lib))+".cuobjdump")
			if got := cuobjdumpNames(l, SASS); !slices.Equal(got, wantSASS) {
				t.Errorf("SASS %v, cuobjdump lists %v", got, wantSASS)
			}
			if got := cuobjdumpNames(l, PTX); !slices.Equal(got, wantPTX) {
				t.Errorf("PTX %v, cuobjdump lists %v", got, wantPTX)
			}
			for _, e := range l.Entries {
				if e.Kind == Other {
					t.Errorf("entry at %#x of kind %d: nvcc wrote only ELF and PTX", e.Offset, e.RawKind)
				}
			}
		})
	}
}

// TestFixturesGolden keeps what native reads of every fixture, entry by
// entry, in testdata/fatbin/NAME.native: the f variant and the compression
// kinds that cuobjdump's lists do not show.
func TestFixturesGolden(t *testing.T) {
	for _, lib := range fixtures(t) {
		t.Run(filepath.Base(lib), func(t *testing.T) {
			l, err := ReadFile(lib)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			fmt.Fprintf(&b, "type %s, %d containers, %d entries\n", l.Type, l.Containers, len(l.Entries))
			fmt.Fprintf(&b, "sass %v\nptx %v\n", l.SASS(), l.PTX())
			for _, e := range l.Entries {
				fmt.Fprintf(&b, "container %d @%#x: %-4s %-12s %-4s flags %#09x version %d.%d header %3d payload %5d",
					e.Container, e.Offset, e.Kind, e.Code(), e.Compression, e.Flags, e.Version[0], e.Version[1], e.HeaderSize, e.Size)
				if e.Compression != Uncompressed {
					fmt.Fprintf(&b, " (%d compressed, %d uncompressed)", e.CompressedSize, e.UncompressedSize)
				}
				b.WriteByte('\n')
			}
			golden.Check(t, strings.TrimSuffix(lib, filepath.Ext(lib))+".native", []byte(b.String()))
		})
	}
}

// TestFixtureFacts holds the facts each fixture was built to show.
func TestFixtureFacts(t *testing.T) {
	read := func(name string) *Library {
		t.Helper()
		l, err := ReadFile(filepath.Join("testdata", "fatbin", name))
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	codes := func(cs []Code) string {
		var s []string
		for _, c := range cs {
			s = append(s, c.String())
		}
		return strings.Join(s, " ")
	}
	tests := []struct {
		lib, sass, ptx, variants string
		comp                     map[Compression]int
	}{
		{"sm80.so", "sm_80", "", "", map[Compression]int{Uncompressed: 2}},
		{"multi.so", "sm_75 sm_80 sm_90", "compute_90", "", map[Compression]int{Uncompressed: 6, Zstd: 1}},
		{"ptx120.so", "", "compute_120", "", map[Compression]int{Zstd: 1}},
		{"sm90a.so", "sm_90a", "", "sm_90a", map[Compression]int{Uncompressed: 2}},
		{"sm100a.so", "sm_100a", "compute_100a", "sm_100a compute_100a", map[Compression]int{Uncompressed: 2, Zstd: 1}},
		{"sm100f.so", "sm_100f", "", "sm_100f", map[Compression]int{Uncompressed: 2}},
		{"sm121.so", "sm_121", "", "", map[Compression]int{Uncompressed: 2}},
		{"nocompress.so", "sm_80", "compute_80", "", map[Compression]int{Uncompressed: 3}},
		{"compressall.so", "sm_80 sm_90a", "compute_80", "sm_90a", map[Compression]int{Zstd: 5}},
		{"mode_default.so", "sm_86 sm_100a", "compute_86", "sm_100a", map[Compression]int{Zstd: 5}},
		{"mode_size.so", "sm_86 sm_100a", "compute_86", "sm_100a", map[Compression]int{Zstd: 5}},
		{"mode_balance.so", "sm_86 sm_100a", "compute_86", "sm_100a", map[Compression]int{Zstd: 5}},
		{"mode_speed.so", "sm_86 sm_100a", "compute_86", "sm_100a", map[Compression]int{LZ: 5}},
		{"mode_none.so", "sm_86 sm_100a", "compute_86", "sm_100a", map[Compression]int{Uncompressed: 5}},
		{"obj80.o", "sm_80", "", "", map[Compression]int{Uncompressed: 1}},
	}
	for _, tt := range tests {
		l := read(tt.lib)
		if got := codes(l.SASS()); got != tt.sass {
			t.Errorf("%s: SASS %q, want %q", tt.lib, got, tt.sass)
		}
		if got := codes(l.PTX()); got != tt.ptx {
			t.Errorf("%s: PTX %q, want %q", tt.lib, got, tt.ptx)
		}
		if got := codes(l.Variants()); got != tt.variants {
			t.Errorf("%s: variants %q, want %q", tt.lib, got, tt.variants)
		}
		if got := l.Compressions(); fmt.Sprint(got) != fmt.Sprint(tt.comp) {
			t.Errorf("%s: compression %v, want %v", tt.lib, got, tt.comp)
		}
		if l.HasZstd() != (tt.comp[Zstd] > 0) {
			t.Errorf("%s: HasZstd %v", tt.lib, l.HasZstd())
		}
	}
	// A shared library nvcc links holds two containers: the one ptxas
	// made for the translation unit, and nvlink's, which the device-link
	// step adds (its cubin has no kernel). cuobjdump lists both, so each
	// architecture twice; the object file has only the first.
	if l := read("sm80.so"); l.Containers != 2 || l.Entries[0].Container != 0 || l.Entries[1].Container != 1 {
		t.Errorf("sm80.so: %d containers, entries in %d and %d", l.Containers, l.Entries[0].Container, l.Entries[1].Container)
	}
	if l := read("obj80.o"); l.Containers != 1 || l.Type != "relocatable" {
		t.Errorf("obj80.o: %d containers, type %s", l.Containers, l.Type)
	}
	// PTX-only: nvlink's container is there and empty.
	if l := read("ptx120.so"); l.Containers != 2 || len(l.Entries) != 1 {
		t.Errorf("ptx120.so: %d containers, %d entries", l.Containers, len(l.Entries))
	}
	// From CUDA 12.8 an sm_100 entry has a longer header (112 bytes for
	// the cubin ptxas wrote); an sm_90 one keeps 64.
	for _, e := range read("sm100a.so").Entries {
		if e.Kind == SASS && e.HeaderSize <= 64 {
			t.Errorf("sm100a.so: SASS entry at %#x has a %d-byte header", e.Offset, e.HeaderSize)
		}
	}
	for _, e := range read("sm90a.so").Entries {
		if e.HeaderSize != 64 {
			t.Errorf("sm90a.so: entry at %#x has a %d-byte header", e.Offset, e.HeaderSize)
		}
	}
}

// TestLibraryJSON: a Library encodes to JSON and back unchanged, so a
// cache can hold it.
func TestLibraryJSON(t *testing.T) {
	l, err := Options{Symbols: true}.ReadFile(filepath.Join("testdata", "fatbin", "mode_size.so"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	var back Library
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(l, &back) {
		t.Errorf("round trip changed the library:\n%+v\n%+v", l, &back)
	}
	if !strings.Contains(string(b), `"kind":"sass","raw_kind":2,"arch":100,"variant":"a","compression":"zstd"`) {
		t.Errorf("JSON %s", b)
	}
}
