package routing

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// TestReloaderWaitRevision: WaitRevision returns once a table of the
// revision or a later one is swapped in, ErrLoadFailed when a load begun
// after the call fails, and the context's error when it ends first.
func TestReloaderWaitRevision(t *testing.T) {
	var rev atomic.Int64
	var fail atomic.Bool
	r := NewReloader(ReloaderConfig{Load: func(context.Context) (*Table, error) {
		if fail.Load() {
			return nil, errors.New("store unreadable")
		}
		return NewTable(rev.Load(), nil, nil), nil
	}})
	ctx := context.Background()
	rev.Store(3)
	if err := r.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	if err := r.WaitRevision(ctx, 3); err != nil || r.Revision() != 3 {
		t.Fatalf("revision reached: %v (table %d)", err, r.Revision())
	}

	// A wait for a revision a load is about to reach ends with that load.
	rev.Store(5)
	done := make(chan error, 1)
	go func() { done <- r.WaitRevision(ctx, 5) }()
	select {
	case err := <-done:
		t.Fatalf("returned %v before the table reached revision 5", err)
	case <-time.After(20 * time.Millisecond):
	}
	if err := r.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Errorf("wait for 5: %v", err)
	}

	// A load begun after the wait that fails ends it at once. Loads
	// repeat until it ends: the first may begin before the wait does.
	fail.Store(true)
	go func() { done <- r.WaitRevision(ctx, 6) }()
	deadline := time.After(5 * time.Second)
wait:
	for {
		r.Reload(ctx)
		select {
		case err := <-done:
			if !errors.Is(err, ErrLoadFailed) {
				t.Errorf("wait through a failed load = %v, want ErrLoadFailed", err)
			}
			break wait
		case <-deadline:
			t.Fatal("failed loads did not end the wait")
		case <-time.After(10 * time.Millisecond):
		}
	}

	// Nothing loads: the context ends the wait.
	tctx, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
	defer cancel()
	if err := r.WaitRevision(tctx, 7); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("wait with no load = %v, want the deadline", err)
	}
	if r.Revision() != 5 {
		t.Errorf("table revision = %d, want 5", r.Revision())
	}
}
