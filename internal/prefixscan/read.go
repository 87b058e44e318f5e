package prefixscan

import (
	"encoding/json"
	"fmt"

	"github.com/envguard/envguard/internal/cache"
	"github.com/envguard/envguard/native"
)

// cacheFormat changes whenever what a cached Library holds changes (which
// symbols are kept, native's fields), so that an older entry is a miss.
const cacheFormat = "prefixscan-v1"

// manifestKey names the manifest of one prefix.
func manifestKey(dir string) cache.Key {
	return cache.NewKey().AddString(cacheFormat).AddString("manifest").AddString(dir).Key()
}

// entryBase is the key an entry was made under: the format, whether its
// symbols were read, and the file's inode and device (size and mtime are
// the entry's own), so that a file replaced by another of the same size
// and time (a reinstall) is a miss.
func entryBase(k native.FileKey, symbols bool) cache.Key {
	return cache.NewKey().AddString(cacheFormat).AddString(fmt.Sprint(symbols)).
		AddString(fmt.Sprint(k.Inode)).AddString(fmt.Sprint(k.Device)).Key()
}

// readAll reads every library found, from the cache where its entry is
// fresh, and saves the run's entries.
func (s *scanner) readAll() []*native.Library {
	out := make([]*native.Library, len(s.found))
	var m *cache.Manifest
	if s.opt.Cache != nil {
		m, _ = s.opt.Cache.Load(manifestKey(s.dir)) // a bad manifest is empty: every file a miss
	}
	recs := make([]cache.Record, 0, len(s.found))
	for i, f := range s.found {
		owner := s.ownerOf(s.rel(f.Path))
		if m != nil {
			if e, ok := m.Get(f.Path); ok && m.Fresh(e, f.Key.Size, f.Key.ModTime) {
				var l native.Library
				if json.Unmarshal(e.Value, &l) == nil && (e.Base == entryBase(f.Key, false) || e.Base == entryBase(f.Key, true)) &&
					(e.Base == entryBase(f.Key, true)) == needsSymbols(owner, &l) {
					out[i] = &l
					recs = append(recs, cache.Record{Path: f.Path, Entry: e})
					continue
				}
			}
		}
		l, err := native.ReadFile(f.Path)
		if err != nil {
			s.unread("%v", err)
			continue
		}
		sym := needsSymbols(owner, l)
		if sym {
			if l, err = (native.Options{Symbols: true}).ReadFile(f.Path); err != nil {
				s.unread("%v", err)
				continue
			}
			keepTorchSymbols(l)
		}
		out[i] = l
		if s.opt.Cache != nil {
			if v, err := json.Marshal(l); err == nil {
				// The sum is of the file's key, not its bytes: a library is
				// read by its headers, never whole (libtorch_cuda is 1 GB).
				recs = append(recs, cache.Record{Path: f.Path, Entry: cache.Entry{
					Size: f.Key.Size, ModTime: f.Key.ModTime, Base: entryBase(f.Key, sym),
					Sum: cache.SumOf([]byte(fmt.Sprintf("%+v", f.Key))), Value: v}})
			}
		}
	}
	if s.opt.Cache != nil && (m == nil || changed(m, recs)) {
		_ = s.opt.Cache.Save(manifestKey(s.dir), recs, nil) // a cache that cannot be written costs only time
	}
	return out
}

// changed reports whether a run's records differ from the manifest's, so
// that a run that read nothing anew writes nothing.
func changed(m *cache.Manifest, recs []cache.Record) bool {
	if m.Len() != len(recs) {
		return true
	}
	for _, r := range recs {
		e, ok := m.Get(r.Path)
		if !ok || e.Size != r.Size || e.ModTime != r.ModTime || e.Base != r.Base {
			return true
		}
	}
	return false
}
