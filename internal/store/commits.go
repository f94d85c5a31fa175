package store

import (
	"context"
	"sync/atomic"
)

// Commits collects the configuration revisions committed with one context:
// the admin API gives each write request one (NoteCommits) so that, once
// the handler has committed, it knows which revision the runtime must
// reach before the answer reads as written (docs/architecture.md, "The
// life of an admin write").
type Commits struct {
	rev atomic.Int64
}

type commitsKey struct{}

// NoteCommits returns ctx carrying a fresh Commits: every transaction run
// with it (or a context derived from it) that bumps the configuration
// revision and commits records that revision there.
func NoteCommits(ctx context.Context) (context.Context, *Commits) {
	c := &Commits{}
	return context.WithValue(ctx, commitsKey{}, c), c
}

// Revision returns the highest configuration revision committed with the
// context, 0 when none was.
func (c *Commits) Revision() int64 { return c.rev.Load() }

// noteCommit records rev, just committed with ctx, in ctx's Commits if it
// carries one.
func noteCommit(ctx context.Context, rev int64) {
	c, ok := ctx.Value(commitsKey{}).(*Commits)
	if !ok {
		return
	}
	for {
		cur := c.rev.Load()
		if rev <= cur || c.rev.CompareAndSwap(cur, rev) {
			return
		}
	}
}
