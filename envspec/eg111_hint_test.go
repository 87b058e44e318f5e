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
	env := Parse("e.yml", []byte("name: a\ndependencies:\n  - numpy\nprefix: /x\nname: b\nprefix: /y\ndependencies:\n  - scipy\n"), ParseOptions{})
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
	if env.Name == nil || env.Name.Value != "b" {
		t.Errorf("name read as %+v, want the last copy, b", env.Name)
	}
}
