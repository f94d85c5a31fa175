package admin

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/store"
)

// LocalRuntime is this instance's route table as the admin API sees it:
// the configuration revision it was built from, and a wait for a newer
// one. routing.Reloader implements it; s2r serve hands it to admin, which
// does not import the runtime.
type LocalRuntime interface {
	// Revision returns the configuration revision of the table in service.
	Revision() int64
	// WaitRevision returns nil once the table in service was built from
	// revision rev or later; an error when its reload failed or ctx ended
	// first.
	WaitRevision(ctx context.Context, rev int64) error
}

// DefaultRuntimeWait bounds how long an admin write waits for the local
// route table to take its change before answering anyway.
const DefaultRuntimeWait = 5 * time.Second

// Headers of an admin write that changed the configuration:
// the revision it committed and the revision of the route table this
// instance serves when it answers. The second is lower only when the
// runtime did not catch up within the wait (a failed reload, a slow one,
// or the request ended).
const (
	HeaderConfigRevision  = "X-S2R-Config-Revision"
	HeaderRuntimeRevision = "X-S2R-Runtime-Revision"
)

// readYourWrites makes an admin write answer only once this instance's
// route table serves what it committed: every configuration change
// committed with the request's context is noted (store.NoteCommits), and
// the first byte of the answer waits, at most s.runtimeWait, until the
// local table is built from that revision. A caller that gets the answer
// and calls the runtime on the same instance is served the change; other
// instances catch up on their own (docs/architecture.md). A wait that
// ends without the change still answers, as the change did commit, and
// says so in HeaderRuntimeRevision and the log.
func (s *server) readYourWrites(h apierr.AdminHandlerFunc) apierr.AdminHandlerFunc {
	if s.runtime == nil {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) error {
		ctx, commits := store.NoteCommits(r.Context())
		sw := &syncWriter{ResponseWriter: w, s: s, r: r, commits: commits}
		err := h(sw, r.WithContext(ctx))
		if err == nil {
			sw.catchUp() // a handler that wrote nothing: net/http answers 200 next
		}
		return err
	}
}

// syncWriter holds the answer of an admin write until the local runtime
// caught up (readYourWrites).
type syncWriter struct {
	http.ResponseWriter
	s       *server
	r       *http.Request
	commits *store.Commits
	done    bool
}

func (w *syncWriter) WriteHeader(code int) {
	if code >= http.StatusOK { // informational answers go first
		w.catchUp()
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *syncWriter) Write(b []byte) (int, error) {
	w.catchUp()
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *syncWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// catchUp waits, once, for the local route table to reach the highest
// revision the request committed, and sets the revision headers.
func (w *syncWriter) catchUp() {
	if w.done {
		return
	}
	w.done = true
	rev := w.commits.Revision()
	if rev == 0 {
		return
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(w.r.Context(), w.s.runtimeWait)
	err := w.s.runtime.WaitRevision(ctx, rev)
	cancel()
	served := w.s.runtime.Revision()
	h := w.Header()
	h.Set(HeaderConfigRevision, strconv.FormatInt(rev, 10))
	h.Set(HeaderRuntimeRevision, strconv.FormatInt(served, 10))
	if err != nil {
		why := err.Error()
		if errors.Is(err, context.DeadlineExceeded) {
			why = "the route table did not reload within " + w.s.runtimeWait.String()
		}
		w.s.log.Warn("admin write answered before this instance's route table took it; the runtime serves it after the next successful reload",
			"method", w.r.Method, "path", w.r.URL.Path, "configRevision", rev, "runtimeRevision", served,
			"waited", time.Since(start).String(), "reason", why)
	}
}
