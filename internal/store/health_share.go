package store

import (
	"context"
	"fmt"
)

// maxNotifyPayload keeps payloads under PostgreSQL's NOTIFY limit (8000
// bytes).
const maxNotifyPayload = 7900

// PublishBackendHealth sends one backend health result (JSON, at most
// maxNotifyPayload bytes) to every instance's WatchBackendHealth, this
// one's included. With several instances one of them checks the backends
// (the health check job's leader) and shares what it sees this way.
// Delivery is best effort: a result missed while a listening connection
// is down is replaced by the next check.
func (s *Store) PublishBackendHealth(ctx context.Context, payload []byte) error {
	if len(payload) > maxNotifyPayload {
		return fmt.Errorf("store: backend health payload of %d bytes is over %d", len(payload), maxNotifyPayload)
	}
	return s.notify(ctx, backendHealthChannel, string(payload))
}

// WatchBackendHealth calls fn with every payload PublishBackendHealth
// sends, from any instance, until ctx ends; then it returns nil. fn runs
// on the watcher's goroutine; results arriving faster than fn handles them
// beyond a buffer are dropped.
func (s *Store) WatchBackendHealth(ctx context.Context, fn func(payload []byte)) error {
	sub, unsubscribe := s.subscribe(backendHealthChannel, 1024)
	defer unsubscribe()
	for {
		select {
		case <-ctx.Done():
			return nil
		case p := <-sub.payloads:
			fn([]byte(p))
		case <-sub.missed:
		}
	}
}
