package envspec

import (
	"hash/maphash"
	"sync/atomic"
)

// strCache is a bounded table from strings to values that are immutable once
// made (a parsed Version, a parsed version-spec leaf), safe for concurrent
// use without locks. Entries sit in sets of two chosen by the string's hash:
// a lookup is a hash and at most two atomic loads, where a sync.Map walked a
// trie of interfaces, and the size is bounded by construction. A new entry
// goes first in its set and the one it displaces moves second, dropping the
// second: a string that keeps coming back stays, whatever else shares its
// set.
type strCache[V any] struct {
	seed maphash.Seed
	sets [][2]atomic.Pointer[strCacheEntry[V]]
}

type strCacheEntry[V any] struct {
	key string
	v   V
}

func newStrCache[V any](entries int) *strCache[V] {
	return &strCache[V]{seed: maphash.MakeSeed(), sets: make([][2]atomic.Pointer[strCacheEntry[V]], entries/2)}
}

func (c *strCache[V]) set(s string) *[2]atomic.Pointer[strCacheEntry[V]] {
	return &c.sets[maphash.String(c.seed, s)%uint64(len(c.sets))]
}

func (c *strCache[V]) get(s string) (v V, ok bool) {
	set := c.set(s)
	for w := range set {
		if e := set[w].Load(); e != nil && e.key == s {
			return e.v, true
		}
	}
	return v, false
}

// put stores v under key. key must not share memory with a larger string
// (clone it): the table would keep that string alive.
func (c *strCache[V]) put(key string, v V) {
	set := c.set(key)
	if old := set[0].Swap(&strCacheEntry[V]{key: key, v: v}); old != nil {
		set[1].Store(old)
	}
}
