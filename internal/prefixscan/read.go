package prefixscan

import (
	"bytes"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/envguard/envguard/internal/cache"
	"github.com/envguard/envguard/native"
	"github.com/envguard/envguard/resolver"
)

// cacheFormat changes whenever what a cached Library holds changes (which
// symbols are kept, native's fields), so that an older entry is a miss.
// v2: entries in codec.go's layout, not JSON, with the torch exports as
// hashes; the walk cache in the aux bytes; the ctime in the key.
// v3: each fatbin entry written against the one before it (codec.go).
const cacheFormat = "prefixscan-v3"

// manifestKey names the manifest of one prefix.
func manifestKey(dir string) cache.Key {
	return cache.NewKey().AddString(cacheFormat).AddString("manifest").AddString(dir).Key()
}

// entryBase is the key an entry was made under: the format, whether its
// symbols were read, and the file's inode, device and ctime (size and
// mtime are the entry's own), so that a file replaced by another of the
// same size and time (a reinstall), or rewritten and given its old mtime
// back, is a miss.
func entryBase(k native.FileKey, symbols bool) cache.Key {
	return cache.NewKey().AddString(cacheFormat).AddString(fmt.Sprint(symbols)).
		AddString(fmt.Sprint(k.Inode)).AddString(fmt.Sprint(k.Device)).AddString(fmt.Sprint(k.ChangeTime)).Key()
}

// library is one library as a run has it: what native read, and the
// hashes of its torch exports (resolver.BinaryLibrary.TorchExports).
type library struct {
	lib     *native.Library
	exports resolver.SymbolHashes
}

// readAll reads every library found, from the cache where its entry is
// fresh, and saves the run's entries.
func (s *scanner) readAll() []library {
	out := make([]library, len(s.found))
	m := s.m
	recs := make([]cache.Record, len(s.found))
	// The cached entries are decoded by several goroutines, each over its
	// own stride of the libraries with its own decoder: a second run of the
	// H200 venv decodes 21,000 fatbin entries, which one goroutine did
	// alone while the machine's other cores idled. Each result lands at
	// its own index; what is read here (the manifest, the owners) is not
	// written until every decoder is done.
	hit := make([]bool, len(s.found))
	if m != nil {
		var wg sync.WaitGroup
		n := min(decoders, max(1, len(s.found)/64))
		for w := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				dec := newDecoder()
				for i := w; i < len(s.found); i += n {
					out[i], recs[i], hit[i] = s.cached(dec, s.found[i])
				}
			}()
		}
		wg.Wait()
	}
	var misses []int
	for i := range s.found {
		if !hit[i] {
			misses = append(misses, i)
		}
	}
	// Misses are read by a bounded pool: a cold read waits on the disk,
	// and several in flight keep its queue full. Each result lands at its
	// own index, so the order (and so the verdict) is the walk's.
	errs := make([]error, len(s.found))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(readers, len(misses)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				out[i], recs[i], errs[i] = s.readOne(s.found[i])
			}
		}()
	}
	for _, i := range misses {
		work <- i
	}
	close(work)
	wg.Wait()
	kept := recs[:0]
	for i := range s.found {
		if errs[i] != nil {
			s.unread("%v", errs[i])
		}
		if recs[i].Path != "" { // a hit, or a fresh read to be cached
			kept = append(kept, recs[i])
		}
	}
	recs = kept
	if s.opt.Cache != nil {
		// A run that read nothing anew writes nothing.
		if aux := s.tree.encode(); changed(m, recs) || !bytes.Equal(aux, m.Aux()) {
			_ = s.opt.Cache.Save(manifestKey(s.dir), recs, aux) // a cache that cannot be written costs only time
		}
	}
	return out
}

// cached returns a library from its cache entry, if the entry is fresh
// for the file's key and was made with the symbols the library needs.
func (s *scanner) cached(dec *decoder, f native.Found) (library, cache.Record, bool) {
	e, ok := s.m.Get(f.Path)
	if !ok || !s.m.Fresh(e, f.Key.Size, f.Key.ModTime) {
		return library{}, cache.Record{}, false
	}
	// Most libraries are read without symbols: that base first, one hash
	// for them.
	sym := e.Base != entryBase(f.Key, false)
	if sym && e.Base != entryBase(f.Key, true) {
		return library{}, cache.Record{}, false
	}
	l, ex, err := dec.decodeLibrary(e.Value)
	if err != nil || sym != needsSymbols(s.ownerOf(s.rel(f.Path)), l) {
		return library{}, cache.Record{}, false
	}
	return library{l, ex}, cache.Record{Path: f.Path, Entry: e}, true
}

// decoders bounds the goroutines that decode cached entries.
var decoders = max(1, runtime.GOMAXPROCS(0))

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

// readers bounds the libraries read at once: enough to keep a disk's queue
// busy, few enough that the symbol tables of torch's libraries read
// together stay within check's memory goal.
const readers = 8

// readOne reads one library afresh: headers, and the dynamic symbols where
// EG211 needs them, kept to torch's namespaces: the imports by name, the
// exports by hash. The symbols are read as native.Options.EachSymbol
// streams them, so a torch library's tables are never held whole. The
// record is its cache entry (no Path where there is no cache).
func (s *scanner) readOne(f native.Found) (library, cache.Record, error) {
	l, err := native.ReadFile(f.Path)
	if err != nil {
		return library{}, cache.Record{}, err
	}
	var exports resolver.SymbolHashes
	sym := needsSymbols(s.ownerOf(s.rel(f.Path)), l)
	if sym {
		var imports []native.Symbol
		var hashes []uint64
		each := func(r native.SymbolRef) {
			switch {
			case !torchNamespace(r.Name):
			case r.Import:
				imports = append(imports, native.Symbol{Name: string(r.Name), Weak: r.Weak})
			default:
				hashes = append(hashes, resolver.TorchSymbolHash(r.Name))
			}
		}
		if _, err := (native.Options{EachSymbol: each}).ReadFile(f.Path); err != nil {
			return library{}, cache.Record{}, err
		}
		slices.SortFunc(imports, func(a, b native.Symbol) int { return strings.Compare(a.Name, b.Name) })
		slices.Sort(hashes)
		if exports = resolver.HashesOf(slices.Compact(hashes)); exports == nil {
			exports = resolver.SymbolHashes{}
		}
		l.Imports = imports
	}
	if s.opt.Cache == nil {
		return library{l, exports}, cache.Record{}, nil
	}
	v := encodeLibrary(l, exports)
	// The sum is of the file's key, not its bytes: a library is read by
	// its headers, never whole (libtorch_cuda is 1 GB).
	return library{l, exports}, cache.Record{Path: f.Path, Entry: cache.Entry{
		Size: f.Key.Size, ModTime: f.Key.ModTime, Base: entryBase(f.Key, sym),
		Sum: cache.SumOf([]byte(fmt.Sprintf("%+v", f.Key))), Value: v}}, nil
}
