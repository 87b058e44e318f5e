package native

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
)

// refsOf lists what Symbols reads, as EachSymbol gives it, sorted.
func refsOf(l *Library) []string {
	var out []string
	for _, s := range l.Exports {
		out = append(out, fmt.Sprintf("%s export weak=%v", s.Name, s.Weak))
	}
	for _, s := range l.Imports {
		out = append(out, fmt.Sprintf("%s import weak=%v", s.Name, s.Weak))
	}
	slices.Sort(out)
	return out
}

func eachOf(t testing.TB, b []byte) ([]string, error) {
	t.Helper()
	var out []string
	_, err := Options{EachSymbol: func(s SymbolRef) {
		kind := "export"
		if s.Import {
			kind = "import"
		}
		out = append(out, fmt.Sprintf("%s %s weak=%v", s.Name, kind, s.Weak))
	}}.Read(bytes.NewReader(b), int64(len(b)), "each.so")
	slices.Sort(out)
	return out, err
}

// TestEachSymbolAgrees: EachSymbol gives the symbols Symbols keeps, with
// the string table read in windows of every size down to a few bytes.
func TestEachSymbolAgrees(t *testing.T) {
	libs, _ := filepath.Glob(filepath.Join("testdata", "fatbin", "*.so"))
	if len(libs) == 0 {
		t.Fatal("no fixtures")
	}
	defer func(w int) { symWindow = w }(symWindow)
	for _, w := range []int{1 << 20, 64, 32} {
		symWindow = w
		for _, p := range libs {
			b := mustFixture(t, filepath.Base(p))
			l, err := Options{Symbols: true}.Read(bytes.NewReader(b), int64(len(b)), "each.so")
			if err != nil {
				t.Fatal(err)
			}
			got, err := eachOf(t, b)
			if err != nil {
				t.Fatalf("%s, window %d: %v", p, w, err)
			}
			if want := refsOf(l); !slices.Equal(got, want) || len(want) == 0 {
				t.Errorf("%s, window %d:\n got %v\nwant %v", p, w, got, want)
			}
		}
	}
	// A window shorter than a name: refused, not misread.
	symWindow = 4
	if _, err := eachOf(t, mustFixture(t, "sm80.so")); !errors.Is(err, ErrLimit) {
		t.Errorf("a name longer than the window: %v", err)
	}
}

// FuzzEachSymbol: any bytes give symbols or an *Error, never a panic; and
// where both reads succeed they agree.
func FuzzEachSymbol(f *testing.F) {
	libs, _ := filepath.Glob(filepath.Join("testdata", "fatbin", "*.so"))
	for _, p := range libs {
		f.Add(mustFixture(f, filepath.Base(p)))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		lim := Limits{MaxEntries: 1 << 12, MaxSymbols: 1 << 14}
		got, err := eachOf(t, b)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%T: %v", err, err)
			}
			return
		}
		l, err := Options{Symbols: true, Limits: lim}.Read(bytes.NewReader(b), int64(len(b)), "each.so")
		if err != nil {
			return // Symbols also checks the version tables
		}
		if want := refsOf(l); !slices.Equal(got, want) {
			t.Fatalf("EachSymbol %v, Symbols %v", got, want)
		}
	})
}
