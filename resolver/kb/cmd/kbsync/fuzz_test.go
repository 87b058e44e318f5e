package main

import (
	"encoding/hex"
	"strings"
	"testing"
)

func FuzzSimpleJSON(f *testing.F) {
	f.Add(readFixture(f, "torch.json"))
	f.Add([]byte(`{"meta":{"api-version":"1.0"},"name":"x","files":[]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := parseSimpleJSON(b, "http://index.test/simple/x/")
		if err == nil && p.Name == "" {
			t.Fatal("accepted a page without a name")
		}
		if err == nil {
			summarize(p.Files)
			linuxWheel(p.Files)
		}
	})
}

func FuzzSimpleHTML(f *testing.F) {
	f.Add(readFixture(f, "whl-cu128-torch.html"))
	f.Add([]byte(`<a href="x-1.0-py3-none-any.whl#sha256=00" data-yanked="">x</a>`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := parseSimpleHTML(b, "http://index.test/whl/cu128/torch/", "torch")
		if err != nil {
			return
		}
		for _, fl := range p.Files {
			if strings.Contains(fl.URL, "#") {
				t.Fatalf("fragment kept in %q", fl.URL)
			}
			wheelTags(fl.Filename)
		}
	})
}

func FuzzMetadata(f *testing.F) {
	f.Add(readFixture(f, "torch-2.15.0.METADATA"))
	f.Add(readFixture(f, "xformers-0.0.35.METADATA"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := parseMetadata(b)
		if err == nil && (m.Name == "" || m.Version == "") {
			t.Fatal("accepted metadata without Name and Version")
		}
		if err == nil {
			cudaPins(m.RequiresDist)
		}
	})
}

func FuzzShardIndex(f *testing.F) {
	sum, _ := hex.DecodeString(strings.Repeat("ab", 32))
	f.Add(shardIndexBytes(f, map[string][]byte{"pytorch": sum}))
	f.Add([]byte{0x28, 0xb5, 0x2f, 0xfd})
	f.Fuzz(func(t *testing.T, b []byte) {
		idx, err := parseShardIndex(b)
		if err != nil {
			return
		}
		for name := range idx.Shards {
			if _, ok, err := idx.shardURL("http://c.test/cf/linux-64/repodata_shards.msgpack.zst", name); !ok && err == nil {
				t.Fatal("listed shard has no URL")
			}
		}
	})
}

func FuzzShard(f *testing.F) {
	f.Add(condaShard(f))
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, err := parseShard(b)
		if err != nil {
			return
		}
		for _, r := range recs {
			if r.Name == "" || r.Version == "" {
				t.Fatal("record without name or version")
			}
			r.sha256Hex()
		}
	})
}
