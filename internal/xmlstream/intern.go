package xmlstream

import (
	"sync"
	"unsafe"
)

// Strings in tokens come from three places, so that reading a document
// allocates almost nothing:
//
//   - names and namespace URIs are interned: first in a small per-Reader
//     direct-mapped cache, then in a bounded process-wide table (names
//     repeat across the documents of one service); attribute values are
//     never put in the shared table, since they may carry user data;
//   - other attribute values are copied into an append-only arena of byte
//     chunks and viewed as strings. Arena bytes are never written again
//     once a string views them (Reset starts after the used part or on a
//     fresh chunk), so these strings are as immutable as any other; a kept
//     string keeps its chunk (at most arenaChunk bytes) alive.

// Slots of the per-Reader caches (powers of two).
const (
	nameCacheSize  = 256
	valueCacheSize = 32
	uriCacheSize   = 16
)

// maxShared bounds the process-wide tables so hostile documents with many
// distinct names cannot grow them without limit; past it, misses allocate.
// Only short entries go there (maxSharedName, maxSharedURI bytes), so the
// tables hold at most a few megabytes whatever documents arrive.
const (
	maxShared     = 16384
	maxSharedName = 128
	maxSharedURI  = 256
)

// maxCachedValue is the longest attribute value looked up in the value
// cache.
const maxCachedValue = 32

// arenaChunk is the size of one arena chunk; the first one is smaller so
// that small documents stay cheap.
const (
	arenaChunk      = 4096
	arenaFirstChunk = 512
)

type valueSlot struct{ v string }

// caches are the per-Reader lookup caches. They hold only immutable
// strings and interned names, so a Reader that reached the end of its
// document (or an error) hands them to the next Reader through cachePool:
// small documents then start warm instead of zeroing and refilling them.
type caches struct {
	names  [nameCacheSize]*qname
	uris   [uriCacheSize]valueSlot
	values [valueCacheSize]valueSlot
}

var cachePool = sync.Pool{New: func() any { return new(caches) }}

// releaseCaches returns the caches to the pool once the document is done.
func (r *Reader) releaseCaches() {
	if r.c != nil {
		cachePool.Put(r.c)
		r.c = nil
	}
}

var shared = struct {
	sync.RWMutex
	names map[string]*qname
	uris  map[string]string
}{names: make(map[string]*qname), uris: make(map[string]string)}

// FNV-1a, a cheap hash for short names and values; scanName computes the
// same hash as it goes.
const (
	hashInit  = 2166136261
	hashPrime = 16777619
)

func hashBytes(b []byte) uint32 {
	h := uint32(hashInit)
	for _, c := range b {
		h = (h ^ uint32(c)) * hashPrime
	}
	return h
}

// lookupQName returns the cached split of raw, if known.
func (r *Reader) lookupQName(raw []byte, h uint32) *qname {
	slot := &r.c.names[h%nameCacheSize]
	if q := *slot; q != nil && q.raw == string(raw) {
		return q
	}
	shared.RLock()
	q := shared.names[string(raw)]
	shared.RUnlock()
	if q != nil {
		*slot = q
	}
	return q
}

// storeQName records a validated name whose colon is at index colon (or
// -1), sharing one allocation for the name and its parts.
func (r *Reader) storeQName(raw []byte, h uint32, colon int) *qname {
	s := string(raw)
	q := &qname{raw: s, local: s}
	if colon >= 0 {
		q.prefix, q.local = s[:colon], s[colon+1:]
	}
	r.c.names[h%nameCacheSize] = q
	if len(s) <= maxSharedName {
		shared.Lock()
		if len(shared.names) < maxShared {
			shared.names[s] = q
		}
		shared.Unlock()
	}
	return q
}

// internURI returns a namespace URI as a string.
func (r *Reader) internURI(b []byte) string {
	if len(b) > maxSharedURI {
		return string(b)
	}
	slot := &r.c.uris[hashBytes(b)%uriCacheSize]
	if slot.v == string(b) && (slot.v != "" || len(b) == 0) {
		return slot.v
	}
	shared.RLock()
	s, ok := shared.uris[string(b)]
	shared.RUnlock()
	if !ok {
		s = string(b)
		shared.Lock()
		if len(shared.uris) < maxShared {
			shared.uris[s] = s
		}
		shared.Unlock()
	}
	slot.v = s
	return s
}

// valueString returns an attribute value as a string, sharing short
// repeated values and copying the rest into the arena.
func (r *Reader) valueString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	var slot *valueSlot
	if len(b) <= maxCachedValue {
		slot = &r.c.values[hashBytes(b)%valueCacheSize]
		if slot.v == string(b) {
			return slot.v
		}
	}
	s := r.arenaString(b)
	if slot != nil {
		slot.v = s
	}
	return s
}

// arenaString copies b into the arena and returns a string viewing it.
func (r *Reader) arenaString(b []byte) string {
	if len(b) > arenaChunk/4 {
		return string(b)
	}
	if cap(r.arena)-len(r.arena) < len(b) {
		size := arenaChunk
		if r.arena == nil && len(b) <= arenaFirstChunk {
			size = arenaFirstChunk
		}
		r.arena = make([]byte, 0, size)
	}
	start := len(r.arena)
	r.arena = append(r.arena, b...)
	view := r.arena[start:len(r.arena):len(r.arena)]
	return unsafe.String(unsafe.SliceData(view), len(view))
}
