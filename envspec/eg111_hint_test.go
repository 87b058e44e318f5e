package envspec

import (
	"strings"
	"testing"
)

// EG111 says what conda does with a duplicate key (refuses the file) and
// what a reader that accepts it keeps (the last copy), and its hint fits
// the value: two plain values cannot be merged, one must go (review ten
// #700: two prefix: paths were told to merge).
func TestEG111SaysWhatCondaDoes(t *testing.T) {
	env := Parse("e.yml", []byte("name: a\ndependencies:\n  - numpy\nprefix: /x\nname: a\nprefix: /y\ndependencies:\n  - scipy\n"), ParseOptions{})
	hints := map[string]string{}
	for _, d := range env.Diags {
		if d.Code != "EG111" {
			continue
		}
		if !strings.Contains(d.Message, "conda refuses the file (ruamel.yaml's DuplicateKeyError)") || !strings.Contains(d.Message, "keep only the last copy") {
			t.Errorf("EG111 %q", d.Message)
		}
		key, _, _ := strings.Cut(strings.TrimPrefix(d.Message, "key \""), "\"")
		hints[key] = d.Hint
	}
	want := map[string]string{"name": "keep one name: line (delete the other)", "prefix": "keep one prefix: line (delete the other)", "dependencies": "merge the two entries into one"}
	for k, w := range want {
		if hints[k] != w {
			t.Errorf("EG111 on %s: hint %q, want %q", k, hints[k], w)
		}
	}
	if env.Prefix == nil || env.Prefix.Value != "/y" {
		t.Errorf("prefix read as %+v, want the last copy, /y", env.Prefix)
	}
}

// TestEG111PastedEnvironments: review thirty-five F15 (092). Two exports
// pasted one after the other repeat name: with two values; merging their
// dependencies would pin both sets of versions, so every EG111 of that
// mapping says to split the file or keep one.
func TestEG111PastedEnvironments(t *testing.T) {
	env := Parse("e.yml", []byte("name: a\nchannels:\n  - defaults\ndependencies:\n  - python=3.12.9\nname: b\nchannels:\n  - defaults\ndependencies:\n  - python=3.10.0\n"), ParseOptions{})
	n := 0
	for _, d := range env.Diags {
		if d.Code != "EG111" {
			continue
		}
		n++
		if !strings.Contains(d.Hint, `the file holds two environments one after the other (name: "a", then "b"): split it into two files, or keep one`) {
			t.Errorf("EG111 %q: hint %q", d.Message, d.Hint)
		}
	}
	if n != 3 {
		t.Errorf("%d EG111 findings, want 3 (name, channels, dependencies)", n)
	}
}
