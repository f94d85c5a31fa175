package resilience

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// propagationWindow is how soon a change made through one instance must
// be served by every instance.
const propagationWindow = 2 * time.Second

// failoverWindow is how soon another instance must take over a background
// job from an instance that was killed.
const failoverWindow = 30 * time.Second

// jobKind is one background job of s2r, by its store.TryExclusive name.
// Every job is one entry of jobKinds; the scale-out test checks them all.
type jobKind struct {
	name string
	// every is how often the job runs in the test (the settings below);
	// jobs of an hour run at start and are only checked for "one at a
	// time", not for moving within failoverWindow.
	every time.Duration
	// late: the first run comes after this test is over (it is checked
	// for "one at a time" if it runs).
	late bool
}

// jobKinds are the background jobs of s2r as of this branch.
var jobKinds = []jobKind{
	{name: "backend-health-checks", every: time.Second},   // a round per second; each backend at its interval
	{name: "alert-evaluation", every: 5 * time.Second},    // alert_evaluation_interval_seconds
	{name: "async-expiry", every: 10 * time.Second},       // the sweeper's period
	{name: "traffic-aggregation", every: 5 * time.Second}, // aggregation_interval_seconds
	{name: "runtime-tx-retention", every: time.Hour},
	{name: "bad-url-prune", every: time.Hour},
	{name: "discovery-retention", every: time.Hour, late: true}, // first run a minute after start
}

// jobSettings makes the periodic jobs run often enough to be watched.
var jobSettings = map[string]any{"alert_evaluation_interval_seconds": 5, "aggregation_interval_seconds": 5}

// roundRobin is a loopback reverse proxy that sends each request to the
// next live instance, as a load balancer would.
type roundRobin struct {
	mu   sync.Mutex
	live []*instance
	next int
	srv  *httptest.Server
}

func newRoundRobin(t *testing.T, ins []*instance) *roundRobin {
	rr := &roundRobin{live: slices.Clone(ins)}
	rp := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		u, _ := url.Parse(rr.pick().base)
		r.SetURL(u)
		r.Out.Host = r.In.Host
	}}
	rr.srv = httptest.NewServer(rp)
	t.Cleanup(rr.srv.Close)
	return rr
}

func (rr *roundRobin) pick() *instance {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	in := rr.live[rr.next%len(rr.live)]
	rr.next++
	return in
}

// remove takes an instance out of the rotation.
func (rr *roundRobin) remove(in *instance) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	rr.live = slices.DeleteFunc(rr.live, func(x *instance) bool { return x == in })
}

func (rr *roundRobin) instances() []*instance {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	return slices.Clone(rr.live)
}

// TestScaleOut runs three instances of s2r on one PostgreSQL database
// behind a round-robin proxy, then kills them one by one (three, two,
// then one instance left). At each stage: a change made through the proxy
// is served by every instance within propagationWindow (LISTEN/NOTIFY;
// once with every LISTEN session terminated by the server, so the
// re-established listener and the poll carry it); every background job
// runs on exactly one instance at a time (s2r_job_leader and
// s2r_job_runs_total per instance); after a kill another instance takes
// each frequent job within failoverWindow; the backend health checks run
// on one instance only (the backend sees one instance's probes) and every
// instance sees their results.
func TestScaleOut(t *testing.T) {
	t.Parallel()
	cfg := storetest.PostgresConfig(t)
	env := []string{"S2R_DATABASE_URL=" + cfg.URL}
	calc, probed := startCalc(t), startCalc(t)
	ins := []*instance{startInstance(t, "s2r-1", env...)}
	mustAdmin(t, ins[0].base, "PATCH", "/settings", jobSettings, http.StatusOK)
	ins = append(ins, startInstance(t, "s2r-2", env...), startInstance(t, "s2r-3", env...))
	rr := newRoundRobin(t, ins)

	// Onboarding through the proxy: each call reaches another instance.
	calcSvc := onboardCalc(t, rr.srv.URL, "calc", calc.url(), nil)
	hc := onboardCalc(t, rr.srv.URL, "hc", probed.url(), map[string]any{
		"backendHealthCheckMode": "tcp", "backendHealthCheckIntervalSec": 5})
	_ = calcSvc

	w := &jobWatch{t: t}
	stop := w.start(rr)
	defer stop()

	for stage := 0; stage < 3; stage++ {
		live := rr.instances()
		t.Logf("stage %d: %d instances", stage+1, len(live))
		checkPropagation(t, rr, calcSvc, fmt.Sprintf("s%d", stage), false)
		if stage == 0 {
			n := storetest.TerminateListeners(t, cfg.URL)
			t.Logf("terminated %d LISTEN sessions", n)
			checkPropagation(t, rr, calcSvc, "relisten", true)
		}
		checkSharedHealth(t, live, hc, probed)
		if stage == 2 {
			break
		}
		// Kill the instance leading the health checks (the first one
		// started leads every job at first).
		victim := w.leaderOf("backend-health-checks")
		if victim == nil {
			t.Fatal("no instance leads the health checks")
		}
		leading := w.leads(victim)
		t.Logf("killing %s, leader of %v", victim.name, leading)
		rr.remove(victim)
		w.forget(victim)
		victim.kill()
		killed := time.Now()
		for _, j := range jobKinds {
			if j.every > failoverWindow || !slices.Contains(leading, j.name) {
				continue
			}
			poll.UntilOK(t, failoverWindow-time.Since(killed), j.name+" taken over", func() string {
				if _, ok := w.firstRunSince(j.name, killed); !ok {
					return "no run since the kill"
				}
				return ""
			})
			first, _ := w.firstRunSince(j.name, killed)
			t.Logf("%s taken over by %s: first run sampled %v after the kill", j.name, first.in.name, first.at.Sub(killed))
		}
	}
	stop()
	w.report()
}

// checkPropagation changes the success envelope of svc through the proxy
// and waits until every instance serves it.
func checkPropagation(t *testing.T, rr *roundRobin, svc calcService, field string, relisten bool) {
	t.Helper()
	changed := time.Now()
	mustAdmin(t, rr.srv.URL, "PATCH", "/services/"+svc.ServiceID,
		map[string]any{"envelopeWrapOverride": map[string]any{"dataField": field}}, http.StatusOK)
	window := propagationWindow
	if relisten {
		// The listener reconnects within 100 ms; the 2 s poll is the bound.
		window += 500 * time.Millisecond
	}
	for _, in := range rr.instances() {
		poll.UntilOK(t, window, in.name+" serves "+field, func() string {
			if r := svc.add(in.base, 1, 2); !strings.HasPrefix(string(r.body), `{"`+field+`":`) {
				return r.String()
			}
			return ""
		})
		t.Logf("%s serves the change %v after it was made (%s)", in.name, time.Since(changed), field)
	}
}

// checkSharedHealth checks that the probed backend sees the checks of one
// instance (a tcp check every 5 s) and that every instance shows them.
func checkSharedHealth(t *testing.T, live []*instance, hc calcService, probed *calcBackend) {
	t.Helper()
	for _, in := range live {
		poll.UntilOK(t, 12*time.Second, in.name+" shows hc checked", func() string {
			var h struct {
				Backends []struct{ Checked, Healthy bool }
			}
			r := admin(in.base, "GET", "/services/"+hc.ServiceID+"/backend-health", nil)
			r.decode(t, &h)
			if len(h.Backends) != 1 || !h.Backends[0].Checked || !h.Backends[0].Healthy {
				return r.String()
			}
			return ""
		})
	}
	// One prober checks every 5 to 6 s (1 s tick): 1 or 2 connections in
	// 6.5 s; every instance checking would make 3 or more.
	before := probed.conns.Load()
	time.Sleep(6500 * time.Millisecond)
	n := probed.conns.Load() - before
	t.Logf("%d instances: the hc backend got %d connections in 6.5 s", len(live), n)
	if n < 1 || n > 2 {
		t.Errorf("%d instances: %d health check connections in 6.5 s, want 1 or 2 (one instance checking every 5 s)", len(live), n)
	}
}

// jobWatch samples every instance's job metrics twice a second and checks
// that no two instances lead or run the same job in one sample.
type jobWatch struct {
	t    *testing.T
	mu   sync.Mutex
	last map[*instance]map[string]float64 // runs at the last sample
	runs map[string][]jobRun              // by job
	lead map[string]map[*instance]bool    // leaders at the last sample
	seen map[string]map[string]bool       // job -> instances that ever ran it
	dead map[*instance]bool
}

type jobRun struct {
	at time.Time
	in *instance
}

func (w *jobWatch) start(rr *roundRobin) (stop func()) {
	w.last, w.runs, w.lead, w.seen, w.dead = map[*instance]map[string]float64{}, map[string][]jobRun{},
		map[string]map[*instance]bool{}, map[string]map[string]bool{}, map[*instance]bool{}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			w.sample(rr.instances())
			select {
			case <-done:
				return
			case <-time.After(500 * time.Millisecond):
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done); wg.Wait() }) }
}

func (w *jobWatch) sample(live []*instance) {
	now := time.Now()
	leaders := map[string][]string{}
	runners := map[string][]string{}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, in := range live {
		if w.dead[in] {
			continue
		}
		runs, lead := jobRuns(w.t, in.base), jobLeaders(w.t, in.base)
		if runs == nil {
			continue // being killed
		}
		for job, v := range lead {
			if v == 1 {
				leaders[job] = append(leaders[job], in.name)
				if w.lead[job] == nil {
					w.lead[job] = map[*instance]bool{}
				}
			}
		}
		for job, n := range runs {
			if prev, ok := w.last[in][job]; ok && n > prev || !ok && n > 0 {
				runners[job] = append(runners[job], in.name)
				w.runs[job] = append(w.runs[job], jobRun{now, in})
				if w.seen[job] == nil {
					w.seen[job] = map[string]bool{}
				}
				w.seen[job][in.name] = true
			}
		}
		w.last[in] = runs
		for job := range w.lead {
			w.lead[job][in] = lead[job] == 1
		}
	}
	for job, l := range leaders {
		if len(l) > 1 {
			w.t.Errorf("%s led by %v at once", job, l)
		}
	}
	for job, r := range runners {
		if len(r) > 1 {
			w.t.Errorf("%s ran on %v within one half-second sample", job, r)
		}
	}
}

// forget stops sampling an instance about to be killed.
func (w *jobWatch) forget(in *instance) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.dead[in] = true
	for job := range w.lead {
		delete(w.lead[job], in)
	}
}

func (w *jobWatch) leaderOf(job string) *instance {
	w.mu.Lock()
	defer w.mu.Unlock()
	for in, l := range w.lead[job] {
		if l && !w.dead[in] {
			return in
		}
	}
	return nil
}

// leads returns the jobs in leads.
func (w *jobWatch) leads(in *instance) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for job, m := range w.lead {
		if m[in] {
			out = append(out, job)
		}
	}
	sort.Strings(out)
	return out
}

// firstRunSince returns the first sampled run of job by a live instance
// after t.
func (w *jobWatch) firstRunSince(job string, t time.Time) (jobRun, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, r := range w.runs[job] {
		if r.at.After(t) && !w.dead[r.in] {
			return r, true
		}
	}
	return jobRun{}, false
}

// report logs which instances ran each job, and fails for a job that
// never ran.
func (w *jobWatch) report() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, j := range jobKinds {
		var names []string
		for n := range w.seen[j.name] {
			names = append(names, n)
		}
		sort.Strings(names)
		w.t.Logf("%s ran on %v (one at a time), %d sampled runs", j.name, names, len(w.runs[j.name]))
		if len(names) == 0 && !j.late {
			w.t.Errorf("%s never ran", j.name)
		}
	}
}
