package discovery

import (
	"context"
	"maps"
	"sync"
	"time"
)

// lastSeen keeps, in memory, when each instance last had a batch stored,
// and is written to ingest_instances every SeenFlushInterval: updating
// the instance row inside every ingest transaction would make concurrent
// batches of one instance queue on that row. Freshness is judged in
// minutes, so seconds of delay do not matter.
type lastSeen struct {
	mu      sync.Mutex
	pending map[string]time.Time
}

func newLastSeen() *lastSeen { return &lastSeen{pending: map[string]time.Time{}} }

// event records that instance had events stored at t.
func (l *lastSeen) event(instance string, t time.Time) {
	l.mu.Lock()
	if t.After(l.pending[instance]) {
		l.pending[instance] = t
	}
	l.mu.Unlock()
}

// take returns and clears the pending times.
func (l *lastSeen) take() map[string]time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.pending) == 0 {
		return nil
	}
	out := maps.Clone(l.pending)
	clear(l.pending)
	return out
}

// putBack returns times that could not be written, keeping newer ones.
func (l *lastSeen) putBack(m map[string]time.Time) {
	for id, t := range m {
		l.event(id, t)
	}
}

// flushSeen writes the pending last-seen times.
func (s *Service) flushSeen(ctx context.Context) {
	m := s.seen.take()
	if m == nil {
		return
	}
	if err := s.cfg.Store.TouchIngestInstances(ctx, m); err != nil {
		s.seen.putBack(m)
		if ctx.Err() == nil {
			s.log.Warn("discovery: instance last-seen times not written", "error", err.Error())
		}
	}
}

// flushSeenLoop flushes every SeenFlushInterval until ctx ends, then once
// more (bounded) so a clean shutdown loses nothing.
func (s *Service) flushSeenLoop(ctx context.Context) {
	t := time.NewTicker(s.cfg.SeenFlushInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			s.flushSeen(fctx)
			cancel()
			return
		case <-t.C:
			s.flushSeen(ctx)
		}
	}
}

// snapshot returns a copy of the pending times.
func (l *lastSeen) snapshot() map[string]time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return maps.Clone(l.pending)
}
