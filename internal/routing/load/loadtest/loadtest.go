// Package loadtest is a test helper: the route reloader of a real store
// as s2r serve builds it, for the tests of what reads its settings
// snapshot (the recorder, aggregation, discovery, alerts).
package loadtest

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/routing"
	routeload "github.com/s2r-project/s2r/internal/routing/load"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// Follow returns the route reloader of st: loaded once, then following
// the configuration revision by itself (in-process nudge, LISTEN/NOTIFY,
// a 2 s poll, as in s2r serve) until the test ends.
func Follow(t testing.TB, st *store.Store) *routing.Reloader {
	t.Helper()
	r := routeload.NewReloader(routeload.Config{Store: st, Logger: slog.New(slog.DiscardHandler)}, 2*time.Second)
	if err := r.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return r
}

// CaughtUp waits until r holds the table, and so the settings snapshot,
// of st's current revision. It does not reload r: r follows the revision
// by itself, and CaughtUp fails the test when it has not within 10 s.
func CaughtUp(t testing.TB, st *store.Store, r *routing.Reloader) {
	t.Helper()
	rev, err := st.Revision(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 10*time.Second, "the settings snapshot of the current revision", func() bool {
		return r.Table().Revision() >= rev
	})
}
