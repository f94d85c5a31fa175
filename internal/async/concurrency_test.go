package async

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// concurrently runs n calls of f at once and counts the statuses.
func concurrently(n int, f func(i int) int) map[int]int {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		start = make(chan struct{})
		got   = map[int]int{}
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			st := f(i)
			mu.Lock()
			got[st]++
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	return got
}

// TestAsyncExactlyOnce: 100 concurrent duplicate callbacks of one
// execution give exactly one 200 and 99 409 S2R-RUN-0431, and one stored
// result; 20 concurrent polls with one token give one 200.
func TestAsyncExactlyOnce(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s := newStack(t, st)
		be := newBackend(t)
		s.onboard("calc", be.srv.URL+"/calc", cbSecret, "add")
		acc := s.start("calc", "add", `{"a":1,"b":2}`)

		got := concurrently(20, func(int) int {
			a, _ := s.poll(acc.PollPath, acc.PollToken)
			return a.Status
		})
		if got[http.StatusOK] != 1 || got[http.StatusUnauthorized] != 19 {
			t.Fatalf("20 polls with one token: %v", got)
		}

		got = concurrently(100, func(i int) int {
			cb := callback11(relatesTo(acc.CorrelationID), addResponse(itoa(i)))
			return s.c.For(t).Send("POST", "/_s2r/callback/dev/calc/add", "", "text/xml", []byte(cb),
				"X-S2R-Callback-Secret", cbSecret).Status
		})
		if got[http.StatusOK] != 1 || got[http.StatusConflict] != 99 {
			t.Fatalf("100 duplicate callbacks: %v", got)
		}
		e := s.execution(acc.CorrelationID)
		if e.Status != model.AsyncCompleted || e.Result == nil {
			t.Fatalf("execution %+v", e)
		}
		// The stored callback is the one whose result was stored.
		var winner string
		for i := range 100 {
			if string(e.Result) == `{"result":`+itoa(i)+`}` {
				winner = itoa(i)
			}
		}
		if winner == "" || string(e.Callback) != callback11(relatesTo(acc.CorrelationID), addResponse(winner)) {
			t.Errorf("result %s and callback %s disagree", e.Result, e.Callback)
		}
	})
}

// TestAsyncTwoInstances: two instances on one PostgreSQL database; an
// execution started through A is completed by a callback to B and polled
// through A, and the sweeper runs on one instance at a time.
func TestAsyncTwoInstances(t *testing.T) {
	cfg := storetest.PostgresConfig(t)
	// A leads the sweeper job: its first sweep, at start, takes the job's
	// lease before B exists (were B's first sweep first, B would keep the
	// job and A could never hold it below).
	a := newStack(t, storetest.Open(t, cfg))
	poll.Until(t, 10*time.Second, "A leads the sweeper", func() bool {
		for _, st := range a.st.JobStats() {
			if st.Name == sweepJob {
				return st.Leading
			}
		}
		return false
	})
	b := newStack(t, storetest.Open(t, cfg))
	be := newBackend(t)
	a.onboard("calc", be.srv.URL+"/calc", cbSecret, "add")
	acc := a.start("calc", "add", `{"a":20,"b":22}`)
	// B serves the route once its table has reloaded (LISTEN/NOTIFY).
	poll.Until(t, 10*time.Second, "instance B serves the callback", func() bool {
		r := b.callback("calc", "add", "text/xml", callback11(relatesTo(acc.CorrelationID), addResponse("42")),
			"X-S2R-Callback-Secret", cbSecret)
		return r.Status != http.StatusNotFound
	})
	ans, p := a.poll(acc.PollPath, acc.PollToken)
	if ans.WantStatus(t, http.StatusOK); p.Status != model.AsyncCompleted || string(p.Result) != `{"result":42}` {
		t.Fatalf("poll through A: %s", ans.Body)
	}
	// One token, two instances: one poll wins.
	got := concurrently(10, func(i int) int {
		s := a
		if i%2 == 1 {
			s = b
		}
		r, _ := s.poll(acc.PollPath, p.PollToken)
		return r.Status
	})
	if got[http.StatusOK] != 1 || got[http.StatusUnauthorized] != 9 {
		t.Errorf("10 polls with one token on two instances: %v", got)
	}
	// The sweeper: while A holds the job, B's run does nothing.
	sweeps := func() int64 {
		for _, st := range a.st.JobStats() {
			if st.Name == sweepJob {
				return st.Runs
			}
		}
		return 0
	}
	before := sweeps()
	held := make(chan struct{})
	release := make(chan struct{})
	go a.st.TryExclusive(context.Background(), sweepJob, func(context.Context) error {
		close(held)
		<-release
		return nil
	})
	<-held
	acc2 := a.start("calc", "add", `{"a":1,"b":1}`)
	b.clock.advance(48 * time.Hour)
	if n, _, err := b.x.Sweep(context.Background()); err != nil || n != 0 {
		t.Errorf("B swept %d (%v) while A held the job", n, err)
	}
	close(release)
	// A leads the job after its run (store.TryExclusive keeps the lease):
	// B still does nothing, A's next sweep expires it.
	poll.Until(t, 10*time.Second, "A's run is over", func() bool { return sweeps() > before })
	if n, _, err := b.x.Sweep(context.Background()); err != nil || n != 0 {
		t.Errorf("B swept %d (%v) while A leads the job", n, err)
	}
	a.clock.advance(48 * time.Hour)
	if n, _, err := a.x.Sweep(context.Background()); err != nil || n != 1 {
		t.Errorf("A, the job's leader, swept %d (%v), want 1", n, err)
	}
	if e := a.execution(acc2.CorrelationID); e.Status != model.AsyncExpired {
		t.Errorf("swept execution is %s", e.Status)
	}
}
