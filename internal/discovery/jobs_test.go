package discovery_test

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/loadgen"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// runService runs svc's background jobs until the test ends.
func runService(t *testing.T, svc *discovery.Service) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
}

// TestMatcherFollowsTheRouteTable: with the revision poll an hour away,
// a service onboarded through the admin API still re-matches the rows at
// once, because discovery wakes when the route table's snapshot is
// replaced.
func TestMatcherFollowsTheRouteTable(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		e := newEnv(t, st, withRevisionPoll(time.Hour))
		runService(t, e.svc)
		f5 := e.register("f5", "bigip-1", "")
		e.send(f5.Token, tx("/publish/dev/ledger/post", "10.1.0.1", time.Now().UTC().Add(-time.Minute), 1, false))
		var svc model.Service
		e.admin("POST", "/services", operatorEmail, `{"serviceKey":"ledger","environment":"dev"}`).WantStatus(t, 201).Decode(t, &svc)
		poll.Until(t, 10*time.Second, "the row re-matched without the poll", func() bool {
			return e.rowByURI("/publish/dev/ledger/post").OnboardedServiceID == svc.ServiceID
		})
	})
}

// TestOnboardedServicesMatch onboards services through the admin API
// while traffic flows: rows move from shadow services to the service
// their URI matches (s2r's runtime path, or the backend endpoint's path),
// and events stored after that carry the service's environment and key.
func TestOnboardedServicesMatch(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		e := newEnv(t, st)
		runService(t, e.svc)
		f5 := e.register("f5", "bigip-1", "")
		now := time.Now().UTC().Add(-time.Minute)
		e.send(f5.Token, append(tx("/CalcService/Calc.asmx", "10.1.0.1", now, 1, false),
			tx("/publish/dev/orders/getOrder", "10.1.0.1", now, 2, false)...))
		if r := e.rowByURI("/calcservice/calc.asmx"); r.OnboardedServiceID != "" || r.Environment != "discovered" {
			t.Fatalf("before onboarding %+v", r)
		}
		var svc, orders model.Service
		e.admin("POST", "/services", operatorEmail, `{"serviceKey":"calc","environment":"prod"}`).WantStatus(t, 201).Decode(t, &svc)
		e.admin("POST", "/services/"+svc.ServiceID+"/backend-profiles", operatorEmail,
			`{"name":"main","endpointUrl":"http://10.0.0.5:8080/CalcService/calc.asmx?x=1"}`).WantStatus(t, 201)
		e.admin("POST", "/services", operatorEmail, `{"serviceKey":"orders","environment":"dev"}`).WantStatus(t, 201).Decode(t, &orders)
		poll.Until(t, 10*time.Second, "rows re-matched", func() bool {
			return e.rowByURI("/calcservice/calc.asmx").OnboardedServiceID == svc.ServiceID &&
				e.rowByURI("/publish/dev/orders/getorder").OnboardedServiceID == orders.ServiceID
		})
		r := e.rowByURI("/calcservice/calc.asmx")
		if r.Environment != "prod" || r.ServiceKey != "calc" {
			t.Errorf("matched row %+v", r)
		}
		if got := e.rows(adminEmail, "?onboarded=true"); got.TotalItems != 2 {
			t.Errorf("onboarded rows %d", got.TotalItems)
		}
		e.send(f5.Token, tx("/calcservice/CALC.asmx/", "10.1.0.1", now, 3, false))
		ctx := context.Background()
		var env, key string
		err := st.Transact(ctx, func(tx *store.Tx) error {
			return tx.QueryRow(ctx, "SELECT environment, service_key FROM lb_events WHERE uri = '/calcservice/CALC.asmx/' LIMIT 1").Scan(&env, &key)
		})
		if err != nil || env != "prod" || key != "calc" {
			t.Errorf("new event carries %q %q (%v)", env, key, err)
		}
		// A deprecated (soft-deleted) service matches nothing any more.
		e.admin("DELETE", "/services/"+svc.ServiceID, operatorEmail, "").WantStatus(t, 200)
		poll.Until(t, 10*time.Second, "row back to a shadow service", func() bool {
			return e.rowByURI("/calcservice/calc.asmx").OnboardedServiceID == ""
		})
	})
}

func TestFreshness(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		var clock atomic.Pointer[time.Time]
		start := time.Now().UTC()
		clock.Store(&start)
		now := func() time.Time { return *clock.Load() }
		e := newEnv(t, st, withClock(now))
		f5 := e.register("f5", "bigip-1", "")
		kong := e.register("kong", "kong-1", "")
		revoked := e.register("f5", "old", "")
		e.admin("DELETE", "/ingest-instances/"+revoked.InstanceID, adminEmail, "").WantStatus(t, 204)
		ctx := context.Background()

		fr, err := e.svc.Freshness(ctx, start, 60)
		if err != nil {
			t.Fatal(err)
		}
		if fr.F5IngestStale || fr.AnyStale || len(fr.Instances) != 2 || fr.StaleMinutes != 60 || len(fr.UrgentIssues) != 0 {
			t.Errorf("fresh registration %+v", fr)
		}
		// f5 sends traffic; kong heartbeats; 61 minutes later f5 is stale.
		e.send(f5.Token, tx("/calc", "10.1.0.1", start.Add(-time.Second), 1, false))
		e.ingest(discovery.PathHeartbeat, kong.Token, nil).WantStatus(t, 200)
		later := start.Add(61 * time.Minute)
		fr, err = e.svc.Freshness(ctx, later, 60)
		if err != nil {
			t.Fatal(err)
		}
		if !fr.F5IngestStale || !fr.AnyStale || len(fr.UrgentIssues) != 2 {
			t.Fatalf("an hour on %+v", fr)
		}
		for _, in := range fr.Instances {
			if in.LastSeenAt == nil || !in.Stale {
				t.Errorf("instance %+v", in)
			}
		}
		if fr.UrgentIssues[0].Severity != "critical" && fr.UrgentIssues[1].Severity != "critical" {
			t.Errorf("issues %+v", fr.UrgentIssues)
		}
		// A heartbeat at that time makes f5 fresh again.
		clock.Store(&later)
		e.ingest(discovery.PathHeartbeat, f5.Token, nil).WantStatus(t, 200)
		fr, err = e.svc.Freshness(ctx, later.Add(time.Minute), 60)
		if err != nil {
			t.Fatal(err)
		}
		if fr.F5IngestStale || len(fr.UrgentIssues) != 1 || fr.UrgentIssues[0].Vendor != "kong" {
			t.Errorf("after heartbeat %+v", fr)
		}
	})
}

func TestRetention(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		e := newEnv(t, st)
		f5 := e.register("f5", "bigip-1", "")
		kong := e.register("kong", "kong-1", "")
		now := time.Now().UTC()
		old := now.Add(-40 * 24 * time.Hour)
		e.send(f5.Token, append(tx("/old", "10.1.0.1", old, 1, true), tx("/new", "10.1.0.1", now, 2, true)...))
		e.send(kong.Token, []loadgen.GenericLog{
			{EventID: uuidN(1), Timestamp: old.Format(time.RFC3339), ServiceURI: "/old-generic", StatusCode: 200},
			{EventID: uuidN(2), Timestamp: now.Format(time.RFC3339), ServiceURI: "/new", StatusCode: 200},
		})
		n, err := e.svc.Retain(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if lb, gn := countEvents(t, st); lb != 4 || gn != 1 {
			t.Errorf("after retention %d lb events, %d generic logs (removed %d)", lb, gn, n)
		}
		rows := e.rows(adminEmail, "")
		if rows.TotalItems != 1 || rows.Items[0].ServiceURI != "/new" {
			t.Errorf("rows after retention %+v", rows.Items)
		}
	})
}

// TestRebuildRollupsMatchesIngest checks the two ways rollups are made
// agree: maintained batch by batch at ingest, and rebuilt from the stored
// events in SQL (after a bulk load).
func TestRebuildRollupsMatchesIngest(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		e := newEnv(t, st)
		f5 := e.register("f5", "bigip-1", "")
		kong := e.register("kong", "kong-1", "")
		gen := loadgen.New(loadgen.Config{Services: 6, ErrorRate: 0.2, Consumers: 4, Seed: 11})
		now := time.Now().UTC()
		for i := range 4 {
			e.send(f5.Token, gen.LBBatch(200, now.Add(-time.Duration(i)*37*time.Minute)))
			e.send(kong.Token, gen.GenericBatch(50, now.Add(-time.Duration(i)*53*time.Minute)))
		}
		snapshot := func() map[int64]string {
			out := map[int64]string{}
			for _, r := range e.rows(adminEmail, "?pageSize=200").Items {
				var dd discovery.DrillDown
				e.admin("GET", "/master-discovery/rows/"+strconv.FormatInt(r.RowID, 10)+"/drill-down?source=all&timelineDays=1",
					adminEmail, "").WantStatus(t, 200).Decode(t, &dd)
				dd.Row.FirstSeen, dd.Row.LastSeen = dd.Row.FirstSeen.Truncate(time.Millisecond), dd.Row.LastSeen.Truncate(time.Millisecond)
				dd.GoodExamples = nil
				out[r.RowID] = string(jsonOf(t, dd))
			}
			return out
		}
		before := snapshot()
		if err := st.RebuildDiscoveryRollups(context.Background(), now.Add(-3*time.Hour)); err != nil {
			t.Fatal(err)
		}
		after := snapshot()
		if len(before) < 6 {
			t.Fatalf("%d rows", len(before))
		}
		for id, b := range before {
			if after[id] != b {
				t.Errorf("row %d differs after the rebuild:\n%s\n%s", id, b, after[id])
			}
		}
	})
}
