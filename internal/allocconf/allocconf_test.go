package allocconf

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseAllocConf(t *testing.T) {
	cases := []struct {
		in string
		// errs are "offset:substring" of the expected errors, in order.
		errs []string
		keys []string // the option keys read, in order
	}{
		{in: "", keys: nil},
		{in: "expandable_segments:True", keys: []string{"expandable_segments"}},
		{in: "max_split_size_mb:128,garbage_collection_threshold:0.6", keys: []string{"max_split_size_mb", "garbage_collection_threshold"}},
		{in: " max_split_size_mb : 512 , expandable_segments: False ", keys: []string{"max_split_size_mb", "expandable_segments"}},
		{in: "backend:cudaMallocAsync", keys: []string{"backend"}},
		{in: "backend:native,", keys: []string{"backend"}}, // PyTorch accepts a trailing ','
		{in: "roundup_power2_divisions:4"},
		{in: "roundup_power2_divisions:[256:1,512:2,1024:4,>:8]"},
		{in: "roundup_power2_divisions:[64:8,256:4,1024:4,>:1],max_split_size_mb:100"},
		{in: "roundup_power2_divisions:[256:0,>:2]"}, // 0 disables rounding for an interval
		{in: "pinned_num_register_threads:8,pinned_use_cuda_host_register:True"},
		{in: "max_non_split_rounding_mb:20,release_lock_on_cudamalloc:True"},
		{in: "pinned_use_background_threads:True,graph_capture_record_stream_reuse:False"},
		{in: "per_process_memory_fraction:0.8,pinned_reserve_segment_size_mb:64"},
		{in: "growth_factor:2", errs: []string{"0:unknown allocator option \"growth_factor\""}},
		{in: "max_split_size_mb:20", errs: []string{"18:max_split_size_mb:20 is too small: it must be above 20"}},
		{in: "max_split_size_mb:16", errs: []string{"18:too small"}},
		{in: "max_split_size_mb:128MB", errs: []string{"18:is not a whole number of MB"}},
		{in: "max_split_size_mb:-1", errs: []string{"18:is not a whole number"}},
		{in: "garbage_collection_threshold:1.0", errs: []string{"29:is outside (0, 1)"}},
		{in: "garbage_collection_threshold:0", errs: []string{"29:is outside (0, 1)"}},
		{in: "garbage_collection_threshold:high", errs: []string{"29:is not a number"}},
		{in: "expandable_segments:true", errs: []string{"20:exactly True or False (capitalised)"}},
		{in: "expandable_segments:yes", errs: []string{"20:is not True or False"}},
		{in: "backend:cudamallocasync", errs: []string{"8:unknown allocator backend"}},
		{in: "roundup_power2_divisions:3", errs: []string{"25:is not a power of 2"}},
		{in: "roundup_power2_divisions:[300:1,>:3]", errs: []string{"26:interval \"300\" is not a power of 2", "34:divisions \"3\""}},
		{in: "roundup_power2_divisions:[256:1", errs: []string{"25:no closing ']'"}},
		{in: "roundup_power2_divisions:[256,>:1]", errs: []string{"26:\"256\" needs :divisions"}},
		{in: "pinned_num_register_threads:6", errs: []string{"28:not a power of 2"}},
		{in: "pinned_num_register_threads:256", errs: []string{"28:above the limit of 128"}},
		{in: "pinned_reserve_segment_size_mb:0", errs: []string{"31:too small: it must be above 0"}},
		{in: "expandable_segments", errs: []string{"0:has no value"}},
		{in: "expandable_segments:", errs: []string{"0:has an empty value"}},
		{in: "expandable_segments:,max_split_size_mb:64", errs: []string{"0:has an empty value"}, keys: []string{"expandable_segments", "max_split_size_mb"}},
		{in: ",expandable_segments:True", errs: []string{"0:empty option before ','"}},
		{in: "expandable_segments=True", errs: []string{"0:unknown allocator option \"expandable_segments=True\""}},
		{in: "max_split_size_mb:128;expandable_segments:True", errs: []string{"18:is not a whole number", "41:expected ',' after the value"}},
		{in: "max_split_size_mb:128:256", errs: []string{"21:expected ',' after the value of max_split_size_mb"}},
		{in: "Expandable_Segments:True", errs: []string{"0:unknown allocator option"}},
		{in: "max_split_size_mb:[1,2]", errs: []string{"18:takes a single value"}},
		{in: "a:1,b:2", errs: []string{"0:unknown", "4:unknown"}},
		{in: "[", errs: []string{"0:expected an option name"}},
		{in: "per_process_memory_fraction:1.5", errs: []string{"28:is outside [0, 1]"}},
		{in: "per_process_memory_fraction:1,expandable_segments_reserve:40G"},
		{in: "expandable_segments_reserve:0.5,expandable_segments_reserve_by_class:[train:0.6,eval:8G]"},
		{in: "expandable_segments_reserve:-1", errs: []string{"28:neither a positive fraction"}},
		{in: "expandable_segments_reserve_by_class:[train:big]", errs: []string{"38:entry \"train:big\""}},
	}
	for _, tc := range cases {
		conf, errs := Parse(tc.in)
		if conf == nil || conf.Raw != tc.in {
			t.Fatalf("%q: conf = %+v", tc.in, conf)
		}
		if len(errs) != len(tc.errs) {
			t.Errorf("%q: got %d errors %v, want %d %v", tc.in, len(errs), errs, len(tc.errs), tc.errs)
			continue
		}
		for i, w := range tc.errs {
			off, sub, _ := strings.Cut(w, ":")
			if got := errs[i]; !strings.Contains(got.Msg, sub) || itoa(got.Off) != off {
				t.Errorf("%q: error %d = %d %q, want %s %q", tc.in, i, got.Off, got.Msg, off, sub)
			}
		}
		if tc.keys != nil {
			var keys []string
			for _, o := range conf.Options {
				keys = append(keys, o.Key)
			}
			if strings.Join(keys, ",") != strings.Join(tc.keys, ",") {
				t.Errorf("%q: keys %v, want %v", tc.in, keys, tc.keys)
			}
		}
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func TestParseAllocConfOffsets(t *testing.T) {
	s := "max_split_size_mb: 512 , expandable_segments: True"
	conf, errs := Parse(s)
	if len(errs) != 0 || len(conf.Options) != 2 {
		t.Fatalf("errs %v options %v", errs, conf.Options)
	}
	for _, o := range conf.Options {
		if s[o.KeyOff:o.KeyEnd] != o.Key {
			t.Errorf("key span %q, want %q", s[o.KeyOff:o.KeyEnd], o.Key)
		}
		if s[o.ValOff:o.ValEnd] != o.Value {
			t.Errorf("value span %q, want %q", s[o.ValOff:o.ValEnd], o.Value)
		}
	}
	if conf.Options[1].Info == nil || conf.Options[1].Info.Since != "2.1" {
		t.Errorf("expandable_segments info = %+v", conf.Options[1].Info)
	}
}

func TestNearestAllocOption(t *testing.T) {
	for in, want := range map[string]string{
		"expandable_segment":  "expandable_segments",
		"max_split_size":      "max_split_size_mb",
		"EXPANDABLE_SEGMENTS": "expandable_segments",
		"growth_factor":       "",
	} {
		if got := nearestAllocOption(in); got != want {
			t.Errorf("nearestAllocOption(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAllocOptionsTable(t *testing.T) {
	seen := map[string]bool{}
	for _, o := range allocOptions {
		if seen[o.Name] {
			t.Errorf("%s listed twice", o.Name)
		}
		seen[o.Name] = true
		if o.Doc == "" {
			t.Errorf("%s: no Doc", o.Name)
		}
		if o.Since != "" && o.Source == "" {
			t.Errorf("%s: Since %s without a source", o.Name, o.Since)
		}
		if o.Since != "" {
			if !regexp.MustCompile(`^[0-9]+\.[0-9]+$`).MatchString(o.Since) {
				t.Errorf("%s: Since %q is not major.minor", o.Name, o.Since)
			}
		}
	}
}

func FuzzParseAllocConf(f *testing.F) {
	for _, s := range []string{
		"", "expandable_segments:True", "max_split_size_mb:128,garbage_collection_threshold:0.6",
		"roundup_power2_divisions:[256:1,512:2,>:8]", "[", "]:,", "a:[b:[c", ":::,,,", "backend: native ,",
		"roundup_power2_divisions:[>:1,", "max_split_size_mb:99999999999999999999999",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		conf, errs := Parse(s)
		if conf == nil {
			t.Fatal("nil conf")
		}
		for _, e := range errs {
			if e.Off < 0 || e.End < e.Off || e.End > len(s) || e.Msg == "" {
				t.Fatalf("bad error span %d..%d of %d: %q", e.Off, e.End, len(s), e.Msg)
			}
		}
		for _, o := range conf.Options {
			if o.KeyOff < 0 || o.KeyEnd < o.KeyOff || o.KeyEnd > len(s) || o.ValOff < 0 || o.ValEnd < o.ValOff || o.ValEnd > len(s) {
				t.Fatalf("bad option span %+v of %d", o, len(s))
			}
		}
		if utf8.ValidString(s) {
			_ = RuneCol(s, len(s))
		}
	})
}

// Refused tells what PyTorch raises on from what it logs and ignores, or
// what only some releases refuse (issue 27: check stops on the first).
func TestParseAllocConfRefused(t *testing.T) {
	for _, c := range []struct {
		in      string
		refused bool
	}{
		{"growth_factor:2", true},
		{"max_split_size_mb:10", true},
		{"max_split_size_mb:20", false}, // >= 20 on main, > 20 in older releases
		{"expandable_segments:true", true},
		{"garbage_collection_threshold:1.5", true},
		{"backend:magic", true},
		{"max_split_size_mb", true},
		{"expandable_segments_reserve:-3", false},
		{"expandable_segments_reserve_by_class:[big:-1]", false},
	} {
		_, errs := Parse(c.in)
		if len(errs) != 1 {
			t.Errorf("%q: %d errors, want 1: %v", c.in, len(errs), errs)
			continue
		}
		if errs[0].Refused != c.refused {
			t.Errorf("%q: Refused = %v, want %v (%s)", c.in, errs[0].Refused, c.refused, errs[0].Msg)
		}
	}
}
