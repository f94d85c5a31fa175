package resilience

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/loadgen"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// recoveryWindow is how soon after a dependency is back requests must
// succeed again, without a restart of s2r.
const recoveryWindow = 5 * time.Second

// timeline records answers by the time they arrived, per stream.
type timeline struct {
	mu      sync.Mutex
	answers []answer
}

type answer struct {
	at     time.Time
	stream string
	r      reply
	ok     bool
}

func (tl *timeline) add(stream string, r reply, ok bool) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	tl.answers = append(tl.answers, answer{at: time.Now(), stream: stream, r: r, ok: ok})
}

// between returns the answers of stream that arrived in [from, to).
func (tl *timeline) between(stream string, from, to time.Time) []answer {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	var out []answer
	for _, a := range tl.answers {
		if a.stream == stream && !a.at.Before(from) && a.at.Before(to) {
			out = append(out, a)
		}
	}
	return out
}

// recovered returns how long after back stream answered ok with nothing
// but ok answers after it, and false when it never settled.
func (tl *timeline) recovered(stream string, back time.Time) (time.Duration, bool) {
	as := tl.between(stream, back, time.Now().Add(time.Hour))
	settled := -1
	for i, a := range as {
		if !a.ok {
			settled = -1
		} else if settled < 0 {
			settled = i
		}
	}
	if settled < 0 {
		return 0, false
	}
	return as[settled].at.Sub(back), true
}

// codes summarises answers as "status code" counts.
func codes(as []answer) string {
	n := map[string]int{}
	for _, a := range as {
		k := "ok"
		if !a.ok {
			k = fmt.Sprintf("%d %s", a.r.status, a.r.code())
			if a.r.err != nil {
				k = "transport error"
			}
		}
		n[k]++
	}
	var parts []string
	for k, v := range n {
		parts = append(parts, fmt.Sprintf("%s x%d", k, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// TestBackendDeath stops the SOAP backend of two publish services under
// load, one without health checks (the circuit breaker alone) and one with
// tcp checks every 5 s: while it is down every call fails cleanly with a
// 502/503/504 S2R-RUN- code, never a 500 or a dropped connection; once it
// listens again calls succeed within recoveryWindow (the checked one
// within its check interval plus a second), with s2r left running.
func TestBackendDeath(t *testing.T) {
	t.Parallel()
	calc := startCalc(t)
	in := startInstance(t, "s2r")
	plain := onboardCalc(t, in.base, "calc", calc.url(), nil)
	checked := onboardCalc(t, in.base, "calchc", calc.url(), map[string]any{
		"backendHealthCheckMode": "tcp", "backendHealthCheckIntervalSec": 5})
	tl := &timeline{}
	ctx, cancel := context.WithCancel(context.Background())
	var loads []*sync.WaitGroup
	for _, s := range []calcService{plain, checked} {
		loads = append(loads, publishLoad(ctx, 2, s, func() string { return in.base }, func(r reply, a, b int) {
			tl.add(s.Key, r, addOK(r, a, b))
		}))
	}
	defer func() {
		cancel()
		for _, wg := range loads {
			wg.Wait()
		}
	}()
	time.Sleep(time.Second)
	calc.stop()
	down := time.Now()
	time.Sleep(4 * time.Second)
	calc.start()
	back := time.Now()
	time.Sleep(recoveryWindow + 2*time.Second)
	cancel()
	for _, wg := range loads {
		wg.Wait()
	}

	for _, s := range []calcService{plain, checked} {
		during := tl.between(s.Key, down.Add(200*time.Millisecond), back)
		t.Logf("%s while the backend was down: %s", s.Key, codes(during))
		for _, a := range during {
			if !a.ok && !cleanRuntimeFailure(a.r) {
				t.Errorf("%s while down: %s", s.Key, a.r)
			}
		}
		if len(during) == 0 || during[len(during)-1].ok {
			t.Errorf("%s: no failure while the backend was down", s.Key)
		}
		window := recoveryWindow
		if s.Key == checked.Key {
			window = 6 * time.Second // the 5 s check interval and the 1 s tick
		}
		took, ok := tl.recovered(s.Key, back)
		t.Logf("%s after the backend came back: %s; all ok after %v", s.Key, codes(tl.between(s.Key, back, time.Now())), took)
		if !ok || took > window {
			t.Errorf("%s: not all calls succeed within %v of the backend's return (settled: %v after %v)", s.Key, window, ok, took)
		}
	}
}

// cleanRuntimeFailure reports whether a failed runtime answer is one the
// spec names for an unavailable backend: 502, 503 or 504 with an
// S2R-RUN- code (S2R-RUN-0502, -0503, -0529, -0424).
func cleanRuntimeFailure(r reply) bool {
	switch r.status {
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return r.err == nil && strings.HasPrefix(r.code(), "S2R-RUN-")
	}
	return false
}

// TestPostgresRestartUnderLoad stops s2r's PostgreSQL server under load
// (publish calls, async publish calls, ingest batches, admin writes and
// reads, readiness probes), first cleanly then as a crash, and starts it
// again: while it is down publish keeps serving from the compiled route
// table, async publish (which stores an execution) answers 503
// S2R-RUN-0503, ingest 503 S2R-ING-0503, admin calls 503 S2R-ADM-0503 and
// /health/ready 503; within recoveryWindow of its return
// everything succeeds again, a configuration change is served, the
// transaction recorder writes again and the background jobs run again,
// all without restarting s2r.
func TestPostgresRestartUnderLoad(t *testing.T) {
	t.Parallel()
	cluster := storetest.StartCluster(t)
	dbURL := cluster.DatabaseURL("s2r")
	calc := startCalc(t)
	in := startInstance(t, "s2r", "S2R_DATABASE_URL="+dbURL)
	svc := onboardCalc(t, in.base, "calc", calc.url(), nil)
	probe := onboardCalc(t, in.base, "probe", calc.url(), nil) // changed after each restart
	asyncSvc := onboardAsyncCalc(t, in.base, "calcasync", calc.url())
	token, gen := ingestToken(t, in.base), loadgen.New(loadgen.Config{Services: 1})
	mustAdmin(t, in.base, "PATCH", "/settings", map[string]any{"alert_evaluation_interval_seconds": 5}, http.StatusOK)

	tl := &timeline{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	loop := func(stream string, pause time.Duration, fn func(i int) (reply, bool)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				r, ok := fn(i)
				tl.add(stream, r, ok)
				time.Sleep(pause)
			}
		}()
	}
	pub := publishLoad(ctx, 2, svc, func() string { return in.base }, func(r reply, a, b int) { tl.add("publish", r, addOK(r, a, b)) })
	loop("async-publish", 20*time.Millisecond, func(int) (reply, bool) {
		r := asyncSvc.add(in.base, 1, 2)
		return r, r.status == http.StatusAccepted
	})
	loop("ingest", 20*time.Millisecond, func(i int) (reply, bool) {
		r := postIngest(in.base, token, newIngestBatch(t, gen, i, 10))
		return r, r.status == http.StatusOK
	})
	loop("admin-write", 20*time.Millisecond, func(i int) (reply, bool) {
		r := admin(in.base, "POST", "/services", map[string]any{"serviceKey": fmt.Sprintf("pg-%d-%d", time.Now().UnixNano(), i),
			"serviceName": "x", "environment": "pg"})
		return r, r.status == http.StatusCreated
	})
	loop("admin-read", 20*time.Millisecond, func(int) (reply, bool) {
		r := admin(in.base, "GET", "/services/"+svc.ServiceID, nil)
		return r, r.status == http.StatusOK
	})
	loop("ready", 50*time.Millisecond, func(int) (reply, bool) {
		r := call("GET", in.base+"/health/ready", nil)
		return r, r.status == http.StatusOK
	})
	defer func() {
		cancel()
		wg.Wait()
		pub.Wait()
	}()

	for _, mode := range []string{"fast", "immediate"} {
		time.Sleep(time.Second)
		cluster.Stop(mode)
		down := time.Now()
		time.Sleep(2 * time.Second)
		runsBefore := jobRuns(t, in.base)["alert-evaluation"]
		starting := time.Now()
		cluster.Start()
		back := time.Now()
		time.Sleep(recoveryWindow + time.Second)

		during := func(stream string) []answer { return tl.between(stream, down.Add(500*time.Millisecond), starting) }
		for _, a := range during("publish") {
			if !a.ok {
				t.Errorf("%s: publish while PostgreSQL was down: %s", mode, a.r)
			}
		}
		for stream, code := range map[string]string{"admin-write": "S2R-ADM-0503", "admin-read": "S2R-ADM-0503",
			"async-publish": "S2R-RUN-0503", "ingest": "S2R-ING-0503"} {
			as := during(stream)
			t.Logf("%s: %s while PostgreSQL was down: %s", mode, stream, codes(as))
			for _, a := range as {
				if a.r.status != http.StatusServiceUnavailable || a.r.code() != code {
					t.Errorf("%s: %s while PostgreSQL was down: %s, want 503 %s", mode, stream, a.r, code)
				}
			}
		}
		for _, a := range during("ready") {
			if a.r.status != http.StatusServiceUnavailable {
				t.Errorf("%s: /health/ready while PostgreSQL was down: %s", mode, a.r)
			}
		}
		for _, stream := range []string{"publish", "async-publish", "ingest", "admin-write", "admin-read", "ready"} {
			took, ok := tl.recovered(stream, back)
			t.Logf("%s: %s all ok %v after PostgreSQL's return (%s)", mode, stream, took, codes(tl.between(stream, back, time.Now())))
			if !ok || took > recoveryWindow {
				t.Errorf("%s: %s not all ok within %v of PostgreSQL's return", mode, stream, recoveryWindow)
			}
		}
		// A change made now is served: the revision watcher listens again.
		changed := time.Now()
		mustAdmin(t, in.base, "PATCH", "/services/"+probe.ServiceID, map[string]any{
			"envelopeWrapOverride": map[string]any{"dataField": mode}}, http.StatusOK)
		poll.UntilOK(t, 2*time.Second, mode+": change served", func() string {
			if r := probe.add(in.base, 1, 1); !strings.HasPrefix(string(r.body), `{"`+mode+`":`) {
				return r.String()
			}
			return ""
		})
		t.Logf("%s: change served %v after it was made", mode, time.Since(changed))
		// The recorder writes again: a new call shows in the runtime logs.
		cid := "after-" + mode
		call("POST", in.base+"/publish/dev/calc/add", `{"a":1,"b":2}`, "X-Correlation-Id", cid)
		poll.UntilOK(t, recoveryWindow, mode+": runtime log written", func() string {
			r := admin(in.base, "GET", "/runtime-logs?correlationId="+cid, nil)
			if len(listItems(r)) != 1 {
				return r.String()
			}
			return ""
		})
		// Jobs run again (alert evaluation every 5 s; none could run while
		// the database was down).
		poll.UntilOK(t, 10*time.Second, mode+": alert evaluation runs again", func() string {
			if n := jobRuns(t, in.base)["alert-evaluation"]; n <= runsBefore {
				return fmt.Sprintf("runs %v, before the stop %v", n, runsBefore)
			}
			return ""
		})
	}
}
