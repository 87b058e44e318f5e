package envspec

// byteSet is a set of ASCII bytes made once. strings.IndexAny and its
// kin build their set on every call, which the spec parsers paid several
// times for every dependency of every file; these answer as they do for
// an ASCII set, byte by byte.
type byteSet [256]bool

func newByteSet(chars string) *byteSet {
	var s byteSet
	for i := 0; i < len(chars); i++ {
		if chars[i] >= 0x80 {
			panic("byteSet: not an ASCII byte: " + chars)
		}
		s[chars[i]] = true
	}
	return &s
}

// index is strings.IndexAny(s, chars).
func (set *byteSet) index(s string) int {
	for i := 0; i < len(s); i++ {
		if set[s[i]] {
			return i
		}
	}
	return -1
}

// lastIndex is strings.LastIndexAny(s, chars).
func (set *byteSet) lastIndex(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if set[s[i]] {
			return i
		}
	}
	return -1
}

// in is strings.ContainsAny(s, chars).
func (set *byteSet) in(s string) bool { return set.index(s) >= 0 }

var (
	bsBrackets    = newByteSet("[]")
	bsParens      = newByteSet("()")
	bsQuotes      = newByteSet(`'"`)
	bsEqCommaBar  = newByteSet("=,|")
	bsBuildBad    = newByteSet("-=,|<>~")
	bsTreeSpec    = newByteSet("()|,^$")
	bsPathSlashes = newByteSet(`/\`)
)
