package envspec

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The walk's allocation-free helpers must answer as the plain code they
// replaced, which these tests keep as references.

// refOSADistance is osaDistance as first written, over a full matrix.
func refOSADistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		if a == b {
			return 0
		}
		return 99
	}
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// walkStrings are random strings over an alphabet that makes near misses,
// swaps, blanks of every kind strings.Fields knows, multi-byte runes and
// invalid UTF-8 likely, plus the edge lengths of osaDistance's arrays.
func walkStrings() []string {
	out := []string{"", "a", "conda-forge", "conda-froge", "pytorch", "ptyorch", "nvidia", "bioconda",
		strings.Repeat("a", 64), strings.Repeat("a", 65), strings.Repeat("é", 32), strings.Repeat("é", 33),
		"numpy  >=1.2", " numpy >=1.2 ", "numpy\u00a0>=1.2", "numpy\u2003x", "a\x85b", "\xff \xfe"}
	alphabet := []string{"a", "b", "c", "-", ".", " ", "\t", "\u00a0", "\u2003", "é", "\xff", "\n", "ab", "ba"}
	r := rand.New(rand.NewPCG(13, 1))
	for range 3000 {
		var b strings.Builder
		for n := r.IntN(40); n > 0; n-- {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		out = append(out, b.String())
	}
	return out
}

func TestOSADistanceRef(t *testing.T) {
	ss := walkStrings()
	r := rand.New(rand.NewPCG(13, 2))
	for i, a := range ss {
		for _, b := range []string{ss[r.IntN(len(ss))], ss[(i+1)%len(ss)], a, strings.ToUpper(a)} {
			if got, want := osaDistance(a, b), refOSADistance(a, b); got != want {
				t.Fatalf("osaDistance(%q, %q) = %d, want %d", a, b, got, want)
			}
		}
	}
}

func TestSameWordsRef(t *testing.T) {
	ss := walkStrings()
	for i, a := range ss {
		fa := strings.Fields(a)
		if got, want := hasWord(a), len(fa) > 0; got != want {
			t.Fatalf("hasWord(%q) = %v, want %v", a, got, want)
		}
		for _, b := range []string{ss[(i+1)%len(ss)], a, " " + a + "\t", strings.Join(fa, " "), strings.Join(fa, "")} {
			if got, want := sameWords(a, b), strings.Join(fa, " ") == strings.Join(strings.Fields(b), " "); got != want {
				t.Fatalf("sameWords(%q, %q) = %v, want %v", a, b, got, want)
			}
		}
	}
}

func TestByteSetRef(t *testing.T) {
	sets := []string{"[]", "()", `'"`, "=,|", "-=,|<>~", "()|,^$", `/\`}
	ss := append(walkStrings(), "numpy[build=py*]", "a=1,<2|3", `"x'`, "(1.2|1.3)", `C:\x/y`, "^1$")
	for _, chars := range sets {
		set := newByteSet(chars)
		for _, s := range ss {
			if got, want := set.index(s), strings.IndexAny(s, chars); got != want {
				t.Fatalf("index(%q) of %q = %d, want %d", s, chars, got, want)
			}
			if got, want := set.lastIndex(s), strings.LastIndexAny(s, chars); got != want {
				t.Fatalf("lastIndex(%q) of %q = %d, want %d", s, chars, got, want)
			}
			if got, want := set.in(s), strings.ContainsAny(s, chars); got != want {
				t.Fatalf("in(%q) of %q = %v, want %v", s, chars, got, want)
			}
		}
	}
}
