package wssec

import (
	"context"
	"sync"
	"time"
)

// NonceStore remembers UsernameToken nonces so that a replayed one is
// refused. The caller provides it; the gateway's implementation is shared
// by every instance.
type NonceStore interface {
	// NonceSeen records nonce until the given time and reports whether it
	// was already recorded and had not yet expired. nonce is an opaque
	// key of 64 hex digits (a hash of the username and the Nonce).
	NonceSeen(ctx context.Context, nonce string, until time.Time) (bool, error)
}

// MemoryNonces is a NonceStore for one process (tests, single instances).
// It holds at most Max nonces (default 100000): when full, expired ones
// are dropped and, if none has expired, the store refuses new nonces by
// reporting them as seen.
type MemoryNonces struct {
	Max int
	Now func() time.Time // time.Now when nil

	mu   sync.Mutex
	seen map[string]time.Time
}

var _ NonceStore = (*MemoryNonces)(nil)

// NonceSeen implements NonceStore.
func (m *MemoryNonces) NonceSeen(_ context.Context, nonce string, until time.Time) (bool, error) {
	now := time.Now()
	if m.Now != nil {
		now = m.Now()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.seen == nil {
		m.seen = make(map[string]time.Time)
	}
	if exp, ok := m.seen[nonce]; ok && exp.After(now) {
		return true, nil
	}
	if len(m.seen) >= m.max() {
		for n, exp := range m.seen {
			if !exp.After(now) {
				delete(m.seen, n)
			}
		}
		if len(m.seen) >= m.max() {
			return true, nil
		}
	}
	m.seen[nonce] = until
	return false, nil
}

func (m *MemoryNonces) max() int {
	if m.Max > 0 {
		return m.Max
	}
	return 100000
}
