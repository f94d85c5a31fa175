package observe

import (
	"context"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestRecordedTrafficMarksTheService checks that recording a service's
// transactions sets its lastTrafficAt (the services list's traffic filter
// reads it), and that later records move it only once a minute has passed.
func TestRecordedTrafficMarksTheService(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
		svc := model.Service{ServiceID: "s1", ServiceKey: "calc", ServiceName: "Calc", Environment: "dev",
			Direction: model.DirectionPublish, Status: model.ServiceActive, BackendRoutingMode: model.RoutingSingle,
			BackendHealthCheckMode: model.HealthCheckNone, BackendHealthCheckIntervalSec: 30,
			FaultDetailExposureMode: model.FaultDetailSafe, CallbackAuthMode: model.CallbackAuthNone,
			CreatedAt: at, UpdatedAt: at}
		if err := s.Transact(ctx, func(tx *store.Tx) error { return tx.CreateService(ctx, svc) }); err != nil {
			t.Fatal(err)
		}
		r, _ := newRecorder(t, Config{Store: s})
		started(t, r)
		lastTraffic := func() *time.Time {
			got, err := s.Service(ctx, "s1")
			if err != nil {
				t.Fatal(err)
			}
			return got.LastTrafficAt
		}

		seen := at.Add(time.Hour)
		for i, when := range []time.Time{seen.Add(-time.Second), seen} {
			rec := record(i, when)
			rec.ServiceID = "s1"
			r.Record(rec)
		}
		waitFor(t, "lastTrafficAt set", func() bool { lt := lastTraffic(); return lt != nil && lt.Equal(seen) })

		// Within a minute of the last mark: no write.
		rec := record(3, seen.Add(30*time.Second))
		rec.ServiceID = "s1"
		r.Record(rec)
		waitFor(t, "record written", func() bool { return r.Stats().Written == 3 })
		if lt := lastTraffic(); !lt.Equal(seen) {
			t.Errorf("lastTrafficAt = %v after a record 30s later, want it kept at %v", lt, seen)
		}
		// A minute on, it moves.
		later := seen.Add(2 * time.Minute)
		rec = record(4, later)
		rec.ServiceID = "s1"
		r.Record(rec)
		waitFor(t, "lastTrafficAt moved", func() bool { lt := lastTraffic(); return lt != nil && lt.Equal(later) })
	})
}
