package async

import (
	"net/http"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// TestAsyncExpiry: expiresAt follows async_callback_ttl_seconds; past it
// a poll or callback is 410 S2R-RUN-0410 (the execution becomes expired
// at once), the sweeper expires the others, and retention removes
// finished executions after default_retention_days.
func TestAsyncExpiry(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s := newStack(t, st)
		be := newBackend(t)
		s.onboard("calc", be.srv.URL+"/calc", "", "add")
		s.admin("PATCH", "/settings", rootEmail, map[string]any{"async_callback_ttl_seconds": 60}).WantStatus(t, http.StatusOK)
		poll.Until(t, 10*time.Second, "ttl reloaded", func() bool { return s.x.ttl() == time.Minute })

		acc := s.start("calc", "add", `{"a":1,"b":2}`)
		if d := acc.ExpiresAt.Sub(s.clock.now()); d < 50*time.Second || d > 61*time.Second {
			t.Fatalf("expiresAt %v is %v away, want about 60s", acc.ExpiresAt, d)
		}
		other := s.start("calc", "add", `{"a":1,"b":2}`)
		s.clock.advance(2 * time.Minute)
		s.pollAnswer(acc.PollPath, acc.PollToken).WantError(t, http.StatusGone, "S2R-RUN-0410")
		if e := s.execution(acc.CorrelationID); e.Status != model.AsyncExpired {
			t.Errorf("overdue execution polled: %s", e.Status)
		}
		s.pollAnswer(acc.PollPath, "wrong").WantError(t, http.StatusUnauthorized, "S2R-RUN-0401")
		s.callback("calc", "add", "text/xml", callback11(relatesTo(acc.CorrelationID), addResponse("3"))).
			WantError(t, http.StatusGone, "S2R-RUN-0410")
		s.callback("calc", "add", "text/xml", callback11(relatesTo(other.CorrelationID), addResponse("3"))).
			WantError(t, http.StatusGone, "S2R-RUN-0410")

		third := s.start("calc", "add", `{"a":1,"b":2}`)
		s.clock.advance(2 * time.Minute)
		expired, removed, err := s.x.Sweep(t.Context())
		if err != nil || expired != 1 || removed != 0 {
			t.Fatalf("sweep: expired %d, removed %d, %v", expired, removed, err)
		}
		if e := s.execution(third.CorrelationID); e.Status != model.AsyncExpired || e.FinishedAt == nil {
			t.Errorf("swept execution %+v", e)
		}
		s.clock.advance(31 * 24 * time.Hour)
		fresh := s.start("calc", "add", `{"a":1,"b":2}`)
		if _, removed, err = s.x.Sweep(t.Context()); err != nil || removed != 3 {
			t.Fatalf("retention removed %d, %v", removed, err)
		}
		if e := s.execution(fresh.CorrelationID); e.Status != model.AsyncWaiting {
			t.Errorf("fresh execution %+v", e)
		}
	})
}
