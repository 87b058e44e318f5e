package api

import (
	"context"
	"net/http"
	"strings"
)

// FixRequest is one environment file to repair (POST /v1/fix).
type FixRequest struct {
	ValidateRequest
	// Unsafe also applies the fixes that change what gets installed
	// (?unsafe=1).
	Unsafe bool
	// Select limits the fixes to these codes (?select=EG201,EG501,
	// repeatable); empty means every safe fix, and the unsafe ones too
	// with Unsafe.
	Select []string
}

// FixApplied is one fix that was made.
type FixApplied struct {
	Code    string `json:"code"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// FixSkipped is a finding with a fix that was not made, and why.
type FixSkipped struct {
	Code   string `json:"code"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// FixResult is the answer of POST /v1/fix. Fixed is the whole fixed file
// (the file as sent when nothing applied) and Diff the unified diff from
// the file as sent ("" when nothing changed).
type FixResult struct {
	File    string       `json:"file"`
	Fixed   string       `json:"fixed"`
	Diff    string       `json:"diff"`
	Applied []FixApplied `json:"applied"`
	Skipped []FixSkipped `json:"skipped"`
	// Remaining counts the findings at error or warning left after fixing.
	Remaining int `json:"remaining"`
}

// Fixer applies envguard's certain fixes to one environment file. An
// environment with problems left is a result, not an error; errors are
// for input that cannot be fixed at all (a lock file, an unknown code in
// Select: a StatusCoder says which status).
type Fixer interface {
	Fix(ctx context.Context, req FixRequest) (FixResult, error)
}

// FixerFunc adapts a function to a Fixer.
type FixerFunc func(ctx context.Context, req FixRequest) (FixResult, error)

// Fix calls f.
func (f FixerFunc) Fix(ctx context.Context, req FixRequest) (FixResult, error) { return f(ctx, req) }

// maxSelect bounds ?select=: there are fewer fixable codes than this.
const maxSelect = 64

// fix answers POST /v1/fix: the same body, limits and slots as
// /v1/validate, plus ?unsafe= and ?select=.
func (s *server) fix(w http.ResponseWriter, r *http.Request) {
	if s.deps.Fixer == nil {
		s.writeError(w, r, newError(http.StatusNotImplemented, "not_implemented", "fixing is not available on this server"))
		return
	}
	// the query is checked before the body is read: a bad one costs nothing
	unsafe, sel, err := parseFixQuery(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	req, release, heavy, err := s.validateRequest(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	freq := FixRequest{ValidateRequest: req, Unsafe: unsafe, Select: sel}
	res, err := runBounded(r.Context(), s.workers, s.left, release, heavy, func(ctx context.Context) (FixResult, error) {
		return s.deps.Fixer.Fix(ctx, freq)
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if res.File == "" {
		res.File = req.File
	}
	if res.Applied == nil {
		res.Applied = []FixApplied{}
	}
	if res.Skipped == nil {
		res.Skipped = []FixSkipped{}
	}
	writeJSON(w, http.StatusOK, res)
}

// parseFixQuery reads ?unsafe= (1, true, 0, false; absent is false) and
// ?select= (codes, comma lists, repeatable).
func parseFixQuery(r *http.Request) (bool, []string, error) {
	q := r.URL.Query()
	unsafe := false
	switch v := strings.ToLower(q.Get("unsafe")); v {
	case "", "0", "false":
	case "1", "true":
		unsafe = true
	default:
		return false, nil, newError(http.StatusBadRequest, "bad_request", "unsafe="+quote(v)+": want 1 or 0")
	}
	var sel []string
	for _, v := range q["select"] {
		for _, c := range strings.Split(v, ",") {
			c = strings.ToUpper(strings.TrimSpace(c))
			if c == "" {
				continue
			}
			if err := checkField("select", c, 16); err != nil {
				return false, nil, err
			}
			sel = append(sel, c)
		}
	}
	if len(sel) > maxSelect {
		return false, nil, newError(http.StatusBadRequest, "bad_request", "too many codes in select: "+itoa(int64(len(sel)))+" (at most "+itoa(maxSelect)+")")
	}
	return unsafe, sel, nil
}
