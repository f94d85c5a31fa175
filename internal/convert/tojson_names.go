package convert

import (
	"unsafe"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// The reader interns element names: each occurrence of a qualified name
// in a document (and across documents) carries the same local-name and
// namespace strings. memberCache remembers which member a name resolved
// to in a type, keyed by those strings' addresses, so that a child
// element is matched by comparing pointers instead of string bytes
// (profiles showed the name comparisons, issue 27). A miss falls back to
// the string comparisons; a hit is exact since strings are immutable and
// the slot keeps the ones it compares to alive.

const (
	memberCacheBits = 6
	memberCacheSize = 1 << memberCacheBits
)

type memberSlot struct {
	local, space string
	tp           *typePlan
	idx          int
}

type memberCache [memberCacheSize]memberSlot

// slot returns the cache slot of name n. The reader packs the names of
// a document a few bytes apart: a multiplicative hash spreads them.
func (c *memberCache) slot(n xmlstream.Name) *memberSlot {
	p := uint64(uintptr(unsafe.Pointer(unsafe.StringData(n.Local))))
	return &c[p*0x9E3779B97F4A7C15>>(64-memberCacheBits)]
}

// lookup returns the member of tp that n resolved to before (never for a
// nil cache).
func (c *memberCache) lookup(tp *typePlan, n xmlstream.Name) (int, bool) {
	if c == nil {
		return 0, false
	}
	s := c.slot(n)
	if s.tp == tp && sameString(s.local, n.Local) && sameString(s.space, n.Space) {
		return s.idx, true
	}
	return 0, false
}

// store records that n resolved to member idx of tp.
func (c *memberCache) store(tp *typePlan, n xmlstream.Name, idx int) {
	if c == nil {
		return
	}
	*c.slot(n) = memberSlot{local: n.Local, space: n.Space, tp: tp, idx: idx}
}

// sameString reports whether a and b are the same string in memory.
func sameString(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}
