package main

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/klauspost/compress/zstd"
	"github.com/vmihailenco/msgpack/v5"
)

// CEP 16 sharded repodata: <channel>/<subdir>/repodata_shards.msgpack.zst
// is a zstd-compressed msgpack map {version, info{base_url,
// shards_base_url, subdir}, shards{name: sha256 bytes}}; each package's
// shard is <shards_base_url><hex sha256>.msgpack.zst, a map {packages,
// packages.conda: {filename: record}, removed}.

type shardIndex struct {
	Version int `msgpack:"version"`
	Info    struct {
		BaseURL       string `msgpack:"base_url"`
		ShardsBaseURL string `msgpack:"shards_base_url"`
		Subdir        string `msgpack:"subdir"`
	} `msgpack:"info"`
	Shards map[string][]byte `msgpack:"shards"`
}

type condaRecord struct {
	Name        string   `msgpack:"name"`
	Version     string   `msgpack:"version"`
	Build       string   `msgpack:"build"`
	BuildNumber int64    `msgpack:"build_number"`
	Depends     []string `msgpack:"depends"`
	Constrains  []string `msgpack:"constrains"`
	Subdir      string   `msgpack:"subdir"`
	Timestamp   int64    `msgpack:"timestamp"` // ms since the epoch (some old rows: s)
	SHA256      any      `msgpack:"sha256"`    // bytes per CEP 16; a hex string tolerated
	Filename    string   `msgpack:"-"`
}

type shard struct {
	Packages      map[string]condaRecord `msgpack:"packages"`
	PackagesConda map[string]condaRecord `msgpack:"packages.conda"`
	Removed       []string               `msgpack:"removed"`
}

// maxDecoded bounds a decompressed shard: a zstd frame can claim any size.
const maxDecoded = 256 << 20

func unzstd(data []byte) ([]byte, error) {
	d, err := zstd.NewReader(bytes.NewReader(data), zstd.WithDecoderMaxMemory(maxDecoded), zstd.WithDecoderConcurrency(1))
	if err != nil {
		return nil, fmt.Errorf("zstd: %v", err)
	}
	defer d.Close()
	out, err := io.ReadAll(io.LimitReader(d, maxDecoded+1))
	if err != nil {
		return nil, fmt.Errorf("zstd: %v", err)
	}
	if len(out) > maxDecoded {
		return nil, fmt.Errorf("zstd: decompressed data exceeds %d bytes", maxDecoded)
	}
	return out, nil
}

func parseShardIndex(data []byte) (*shardIndex, error) {
	raw, err := unzstd(data)
	if err != nil {
		return nil, fmt.Errorf("shard index: %v", err)
	}
	var idx shardIndex
	if err := msgpack.Unmarshal(raw, &idx); err != nil {
		return nil, fmt.Errorf("shard index: msgpack: %v", err)
	}
	if idx.Version != 1 {
		return nil, fmt.Errorf("shard index: version %d, want 1 (CEP 16)", idx.Version)
	}
	for name, sum := range idx.Shards {
		if len(sum) != 32 {
			return nil, fmt.Errorf("shard index: shard %q has a %d-byte hash, want a 32-byte sha256", name, len(sum))
		}
	}
	return &idx, nil
}

// shardURL is where name's shard lives, relative to the index's URL.
func (idx *shardIndex) shardURL(indexURL, name string) (string, bool, error) {
	sum, ok := idx.Shards[name]
	if !ok {
		return "", false, nil
	}
	base := idx.Info.ShardsBaseURL
	if base == "" {
		base = "./shards/"
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	b, err := resolveURL(indexURL, base)
	if err != nil {
		return "", true, fmt.Errorf("shard index: shards_base_url %q: %v", base, err)
	}
	u, err := resolveURL(b, hex.EncodeToString(sum)+".msgpack.zst")
	return u, true, err
}

func parseShard(data []byte) ([]condaRecord, error) {
	raw, err := unzstd(data)
	if err != nil {
		return nil, fmt.Errorf("shard: %v", err)
	}
	var s shard
	if err := msgpack.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("shard: msgpack: %v", err)
	}
	var out []condaRecord
	for _, m := range []map[string]condaRecord{s.Packages, s.PackagesConda} {
		for fn, r := range m {
			if r.Name == "" || r.Version == "" {
				return nil, fmt.Errorf("shard: record %q lacks name or version", fn)
			}
			r.Filename = fn
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Filename < out[j].Filename })
	return out, nil
}

// sha256Hex is a record's sha256 as hex, whichever way it was encoded.
func (r condaRecord) sha256Hex() string {
	switch v := r.SHA256.(type) {
	case []byte:
		return hex.EncodeToString(v)
	case string:
		return strings.ToLower(v)
	}
	return ""
}
