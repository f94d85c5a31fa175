package limit

import (
	"sync"
	"time"
)

// clientShard is one locked part of a Clients table: a map from client
// hash to a slot in entries, and the slots linked from the most to the
// least recently seen. Links are slot numbers, not pointers, so the
// garbage collector has nothing to scan.
type clientShard struct {
	mu      sync.Mutex
	index   map[uint64]int32
	entries []clientEntry
	head    int32 // most recently seen, -1 when empty
	tail    int32 // least recently seen, -1 when empty
	limit   int
}

// clientEntry is one client's bucket: 24 bytes.
type clientEntry struct {
	key        uint64
	tat        int64 // GCRA arrival time, clock nanoseconds
	prev, next int32 // toward head, toward tail; -1 at the ends
}

func (s *clientShard) init(limit int) {
	s.index = make(map[uint64]int32)
	s.head, s.tail, s.limit = -1, -1, limit
}

// take applies rule to the client key at now: it returns how long the
// request must wait (0: it passes and is counted), and whether a client
// was evicted to make room.
func (s *clientShard) take(key uint64, now int64, rule gcra) (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, ok := s.index[key]
	evicted := false
	if ok {
		s.unlink(i)
	} else {
		i, evicted = s.slot(key)
	}
	s.pushFront(i)
	e := &s.entries[i]
	if wait := rule.wait(e.tat, now); wait > 0 {
		return wait, evicted
	}
	e.tat = rule.take(e.tat, now)
	return 0, evicted
}

// slot returns a fresh slot for key: a new one below the limit, else the
// least recently seen one, reused.
func (s *clientShard) slot(key uint64) (int32, bool) {
	if len(s.entries) < s.limit {
		s.entries = append(s.entries, clientEntry{key: key})
		i := int32(len(s.entries) - 1)
		s.index[key] = i
		return i, false
	}
	i := s.tail
	s.unlink(i)
	delete(s.index, s.entries[i].key)
	s.entries[i] = clientEntry{key: key}
	s.index[key] = i
	return i, true
}

func (s *clientShard) unlink(i int32) {
	e := &s.entries[i]
	if e.prev >= 0 {
		s.entries[e.prev].next = e.next
	} else {
		s.head = e.next
	}
	if e.next >= 0 {
		s.entries[e.next].prev = e.prev
	} else {
		s.tail = e.prev
	}
	e.prev, e.next = -1, -1
}

func (s *clientShard) pushFront(i int32) {
	e := &s.entries[i]
	e.prev, e.next = -1, s.head
	if s.head >= 0 {
		s.entries[s.head].prev = i
	}
	s.head = i
	if s.tail < 0 {
		s.tail = i
	}
}
