// Package allocconf is the language of the CUDA caching allocator's
// settings string, as PyTorch reads it from
// PYTORCH_CUDA_ALLOC_CONF (and, in newer releases, PYTORCH_ALLOC_CONF).
//
// Grammar, as c10's tokenizer implements it (c10/core/AllocatorConfig.h
// ConfigTokenizer; older c10/cuda/CUDAAllocatorConfig.cpp lexArgs): the
// characters ',', ':', '[' and ']' are tokens of their own, whitespace is
// dropped everywhere (even inside a word: "max split" reads "maxsplit"), and
// the rest runs together into words. Options are `key:value` separated by
// ','; a value is one word or a bracketed list `[a:b,c:d]`. A trailing ','
// is accepted. Values are case-sensitive: booleans are exactly True/False.
package allocconf

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Vars are the environment variables that carry the settings.
// PYTORCH_ALLOC_CONF is the device-generic name newer releases read; torch
// 2.9.1 warns "PYTORCH_CUDA_ALLOC_CONF is deprecated, use PYTORCH_ALLOC_CONF
// instead" (github.com/pytorch/pytorch/issues/183387). Which one wins when
// both are set differs between releases (c10/core/AllocatorConfig.h says the
// CUDA name has lower priority; a later c10/cuda/CUDAAllocatorConfig.h reads
// the CUDA name first), so both are checked and neither is preferred.
var Vars = []string{"PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF"}

// Conf is a parsed allocator settings string.
type Conf struct {
	Raw     string
	Options []Option
}

// Option is one `key:value` of the settings, with byte offsets into Raw
// so that findings can point inside the variable's value.
type Option struct {
	Key            string // whitespace removed, as PyTorch compares it
	Value          string // the value word, or the list with its brackets
	KeyOff, KeyEnd int    // [KeyOff, KeyEnd) in Raw
	ValOff, ValEnd int    // [ValOff, ValEnd) in Raw; equal when the value is missing
	Info           *OptionInfo
}

// Error is a problem in the settings string: an unknown option, a
// bad value or broken syntax. Off and End are byte offsets into the string.
type Error struct {
	Off, End int
	Key      string // the option concerned; "" for syntax errors
	Unknown  bool   // the option name is not one PyTorch knows
	Msg      string
	Hint     string
	// Refused says that PyTorch raises on the problem when it parses the
	// settings (a TORCH_CHECK in c10/cuda/CUDAAllocatorConfig.cpp and
	// c10/core/AllocatorConfig.cpp): the job stops, at `import torch` in
	// releases whose allocator parses the variable while the library loads
	// (the static BackendStaticInitializer reads CUDAAllocatorConfig), at
	// the first CUDA allocation in older ones. False where PyTorch logs the
	// value and goes on without it (an expandable_segments_reserve entry),
	// or where only some releases refuse it (max_split_size_mb:20).
	Refused bool
	// soft marks, while Parse runs, the problems that are not refused.
	soft bool
}

func (e Error) Error() string { return fmt.Sprintf("offset %d: %s", e.Off, e.Msg) }

// allocValueKind is the type of an option's value.
type allocValueKind int

const (
	allocBool        allocValueKind = iota // True or False
	allocBackend                           // native or cudaMallocAsync
	allocSizeMB                            // whole MB with a floor
	allocFraction                          // a float strictly between 0 and 1
	allocPow2Threads                       // power of 2, at most a limit
	allocRoundup                           // power of 2, or [interval:divisions,...]
	allocFraction01                        // a float in [0, 1]
	allocReserve                           // a positive fraction, or GiB with a G suffix
	allocReserveList                       // [name:reserve,...]
)

// OptionInfo documents one option PyTorch's allocator accepts.
type OptionInfo struct {
	Name string
	Kind allocValueKind
	// Min is the smallest accepted value of an allocSizeMB option, and
	// MinExclusive says whether Min itself is rejected.
	Min          int
	MinExclusive bool
	Max          int // upper limit of allocPow2Threads
	// Since is the first torch minor release that accepts the option; ""
	// where no source establishes it (EG504 then stays silent).
	Since  string
	Source string // where Since comes from
	Doc    string // what the value is, for hints
}

// allocOptions is every option of PyTorch's CUDA allocator settings. The
// list, types and ranges are read from c10/core/AllocatorConfig.{h,cpp} and
// c10/cuda/CUDAAllocatorConfig.{h,cpp} (pytorch/pytorch main); the version
// that introduced each option is recorded only where a source establishes it.
var allocOptions = []OptionInfo{
	{Name: "backend", Kind: allocBackend,
		Doc: "native or cudaMallocAsync (CUDA 11.4 or newer)"},
	// RULES.md EG503: "max_split_size_mb ≤ 20" is bad. Older parsers checked
	// val > kLargeBuffer/kMB (20); AllocatorConfig.cpp on main checks >= 20.
	// 20 itself is reported because releases that reject it exist.
	{Name: "max_split_size_mb", Kind: allocSizeMB, Min: 20, MinExclusive: true,
		Doc: "blocks larger than this (MB, above 20) are never split"},
	// AllocatorConfig.cpp parseMaxNonSplitRoundingSize: val_env >= 20.
	{Name: "max_non_split_rounding_mb", Kind: allocSizeMB, Min: 20,
		Doc: "how far (MB, at least 20) a non-split block may be rounded up"},
	// AllocatorConfig.cpp parseGarbageCollectionThreshold: 0 < val < 1.
	{Name: "garbage_collection_threshold", Kind: allocFraction,
		Doc: "reclaim cached blocks when usage passes this fraction, in (0, 1)"},
	{Name: "roundup_power2_divisions", Kind: allocRoundup,
		Doc: "a power of 2, or [interval:divisions,...,>:divisions] with powers of 2"},
	// Absent from torch 2.0.1: "RuntimeError: Unrecognized CachingAllocator
	// option: expandable_segments" with torch==2.0.1 in
	// github.com/deepseek-ai/DeepSeek-VL2/issues/103 and
	// github.com/ZhengPeng7/BiRefNet/issues/179. Present in 2.1.2: "PyTorch
	// 2.1.2 is the last version that works for me with expandable segments"
	// (github.com/pytorch/pytorch/issues/122057). Merged upstream in April
	// 2023, after 2.0 (github.com/pytorch/pytorch/pull/100184), and patch
	// releases take no features (RELEASE.md), so 2.1.
	{Name: "expandable_segments", Kind: allocBool, Since: "2.1",
		Source: "pytorch/pytorch#122057 (works in 2.1.2); DeepSeek-VL2#103, BiRefNet#179 (rejected by 2.0.1); pytorch/pytorch#100184",
		Doc:    "True lets segments grow instead of allocating new ones"},
	{Name: "release_lock_on_cudamalloc", Kind: allocBool,
		Doc: "True releases the allocator lock around cudaMalloc"},
	{Name: "release_lock_on_hipmalloc", Kind: allocBool,
		Doc: "ROCm spelling of release_lock_on_cudamalloc"},
	{Name: "pinned_use_cuda_host_register", Kind: allocBool,
		Doc: "True pins host memory with cudaHostRegister instead of cudaHostAlloc"},
	{Name: "pinned_use_hip_host_register", Kind: allocBool,
		Doc: "ROCm spelling of pinned_use_cuda_host_register"},
	// CUDAAllocatorConfig.cpp parsePinnedNumRegisterThreads: power of 2 and
	// <= pinned_max_register_threads() (128, CUDAAllocatorConfig.h).
	{Name: "pinned_num_register_threads", Kind: allocPow2Threads, Max: 128,
		Doc: "threads that register pinned memory: a power of 2, at most 128"},
	{Name: "pinned_use_background_threads", Kind: allocBool,
		Doc: "True processes pinned-memory events on a background thread"},
	// CUDAAllocatorConfig.cpp parsePinnedReserveSegmentSize: > 0.
	{Name: "pinned_reserve_segment_size_mb", Kind: allocSizeMB, Min: 0, MinExclusive: true,
		Doc: "pinned memory (MB, above 0) reserved up front"},
	{Name: "graph_capture_record_stream_reuse", Kind: allocBool,
		Doc: "True reuses blocks freed during CUDA graph capture"},
	// CUDAAllocatorConfig.cpp parsePerProcessMemoryFraction: 0 <= val <= 1.
	{Name: "per_process_memory_fraction", Kind: allocFraction01,
		Doc: "the fraction of device memory the process may use, in [0, 1]"},
	{Name: "pinned_free_catch_all", Kind: allocBool,
		Doc: "a True/False pinned-allocator switch"},
	{Name: "throw_on_cudamalloc_oom", Kind: allocBool,
		Doc: "True raises out-of-memory before calling cudaMalloc when it would fail"},
	// CUDAAllocatorConfig.cpp parseReserveSpec: a positive finite fraction,
	// or GiB with a trailing G; a bad value is ignored with a warning.
	{Name: "expandable_segments_reserve", Kind: allocReserve,
		Doc: "address space reserved per expandable segment: a fraction (0.5) or GiB (40G)"},
	{Name: "expandable_segments_reserve_by_class", Kind: allocReserveList,
		Doc: "[name:reserve,...] with reserves as for expandable_segments_reserve"},
}

// OptionByName returns the documentation of an allocator option.
func OptionByName(name string) (*OptionInfo, bool) {
	for i := range allocOptions {
		if allocOptions[i].Name == name {
			return &allocOptions[i], true
		}
	}
	return nil, false
}

// allocToken is one token of the settings string.
type allocToken struct {
	text     string // whitespace removed
	off, end int
}

func (t allocToken) punct() byte {
	if len(t.text) == 1 && strings.ContainsRune(",:[]", rune(t.text[0])) {
		return t.text[0]
	}
	return 0
}

// lexAllocConf splits s as PyTorch's ConfigTokenizer does, keeping offsets.
func lexAllocConf(s string) []allocToken {
	var toks []allocToken
	var buf strings.Builder
	start, end := -1, -1
	flush := func() {
		if buf.Len() > 0 {
			toks = append(toks, allocToken{buf.String(), start, end})
			buf.Reset()
		}
		start = -1
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ',' || c == ':' || c == '[' || c == ']':
			flush()
			toks = append(toks, allocToken{string(c), i, i + 1})
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			// dropped, even inside a word
		default:
			if start < 0 {
				start = i
			}
			buf.WriteByte(c)
			end = i + 1
		}
	}
	flush()
	return toks
}

// Parse parses an allocator settings string and checks every
// option against what PyTorch accepts. It never fails: problems come back as
// errors with offsets, and the options it could read come back in the conf.
func Parse(s string) (*Conf, []Error) {
	conf := &Conf{Raw: s}
	var errs []Error
	toks := lexAllocConf(s)
	// skipTo returns the index of the next ',' at or after i (len(toks) if none).
	skipTo := func(i int) int {
		for i < len(toks) && toks[i].punct() != ',' {
			i++
		}
		return i
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if p := t.punct(); p != 0 {
			if p == ',' {
				errs = append(errs, Error{Off: t.off, End: t.end,
					Msg:  "empty option before ','",
					Hint: "remove the extra ','; PyTorch stops with \"Unrecognized CachingAllocator option: ,\""})
				continue
			}
			errs = append(errs, Error{Off: t.off, End: t.end,
				Msg: fmt.Sprintf("expected an option name, found %q", t.text)})
			i = skipTo(i)
			continue
		}
		opt := Option{Key: t.text, KeyOff: t.off, KeyEnd: t.end}
		if info, ok := OptionByName(t.text); ok {
			opt.Info = info
		}
		if i+1 >= len(toks) || toks[i+1].punct() != ':' {
			opt.ValOff, opt.ValEnd = t.end, t.end
			conf.Options = append(conf.Options, opt)
			if opt.Info == nil {
				errs = append(errs, unknownOption(opt))
			} else {
				errs = append(errs, Error{Off: t.off, End: t.end, Key: opt.Key,
					Msg:  fmt.Sprintf("%s has no value (want %s:VALUE)", opt.Key, opt.Key),
					Hint: opt.Key + ": " + opt.Info.Doc})
			}
			i = skipTo(i + 1)
			continue
		}
		i += 2 // the value
		if i >= len(toks) || toks[i].punct() == ',' {
			at := toks[i-1].end
			opt.ValOff, opt.ValEnd = at, at
			conf.Options = append(conf.Options, opt)
			if opt.Info == nil {
				errs = append(errs, unknownOption(opt))
			} else {
				errs = append(errs, Error{Off: t.off, End: at, Key: opt.Key,
					Msg:  fmt.Sprintf("%s has an empty value", opt.Key),
					Hint: opt.Key + ": " + opt.Info.Doc})
			}
			continue // toks[i] is the ',' (or the end): the loop steps past it
		}
		var list []allocToken // the tokens inside [...]
		v := toks[i]
		opt.ValOff, opt.ValEnd, opt.Value = v.off, v.end, v.text
		if v.punct() == '[' {
			j := i + 1
			for j < len(toks) && toks[j].punct() != ']' {
				j++
			}
			if j >= len(toks) {
				opt.ValEnd = toks[len(toks)-1].end
				opt.Value = s[opt.ValOff:opt.ValEnd]
				conf.Options = append(conf.Options, opt)
				errs = append(errs, Error{Off: v.off, End: opt.ValEnd, Key: opt.Key,
					Msg: fmt.Sprintf("the list of %s has no closing ']'", opt.Key)})
				break
			}
			list = toks[i+1 : j]
			opt.ValEnd = toks[j].end
			opt.Value = s[opt.ValOff:opt.ValEnd]
			i = j
		} else if v.punct() != 0 {
			errs = append(errs, Error{Off: v.off, End: v.end, Key: opt.Key,
				Msg: fmt.Sprintf("expected a value after %s:, found %q", opt.Key, v.text)})
			conf.Options = append(conf.Options, opt)
			i = skipTo(i)
			continue
		}
		conf.Options = append(conf.Options, opt)
		if opt.Info == nil {
			errs = append(errs, unknownOption(opt))
		} else {
			errs = append(errs, checkAllocValue(opt, v, list)...)
		}
		if i+1 < len(toks) && toks[i+1].punct() != ',' {
			n := toks[i+1]
			errs = append(errs, Error{Off: n.off, End: n.end, Key: opt.Key,
				Msg: fmt.Sprintf("expected ',' after the value of %s, found %q", opt.Key, n.text)})
			i = skipTo(i + 1)
			continue
		}
		i++ // the ','
	}
	for k := range errs {
		errs[k].Refused = !errs[k].soft
	}
	return conf, errs
}

func unknownOption(opt Option) Error {
	e := Error{Off: opt.KeyOff, End: opt.KeyEnd, Key: opt.Key, Unknown: true,
		Msg: fmt.Sprintf("unknown allocator option %s", strconv.Quote(opt.Key))}
	if near := nearestAllocOption(opt.Key); near != "" {
		e.Hint = "did you mean " + near + "? "
	}
	e.Hint += "PyTorch refuses it (\"Unrecognized CachingAllocator option\", or \"Unrecognized key\" in newer releases); known options: " + strings.Join(allocOptionNames(), ", ")
	return e
}

func allocOptionNames() []string {
	names := make([]string, 0, len(allocOptions))
	for _, o := range allocOptions {
		names = append(names, o.Name)
	}
	sort.Strings(names)
	return names
}

// nearestAllocOption returns the known option closest to a misspelt key, or
// "" when none is close enough to be a likely typo.
func nearestAllocOption(key string) string {
	k := strings.ToLower(key)
	best, bestD := "", 1<<30
	for _, o := range allocOptions {
		if k == o.Name {
			return o.Name // differs only in case
		}
		d := editDistance(k, o.Name)
		if d < bestD {
			best, bestD = o.Name, d
		}
	}
	if bestD <= 3 || (bestD <= len(best)/4) {
		return best
	}
	return ""
}

// editDistance is Levenshtein distance over bytes, bounded to short inputs.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 20
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// reserveOK mirrors parseReserveSpec: a positive finite number, GiB when
// it ends in G or g.
func reserveOK(v string) bool {
	num := strings.TrimRight(v, "Gg")
	if len(v)-len(num) > 1 {
		return false
	}
	f, err := strconv.ParseFloat(num, 64)
	return err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) && f > 0
}

// joinTokens joins tokens back, for messages.
func joinTokens(toks []allocToken) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteString(t.text)
	}
	return b.String()
}

func isPow2(n uint64) bool { return n != 0 && n&(n-1) == 0 }

// parseWhole reads a whole non-negative decimal integer. PyTorch's stoi
// would read "128MB" as 128; the suffix is reported because it is almost
// always a misunderstanding of the unit.
func parseWhole(s string) (uint64, bool) {
	if s == "" || s[0] == '+' || s[0] == '-' {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil
}

func checkAllocValue(opt Option, v allocToken, list []allocToken) []Error {
	info := opt.Info
	bad := func(msg string) []Error {
		return []Error{{Off: opt.ValOff, End: opt.ValEnd, Key: opt.Key, Msg: msg,
			Hint: opt.Key + ": " + info.Doc}}
	}
	if info.Kind != allocRoundup && info.Kind != allocReserveList && list != nil {
		return bad(fmt.Sprintf("%s takes a single value, not a list", opt.Key))
	}
	if info.Kind == allocReserveList && list == nil {
		return bad(fmt.Sprintf("%s takes a [name:reserve,...] list", opt.Key))
	}
	val := v.text
	switch info.Kind {
	case allocBool:
		if val == "True" || val == "False" {
			return nil
		}
		if strings.EqualFold(val, "true") || strings.EqualFold(val, "false") || val == "1" || val == "0" {
			return bad(fmt.Sprintf("%s:%s is not accepted: PyTorch wants exactly True or False (capitalised)", opt.Key, val))
		}
		return bad(fmt.Sprintf("%s:%s is not True or False", opt.Key, val))
	case allocBackend:
		if val == "native" || val == "cudaMallocAsync" {
			return nil
		}
		return bad(fmt.Sprintf("unknown allocator backend %q (want native or cudaMallocAsync)", val))
	case allocSizeMB:
		n, ok := parseWhole(val)
		if !ok {
			return bad(fmt.Sprintf("%s:%s is not a whole number of MB", opt.Key, val))
		}
		if n < uint64(info.Min) || (info.MinExclusive && n == uint64(info.Min)) {
			rel := "at least"
			if info.MinExclusive {
				rel = "above"
			}
			e := bad(fmt.Sprintf("%s:%d is too small: it must be %s %d", opt.Key, n, rel, info.Min))
			// The floor itself is refused by the releases that compare
			// with > and taken by those that compare with >=.
			e[0].soft = n == uint64(info.Min)
			return e
		}
	case allocFraction:
		f, err := strconv.ParseFloat(val, 64)
		if err != nil || math.IsNaN(f) {
			return bad(fmt.Sprintf("%s:%s is not a number", opt.Key, val))
		}
		if f <= 0 || f >= 1 {
			return bad(fmt.Sprintf("%s:%s is outside (0, 1)", opt.Key, val))
		}
	case allocFraction01:
		f, err := strconv.ParseFloat(val, 64)
		if err != nil || math.IsNaN(f) {
			return bad(fmt.Sprintf("%s:%s is not a number", opt.Key, val))
		}
		if f < 0 || f > 1 {
			return bad(fmt.Sprintf("%s:%s is outside [0, 1]", opt.Key, val))
		}
	case allocReserve:
		if !reserveOK(val) {
			e := bad(fmt.Sprintf("%s:%s is neither a positive fraction nor a size like 40G; PyTorch ignores it", opt.Key, val))
			e[0].soft = true
			return e
		}
	case allocReserveList:
		var errs []Error
		for k := 0; k+2 < len(list); k += 4 {
			if list[k+1].punct() != ':' || !reserveOK(list[k+2].text) {
				errs = append(errs, Error{Off: list[k].off, End: list[k+2].end, Key: opt.Key,
					Msg:  fmt.Sprintf("%s: entry %q is not name:reserve with a positive fraction or a size like 40G", opt.Key, joinTokens(list[k:k+3])),
					Hint: opt.Key + ": " + info.Doc, soft: true})
			}
		}
		return errs
	case allocPow2Threads:
		n, ok := parseWhole(val)
		if !ok {
			return bad(fmt.Sprintf("%s:%s is not a whole number", opt.Key, val))
		}
		if !isPow2(n) {
			return bad(fmt.Sprintf("%s:%d is not a power of 2", opt.Key, n))
		}
		if n > uint64(info.Max) {
			return bad(fmt.Sprintf("%s:%d is above the limit of %d", opt.Key, n, info.Max))
		}
	case allocRoundup:
		if list == nil {
			n, ok := parseWhole(val)
			if !ok {
				return bad(fmt.Sprintf("%s:%s is neither a number nor a [interval:divisions,...] list", opt.Key, val))
			}
			if !isPow2(n) {
				return bad(fmt.Sprintf("%s:%d is not a power of 2", opt.Key, n))
			}
			return nil
		}
		return checkRoundupList(opt, list)
	}
	return nil
}

// checkRoundupList checks `[256:1,512:2,>:8]`: intervals are powers of 2 (or
// '>' for all larger ones), divisions are powers of 2 or 0.
func checkRoundupList(opt Option, list []allocToken) []Error {
	var errs []Error
	hint := opt.Key + ": " + opt.Info.Doc
	for k := 0; k < len(list); {
		iv := list[k]
		if iv.punct() != 0 {
			errs = append(errs, Error{Off: iv.off, End: iv.end, Key: opt.Key, Hint: hint,
				Msg: fmt.Sprintf("expected interval:divisions in the list of %s, found %q", opt.Key, iv.text)})
			break
		}
		if k+2 >= len(list) || list[k+1].punct() != ':' || list[k+2].punct() != 0 {
			errs = append(errs, Error{Off: iv.off, End: iv.end, Key: opt.Key, Hint: hint,
				Msg: fmt.Sprintf("%s: %q needs :divisions", opt.Key, iv.text)})
			break
		}
		dv := list[k+2]
		if iv.text != ">" {
			if n, ok := parseWhole(iv.text); !ok || !isPow2(n) {
				errs = append(errs, Error{Off: iv.off, End: iv.end, Key: opt.Key, Hint: hint,
					Msg: fmt.Sprintf("%s: interval %q is not a power of 2 (or >)", opt.Key, iv.text)})
			}
		}
		if n, ok := parseWhole(dv.text); !ok || (n != 0 && !isPow2(n)) {
			errs = append(errs, Error{Off: dv.off, End: dv.end, Key: opt.Key, Hint: hint,
				Msg: fmt.Sprintf("%s: divisions %q is not a power of 2 or 0", opt.Key, dv.text)})
		}
		k += 3
		if k < len(list) {
			if list[k].punct() != ',' {
				errs = append(errs, Error{Off: list[k].off, End: list[k].end, Key: opt.Key, Hint: hint,
					Msg: fmt.Sprintf("expected ',' in the list of %s, found %q", opt.Key, list[k].text)})
				break
			}
			k++
		}
	}
	return errs
}

// RuneCol converts a byte offset in s into a count of characters, so that
// columns stay right when the value holds non-ASCII text.
func RuneCol(s string, off int) int {
	if off > len(s) {
		off = len(s)
	}
	return utf8.RuneCountInString(s[:off])
}
