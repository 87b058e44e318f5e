package discover

import (
	"reflect"
	"testing"
)

func sampleSearch() *record {
	return &record{
		files: []string{"a/environment.yml", "b/requirements.txt"},
		facts: map[string]DirFacts{"/r/a": {Config: true}, "/r/b": {ConfigLink: true, Git: true}, "/r": {}},
		watch: []watched{{path: "a", kind: 'd', mtime: 1_700_000_000_000_000_001}, {path: "a/.gitignore", kind: 'f', size: 12, mtime: -3}, {path: "/r/.git", kind: '-'}},
	}
}

func TestSearchRecordRoundTrip(t *testing.T) {
	want := sampleSearch()
	got, err := Decode(want.encode())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decoded %+v\nwant %+v", got, want)
	}
	for _, bad := range [][]byte{nil, []byte("envguard-search-v0\n"), want.encode()[:len(want.encode())-1], append(want.encode(), 0)} {
		if _, err := Decode(bad); err == nil {
			t.Errorf("Decode(%q) took it", bad)
		}
	}
}

func FuzzDecodeSearch(f *testing.F) {
	f.Add(sampleSearch().encode())
	f.Add((&record{}).encode())
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := Decode(b)
		if err != nil {
			return
		}
		// What it accepts survives encoding unchanged.
		again, err := Decode(r.encode())
		if err != nil || !reflect.DeepEqual(again, r) {
			t.Errorf("re-encoded %+v: %+v, %v", r, again, err)
		}
	})
}
