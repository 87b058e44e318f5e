package envspec

// slab hands out the structs that reading a file makes one or more of for
// every dependency (CondaDep and MatchSpec; PipDep, PipLine, PipRequirement
// and its specifiers) from arrays made for
// the list being read, instead of one allocation per struct: the corpus
// has about fifty such lists and nine thousand dependencies. Everything
// taken from a slab belongs to the one Env the reading builds, which holds
// it all anyway, so an array never keeps more alive than that Env.
//
// A nil *slab allocates each struct on its own, as the exported parsers
// (ParseMatchSpec, ParsePipLine) do for callers that parse one string.
type slab struct {
	// left is the number of items still to read in the list being read:
	// the length of the next array, so that one array serves the list.
	left int

	condaDeps  []CondaDep
	matchSpecs []MatchSpec
	pipDeps    []PipDep
	pipLines   []PipLine
	pipReqs    []PipRequirement
	pipSpecs   []PipSpecifier
}

// take returns a zeroed *T from buf, refilling buf with an array of n
// elements when it is empty.
func take[T any](buf *[]T, n int) *T {
	if len(*buf) == 0 {
		*buf = make([]T, max(n, 1))
	}
	t := &(*buf)[0]
	*buf = (*buf)[1:]
	return t
}

func (s *slab) condaDep() *CondaDep {
	if s == nil {
		return new(CondaDep)
	}
	return take(&s.condaDeps, s.left)
}

func (s *slab) matchSpec() *MatchSpec {
	if s == nil {
		return new(MatchSpec)
	}
	return take(&s.matchSpecs, s.left)
}

func (s *slab) pipDep() *PipDep {
	if s == nil {
		return new(PipDep)
	}
	return take(&s.pipDeps, s.left)
}

func (s *slab) pipLine() *PipLine {
	if s == nil {
		return new(PipLine)
	}
	return take(&s.pipLines, s.left)
}

func (s *slab) pipReq() *PipRequirement {
	if s == nil {
		return new(PipRequirement)
	}
	return take(&s.pipReqs, s.left)
}

// pipSpecifiers returns an empty slice with room for n specifiers. Its
// capacity is exactly n, so that an append past it reallocates rather
// than writing into the next requirement's specifiers.
func (s *slab) pipSpecifiers(n int) []PipSpecifier {
	if s == nil || n > 16 {
		return make([]PipSpecifier, 0, n)
	}
	if len(s.pipSpecs) < n {
		// one for each line left, or the n of this line: most lines
		// have one specifier or none.
		s.pipSpecs = make([]PipSpecifier, max(s.left, n))
	}
	out := s.pipSpecs[:0:n]
	s.pipSpecs = s.pipSpecs[n:]
	return out
}
