package discovery

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/s2r-project/s2r/internal/loadgen"
	"github.com/s2r-project/s2r/internal/model"
)

// BulkOptions describes generated data written straight to the database.
type BulkOptions struct {
	Events   int           // about this many lb events (whole four-stage transactions)
	Days     int           // spread over the last Days days; default 30
	Span     time.Duration // when not 0, spread over the Span before Now instead of Days
	Instance Instance      // the instance the events are attributed to
	Now      time.Time     // end of the spread; default now
	Chunk    int           // events per transaction; default 50,000
	Progress func(int)     // called with the events stored so far
	Seed     uint64        // spread of timestamps; 0: random
	Sleep    time.Duration // pause between chunks (0: none)
}

// BulkLoad writes generated lb events straight to the database (COPY on
// PostgreSQL), through the same validation, normalisation and onboarding
// match as ingest, then rebuilds the rollups from them. It is how large
// data sets for the drill-down benchmark are made (s2r loadgen -bulk,
// docs/discovery.md); unlike ingest it is not idempotent.
func (s *Service) BulkLoad(ctx context.Context, gen *loadgen.Generator, o BulkOptions) error {
	if o.Days <= 0 {
		o.Days = 30
	}
	if o.Chunk <= 0 {
		o.Chunk = 50000
	}
	if o.Now.IsZero() {
		o.Now = s.cfg.Now()
	}
	rng := rand.New(rand.NewPCG(o.Seed, o.Seed+1))
	if o.Seed == 0 {
		rng = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	span := time.Duration(o.Days) * 24 * time.Hour
	if o.Span > 0 {
		span = o.Span
	}
	red := s.redactor()
	// Chunks cover consecutive slices of the span, oldest first: the
	// events are stored in about the time order ingest stores them in,
	// so time windows read neighbouring pages as they would in use.
	slice := span / time.Duration((o.Events+o.Chunk-1)/o.Chunk)
	done := 0
	for done < o.Events && ctx.Err() == nil {
		b := &model.IngestBatch{TenantID: o.Instance.TenantID, InstanceID: o.Instance.InstanceID,
			InstanceVendor: o.Instance.Vendor, ReceivedAt: o.Now}
		rows := s.newRowSet(ctx, b)
		from := o.Now.Add(-span + time.Duration(done/o.Chunk)*slice)
		for len(b.LB) < min(o.Chunk, o.Events-done) {
			start := from.Add(time.Duration(rng.Int64N(int64(max(slice, 1)))))
			for _, w := range gen.LBTransaction(start) {
				in := lbEventFromWire(w)
				e, fe := in.toStore(o.Now, red)
				if fe != nil {
					return fmt.Errorf("discovery: generated event refused: %s: %s", fe.field, fe.reason)
				}
				e.Row = rows.row(in.URI, o.Instance.Vendor)
				b.LB = append(b.LB, e)
			}
		}
		if err := s.cfg.Store.BulkLoad(ctx, b); err != nil {
			return err
		}
		done += len(b.LB)
		if o.Progress != nil {
			o.Progress(done)
		}
		if o.Sleep > 0 {
			time.Sleep(o.Sleep)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.cfg.Store.RebuildDiscoveryRollups(ctx, o.Now.Add(-minuteRetention))
}

// lbEventFromWire is a generated event as the ingest API would decode it.
func lbEventFromWire(w loadgen.LBEvent) LBEventIn {
	return LBEventIn{EventID: w.EventID, GlobalTransactionID: w.GlobalTransactionID, Stage: w.Stage, Timestamp: w.Timestamp,
		FrontVirtualServer: w.FrontVirtualServer, BackVirtualServer: w.BackVirtualServer, ClientIP: w.ClientIP,
		Method: w.Method, Host: w.Host, URI: w.URI, Backend: w.Backend, StatusCode: w.StatusCode, DurationMs: w.DurationMs,
		BytesIn: w.BytesIn, BytesOut: w.BytesOut, ResultCode: w.ResultCode, SoapFault: w.SoapFault, Headers: w.Headers,
		Payload: w.Payload}
}
