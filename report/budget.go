package report

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/envguard/envguard/envspec"
	"github.com/envguard/envguard/finding"
)

// Budget bounds what one validation may cost, so that the work, the memory
// and the report of an input grow with its size and never faster: a file
// (or a request body) of a megabyte costs a bounded multiple of a megabyte.
// The zero value means the defaults.
type Budget struct {
	// MaxItems bounds the items (list entries, keys, package lines) read
	// from the file; past it the reading stops with an EG101 finding that
	// says where. 0 means envspec.DefaultMaxItems.
	MaxItems int
	// MaxFindings bounds how many findings the report lists in all, after
	// the cap of maxPerCode per code. 0 means DefaultMaxFindings.
	MaxFindings int
	// MaxFindingBytes bounds the text the listed findings carry together
	// (messages, hints, snippets). 0 means DefaultMaxFindingBytes.
	MaxFindingBytes int
}

const (
	// DefaultMaxFindings is ten times what the worst real file in the
	// corpus raises.
	DefaultMaxFindings = 500
	// DefaultMaxFindingBytes keeps a report of any input under about a
	// megabyte of JSON.
	DefaultMaxFindingBytes = 512 << 10
	// maxTextBytes bounds one finding's message and one hint: a message
	// quotes the item it is about, and an item may be a megabyte long.
	// The corpus's longest real text (an EG409 over a spec's builds) is
	// 3.8 KiB: at 1 KiB, 95 findings lost their end, the part that says
	// which builds fail and why (review thirty-eight F29's hint).
	maxTextBytes = 4 << 10
)

func (b Budget) maxFindings() int {
	if b.MaxFindings > 0 {
		return b.MaxFindings
	}
	return DefaultMaxFindings
}

func (b Budget) maxFindingBytes() int {
	if b.MaxFindingBytes > 0 {
		return b.MaxFindingBytes
	}
	return DefaultMaxFindingBytes
}

// clipText cuts s to at most max bytes on a character boundary, marking the
// cut with an ellipsis.
func clipText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	i := max - len(envspec.Ellipsis)
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + envspec.Ellipsis
}

// findingBytes estimates what a finding adds to the JSON report: its text,
// the snippet of at most SnippetWidth characters, and the fixed fields.
func findingBytes(d finding.Diagnostic, line string) int {
	snippet := min(len(line), 4*envspec.SnippetWidth+2*len(envspec.Ellipsis))
	return len(d.Message) + len(d.Hint) + len(d.Target) + snippet + 24*len(d.Related) + 160
}

// capTotal keeps findings, in sorted order, while there are fewer than
// maxN and their text stays under maxBytes; each code with findings left
// out gets one finding, at its first omitted place and with the worst
// severity among them, that says how many — the same summary capPerCode
// writes, so the exit status and the verdicts do not change. The summaries
// are few (one per code) and count against neither bound.
func capTotal(ds finding.Diagnostics, maxN, maxBytes int, line func(int) string) finding.Diagnostics {
	n, bytes := 0, 0
	cut := len(ds)
	for i, d := range ds {
		n++
		bytes += findingBytes(d, line(d.Pos.Line))
		if n > maxN || bytes > maxBytes {
			cut = i
			break
		}
	}
	if cut == len(ds) {
		return ds
	}
	out := append(finding.Diagnostics(nil), ds[:cut]...)
	type left struct {
		d     finding.Diagnostic
		count int
	}
	byCode := map[string]*left{}
	var order []string
	for _, d := range ds[cut:] {
		l := byCode[d.Code]
		if l == nil {
			s := d
			s.EndCol, s.Related, s.Target = 0, nil, ""
			l = &left{d: s}
			byCode[d.Code] = l
			order = append(order, d.Code)
		}
		l.count++
		if n := leftOutCount(d); n > 0 {
			// A summary capPerCode wrote: the findings it stands for.
			l.count += n - 1
		}
		if d.Severity > l.d.Severity {
			l.d.Severity = d.Severity
		}
	}
	sort.Strings(order)
	for _, code := range order {
		l := byCode[code]
		l.d.Message = fmt.Sprintf("%d more %s findings are left out of this report: it lists at most %d findings and %d KiB of their text", l.count, code, maxN, maxBytes>>10)
		l.d.Hint = "fix the ones listed and validate again"
		out = append(out, l.d)
	}
	out.Sort()
	return out
}

// leftOutCount reads the count back from a summary capPerCode wrote; 0 for
// any other finding.
func leftOutCount(d finding.Diagnostic) int {
	var n int
	var code string
	if !strings.HasSuffix(d.Message, " findings like the ones above are left out of this report") {
		return 0
	}
	if _, err := fmt.Sscanf(d.Message, "%d more %s findings", &n, &code); err != nil || code != d.Code {
		return 0
	}
	return n
}

// shownFieldsOf caches shownFields: reading a struct's fields and tags
// through reflect costs more than the walk itself, and a report has a
// handful of struct types.
var shownFieldsOf sync.Map // reflect.Type → []int

// shownFields are the indexes of t's exported fields that JSON shows.
func shownFields(t reflect.Type) []int {
	if v, ok := shownFieldsOf.Load(t); ok {
		return v.([]int)
	}
	var idx []int
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.IsExported() && f.Tag.Get("json") != "-" {
			idx = append(idx, i)
		}
	}
	shownFieldsOf.Store(t, idx)
	return idx
}

// clipStackText cuts every string the report's stack shows (fields with a
// JSON name) to maxTextBytes: the stack quotes items as written, and an item
// may be as long as the file. It runs once every rule and target has read
// the stack, so what they judged is the item in full.
func clipStackText(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			clipStackText(v.Elem())
		}
	case reflect.Struct:
		for _, i := range shownFields(v.Type()) {
			clipStackText(v.Field(i))
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			clipStackText(v.Index(i))
		}
	case reflect.String:
		if v.CanSet() && v.Len() > maxTextBytes {
			v.SetString(clipText(v.String(), maxTextBytes))
		}
	}
}
