package store_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// lbBatch returns n four-stage transactions (4n events) on two rows, the
// second transaction of each pair failing.
func lbBatch(t testing.TB, at time.Time, n int) *model.IngestBatch {
	return lbBatchRows(t, at, n, 0)
}

// lbBatchRows is lbBatch with extra rows /svc/0 … /svc/{extra-1} after
// the two; transaction i goes to row i % (2+extra).
func lbBatchRows(t testing.TB, at time.Time, n, extra int) *model.IngestBatch {
	t.Helper()
	b := &model.IngestBatch{TenantID: "default", InstanceID: "inst-1", InstanceVendor: "f5", ReceivedAt: at,
		Rows: []model.RowRef{
			{ServiceURI: "/calc/add", SampleURI: "/calc/add?x=1", Vendor: "f5", Environment: "discovered", ServiceKey: "/calc/add"},
			{ServiceURI: "/orders/{id}", SampleURI: "/orders/42", Vendor: "f5", Environment: "dev", ServiceKey: "orders", OnboardedServiceID: "svc-1"},
		}}
	for i := range extra {
		u := "/svc/" + strconv.Itoa(i)
		b.Rows = append(b.Rows, model.RowRef{ServiceURI: u, SampleURI: u, Vendor: "f5", Environment: "discovered", ServiceKey: u})
	}
	for i := range n {
		gtid := uuid.New()
		fail := i%2 == 1
		for s, stage := range []string{model.StageClientRequest, model.StageServerRequest, model.StageServerResponse, model.StageClientResponse} {
			e := model.LBEvent{EventID: uuid.New(), GlobalTransactionID: gtid, Row: i % len(b.Rows), Stage: stage,
				OccurredAt: at.Add(time.Duration(i*4+s) * time.Millisecond), ClientIP: fmt.Sprintf("10.0.0.%d", i%3+1),
				Method: "POST", Host: "api.example.com", URI: "/calc/add", StatusCode: 200, DurationMs: 12.5,
				ResultCode: "ok", Headers: `{"content-type":"text/xml"}`, Payload: "<x/>", PayloadBytes: 4}
			if stage == model.StageClientResponse && fail {
				e.StatusCode, e.ResultCode, e.Failure = 503, "no_backend", true
			}
			b.LB = append(b.LB, e)
		}
	}
	return b
}

func TestIngestIdempotentAndRollups(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		at := time.Date(2026, 11, 20, 10, 15, 0, 0, time.UTC)
		b := lbBatch(t, at, 10)
		// An id repeated within the batch is stored once.
		b.LB = append(b.LB, b.LB[0])
		res, err := st.Ingest(ctx, b, discovery.Rollups)
		if err != nil {
			t.Fatal(err)
		}
		if res.Stored != 40 || res.Duplicates != 1 {
			t.Fatalf("first ingest %+v, want 40 stored, 1 duplicate", res)
		}
		// The same batch again stores nothing and counts nothing twice.
		res, err = st.Ingest(ctx, b, discovery.Rollups)
		if err != nil {
			t.Fatal(err)
		}
		if res.Stored != 0 || res.Duplicates != 41 {
			t.Fatalf("repeat ingest %+v, want 0 stored, 41 duplicates", res)
		}
		rows, err := st.DiscoveryRows(ctx, model.DiscoveryRowFilter{TenantID: "default"}, at.Add(time.Hour), pageOf(50))
		if err != nil {
			t.Fatal(err)
		}
		if rows.TotalItems != 2 {
			t.Fatalf("rows %+v", rows)
		}
		for _, r := range rows.Items {
			// Five calls per row; the odd transactions (all on row 1) fail.
			wantErr := int64(0)
			if r.ServiceURI == "/orders/{id}" {
				wantErr = 5
			}
			if r.Calls24h != 5 || r.Errors24h != wantErr || r.LBInstanceID != "inst-1" || r.Vendor != "f5" {
				t.Errorf("row %+v", r)
			}
		}
	})
}

// TestIngestConcurrentDuplicates sends the same batches from several
// goroutines at once: every call succeeds and each event is stored once.
func TestIngestConcurrentDuplicates(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		at := time.Date(2026, 11, 20, 10, 15, 0, 0, time.UTC)
		batches := []*model.IngestBatch{lbBatch(t, at, 50), lbBatch(t, at, 50)}
		var (
			wg     sync.WaitGroup
			mu     sync.Mutex
			stored int
			errs   []error
		)
		for g := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := st.Ingest(ctx, batches[g%2], discovery.Rollups)
				mu.Lock()
				defer mu.Unlock()
				stored += res.Stored
				if err != nil {
					errs = append(errs, err)
				}
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		if stored != 400 {
			t.Errorf("stored %d events in all, want 400", stored)
		}
		rows, err := st.DiscoveryRows(ctx, model.DiscoveryRowFilter{TenantID: "default"}, at.Add(time.Hour), pageOf(50))
		if err != nil {
			t.Fatal(err)
		}
		var calls int64
		for _, r := range rows.Items {
			calls += r.Calls24h
		}
		if calls != 100 {
			t.Errorf("calls %d, want 100", calls)
		}
	})
}

func pageOf(n int) model.PageRequest { return model.PageRequest{Page: 1, PageSize: n} }

// BenchmarkIngestBatch stores 1,000-event batches (250 four-stage
// transactions on two rows) directly, without HTTP: the store's share of
// ingest.
func BenchmarkIngestBatch(b *testing.B) {
	for _, db := range []struct {
		name string
		open func(testing.TB) *store.Store
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		b.Run(db.name, func(b *testing.B) {
			st := db.open(b)
			at := time.Now().UTC()
			batches := make([]*model.IngestBatch, b.N)
			for i := range batches {
				batches[i] = lbBatchRows(b, at.Add(time.Duration(i)*time.Second), 250, 48)
				for j := range batches[i].LB {
					batches[i].LB[j].Payload = string(make([]byte, 0)) + strings.Repeat("x", 512*(j%2))
				}
			}
			b.ResetTimer()
			for i := range b.N {
				if _, err := st.Ingest(context.Background(), batches[i], discovery.Rollups); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*1000)/b.Elapsed().Seconds(), "events/s")
		})
	}
}
