package cache

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func records() []Record {
	base := NewKey().AddString("options").Key()
	return []Record{
		{Path: "a/environment.yml", Entry: Entry{Size: 12, ModTime: 1_700_000_000_123456789, Sum: SumOf([]byte("a")), Base: base, Value: []byte("0report a\n")}},
		{Path: "b/environment.yml", Entry: Entry{Size: 0, ModTime: -5, Sum: SumOf(nil), Base: base, Value: []byte{}}},
		{Path: "c/env.yml", Entry: Entry{Size: 1 << 40, ModTime: 7, Sum: SumOf([]byte("c")), Base: Key{}, Value: bytes.Repeat([]byte{0, 1, 2}, 10000)}},
	}
}

func sameEntry(a, b Entry) bool {
	return a.Size == b.Size && a.ModTime == b.ModTime && a.Sum == b.Sum && a.Base == b.Base && bytes.Equal(a.Value, b.Value)
}

func TestManifestRoundTrip(t *testing.T) {
	c := open(t)
	k := NewKey().AddString("run").Key()
	m, err := c.Load(k)
	if err != nil || m.Len() != 0 {
		t.Fatalf("no manifest yet: Load = %d entries, %v", m.Len(), err)
	}
	recs := records()
	if err := c.Save(k, recs, []byte("aux bytes")); err != nil {
		t.Fatal(err)
	}
	m, err = c.Load(k)
	if err != nil {
		t.Fatal(err)
	}
	if string(m.Aux()) != "aux bytes" {
		t.Errorf("Aux = %q", m.Aux())
	}
	if m.Len() != len(recs) {
		t.Fatalf("Load gave %d entries, want %d", m.Len(), len(recs))
	}
	for _, r := range recs {
		e, ok := m.Get(r.Path)
		if !ok || !sameEntry(e, r.Entry) {
			t.Errorf("%s: Get = %+v, %v; want %+v", r.Path, e, ok, r.Entry)
		}
	}
	if _, ok := m.Get("elsewhere.yml"); ok {
		t.Error("a path never saved has an entry")
	}
	// Another key does not see it; saving again replaces, not merges.
	if m, err := c.Load(NewKey().AddString("other run").Key()); err != nil || m.Len() != 0 {
		t.Errorf("another key: %d entries, %v", m.Len(), err)
	}
	if err := c.Save(k, recs[:1], nil); err != nil {
		t.Fatal(err)
	}
	if m, err := c.Load(k); err != nil || m.Len() != 1 {
		t.Errorf("after saving one record: %d entries, %v", m.Len(), err)
	}
	if err := c.Save(k, []Record{recs[0], recs[0]}, nil); err == nil {
		t.Error("Save took a path twice")
	}
	// One file per run beside the key, and no temporary file left behind.
	ents, _ := os.ReadDir(c.Dir())
	if len(ents) != 2 || ents[1].Name() != keyName || !strings.HasSuffix(ents[0].Name(), ".manifest") {
		t.Errorf("cache holds %v, want one manifest and the key", ents)
	}
}

// TestFresh: only an entry whose size and time match, and whose time is
// older than the manifest's write by more than RacyWindow, is trusted
// unread.
func TestFresh(t *testing.T) {
	c := open(t)
	k := NewKey().AddString("run").Key()
	if err := c.Save(k, records(), nil); err != nil {
		t.Fatal(err)
	}
	m, err := c.Load(k)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(c.manifestPath(k))
	if err != nil {
		t.Fatal(err)
	}
	written := st.ModTime().UnixNano()
	old := written - int64(RacyWindow) - 1
	e := Entry{Size: 10, ModTime: old}
	for _, tt := range []struct {
		name        string
		e           Entry
		size, mtime int64
		want        bool
	}{
		{"unchanged, settled before the manifest", e, 10, old, true},
		{"size changed", e, 11, old, false},
		{"time changed", e, 10, old - 1, false},
		{"within the window before the manifest's write", Entry{Size: 10, ModTime: old + 1}, 10, old + 1, false},
		{"same tick as the manifest's write", Entry{Size: 10, ModTime: written}, 10, written, false},
		{"newer than the manifest", Entry{Size: 10, ModTime: written + 1}, 10, written + 1, false},
	} {
		if got := m.Fresh(tt.e, tt.size, tt.mtime); got != tt.want {
			t.Errorf("%s: Fresh = %v, want %v", tt.name, got, tt.want)
		}
	}
	// A manifest never written trusts nothing.
	empty, _ := c.Load(NewKey().AddString("none").Key())
	if empty.Fresh(Entry{Size: 1, ModTime: 1}, 1, 1) {
		t.Error("an empty manifest trusted an entry")
	}
}

// TestUnsoundManifests: whatever is under a manifest's name that is not
// what Save wrote for that key reads as empty, with a reason, and Save
// repairs it.
func TestUnsoundManifests(t *testing.T) {
	c := open(t)
	k := NewKey().AddString("k").Key()
	good := c.encodeManifest(k, records(), nil)
	flipped := bytes.Clone(good)
	flipped[len(good)-100] ^= 1 // a bit of the last value
	countTooBig := bytes.Clone(good)
	countTooBig[len(Format)+1+len(k)] = 0x7f
	cases := map[string][]byte{
		"empty":         {},
		"truncated":     good[:len(good)-1],
		"value flipped": flipped,
		"another key":   c.encodeManifest(NewKey().AddString("other").Key(), records(), nil),
		"other format":  append([]byte("envguard-cache-v1\n"), good[len(Format)+1:]...),
		"newer format":  append([]byte("envguard-cache-v99\n"), good[len(Format)+1:]...),
		"garbage":       []byte("not a manifest at all"),
		"longer":        append(bytes.Clone(good), 'x'),
		"count too big": countTooBig,
	}
	for name, b := range cases {
		if err := os.WriteFile(c.manifestPath(k), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if m, err := c.Load(k); err == nil || m.Len() != 0 {
			t.Errorf("%s: Load = %d entries, %v; want none and a reason", name, m.Len(), err)
		}
		if err := c.Save(k, records(), nil); err != nil {
			t.Fatal(err)
		}
		if m, err := c.Load(k); err != nil || m.Len() != 3 {
			t.Errorf("%s: after Save, Load = %d entries, %v", name, m.Len(), err)
		}
	}
	// An unreadable one (a directory in its place) is a reason too.
	k2 := NewKey().AddString("dir").Key()
	if err := os.Mkdir(c.manifestPath(k2), 0o755); err != nil {
		t.Fatal(err)
	}
	if m, err := c.Load(k2); err == nil || m.Len() != 0 {
		t.Errorf("a directory: Load = %d entries, %v", m.Len(), err)
	}
}

// TestConcurrentSaves: runs saving and loading one manifest at once each
// see a whole manifest, one of those saved.
func TestConcurrentSaves(t *testing.T) {
	c := open(t)
	k := NewKey().AddString("run").Key()
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 30 {
				n := 1 + (w+i)%5
				var recs []Record
				for j := range n {
					recs = append(recs, Record{Path: fmt.Sprint(j), Entry: Entry{Size: int64(n), Value: []byte(strings.Repeat("v", 1000*n))}})
				}
				if err := c.Save(k, recs, nil); err != nil {
					t.Error(err)
				}
				m, err := c.Load(k)
				if err != nil {
					t.Errorf("worker %d: %v", w, err)
					continue
				}
				e, ok := m.Get("0")
				if !ok || int(e.Size) != m.Len() || len(e.Value) != 1000*m.Len() {
					t.Errorf("worker %d: a mixed manifest: %d entries, first %+v", w, m.Len(), e.Size)
				}
			}
		}()
	}
	wg.Wait()
}

// TestStaleTempsRemoved: a temporary file a killed run left an hour ago
// goes at the next save; a recent one (another run's write) stays.
func TestStaleTempsRemoved(t *testing.T) {
	c := open(t)
	old := filepath.Join(c.Dir(), ".tmp-killed")
	recent := filepath.Join(c.Dir(), ".tmp-writing")
	for _, p := range []string{old, recent} {
		if err := os.WriteFile(p, []byte("half a manifest"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	then := time.Now().Add(-2 * staleTemp)
	if err := os.Chtimes(old, then, then); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(NewKey().Key(), records(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); err == nil {
		t.Error("the stale temporary file is still there")
	}
	if _, err := os.Stat(recent); err != nil {
		t.Errorf("the recent temporary file went: %v", err)
	}
}

// FuzzDecodeManifest feeds the decoder what it is given both as it is and
// signed under the key, so that the fuzzer reaches the entries past the
// HMAC: whatever it accepts survives Save's encoding unchanged.
func FuzzDecodeManifest(f *testing.F) {
	k := NewKey().AddString("k").Key()
	c := &Cache{key: make([]byte, keySize)}
	for _, b := range [][]byte{
		c.encodeManifest(k, records(), nil),
		c.encodeManifest(k, nil, nil),
		c.encodeManifest(k, records(), []byte("the search")),
	} {
		f.Add(b[:len(b)-macSize])
	}
	f.Add([]byte(Format + "\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, in := range [][]byte{b, append(bytes.Clone(b), c.sign(b)...)} {
			entries, aux, err := c.decodeManifest(in, k)
			if err != nil {
				continue
			}
			var recs []Record
			for p, e := range entries {
				recs = append(recs, Record{Path: p, Entry: e})
			}
			again, aux2, err := c.decodeManifest(c.encodeManifest(k, recs, aux), k)
			if err != nil || len(again) != len(entries) || !bytes.Equal(aux, aux2) {
				t.Fatalf("re-encoded: %d entries, %v; want %d", len(again), err, len(entries))
			}
			for p, e := range entries {
				if !sameEntry(again[p], e) {
					t.Errorf("%q: %+v became %+v", p, e, again[p])
				}
			}
		}
	})
}

// TestBigManifest: a manifest past bigManifest, read into memory of its
// own, reads back whole.
func TestBigManifest(t *testing.T) {
	c := open(t)
	k := NewKey().AddString("big").Key()
	var recs []Record
	for i := range 3 {
		v := bytes.Repeat([]byte{byte('a' + i)}, 2<<20)
		recs = append(recs, Record{Path: fmt.Sprint(i), Entry: Entry{Size: int64(i), Value: v}})
	}
	if err := c.Save(k, recs, []byte("aux")); err != nil {
		t.Fatal(err)
	}
	m, err := c.Load(k)
	if err != nil || m.Len() != 3 || string(m.Aux()) != "aux" {
		t.Fatalf("Load = %d entries, aux %q, %v", m.Len(), m.Aux(), err)
	}
	for _, r := range recs {
		if e, ok := m.Get(r.Path); !ok || !sameEntry(e, r.Entry) {
			t.Errorf("%s: %d bytes, %v", r.Path, len(e.Value), ok)
		}
	}
}

// The size Save checks against MaxManifest is the size it writes, to the
// byte, over varints of every width.
func TestManifestSizeIsExact(t *testing.T) {
	c := open(t)
	k := NewKey().AddString("size").Key()
	recs := records()
	for i, n := range []int{0, 1, 127, 128, 16383, 16384, 1 << 21} {
		recs = append(recs, Record{Path: fmt.Sprintf("/p/%d", i), Entry: Entry{Size: int64(n) << 20, ModTime: -int64(n), Value: bytes.Repeat([]byte{'v'}, n)}})
	}
	for _, aux := range [][]byte{nil, []byte("a"), bytes.Repeat([]byte{'a'}, 300)} {
		b := c.encodeManifest(k, recs, aux)
		if got := manifestSize(k, recs, aux); got != int64(len(b)) {
			t.Fatalf("manifestSize = %d, the manifest is %d bytes", got, len(b))
		}
		if _, _, err := c.decodeManifest(b, k); err != nil {
			t.Fatal(err)
		}
	}
}
