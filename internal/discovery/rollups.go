package discovery

import (
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// call is one counted event of a batch, as the rollups see it.
type call struct {
	row       int // index in IngestBatch.Rows
	source    string
	vendor    string
	at        time.Time
	failure   bool // discovery's failure
	isError   bool // SPEC 4.11 rule 4 (model.EdgeError)
	latencyMs float64
	consumer  string
}

// Rollups computes the discovery rollups of the events of b the store
// newly stored (fresh: indexes into b.LB, or into b.Generic for a batch of
// generic logs); rowIDs are the ids of b.Rows. An lb event counts when it
// is the transaction's client_response; every generic log counts. It is
// the store.RollupFunc of Ingest.
func Rollups(b *model.IngestBatch, rowIDs []int64, fresh []int) model.IngestRollups {
	return rollup(freshCalls(b, fresh), rowIDs)
}

// freshCalls returns the calls among the fresh events of b.
func freshCalls(b *model.IngestBatch, fresh []int) []call {
	var calls []call
	if len(b.LB) > 0 {
		for _, i := range fresh {
			e := &b.LB[i]
			if e.Counted() {
				calls = append(calls, call{row: e.Row, source: model.SourceLB, vendor: b.InstanceVendor, at: e.OccurredAt,
					failure: e.Failure, isError: model.EdgeError(e.StatusCode, e.ResultCode, e.SoapFault), latencyMs: e.DurationMs,
					consumer: e.ClientIP})
			}
		}
		return calls
	}
	calls = make([]call, 0, len(fresh))
	for _, i := range fresh {
		g := &b.Generic[i]
		calls = append(calls, call{row: g.Row, source: model.SourceGeneric, vendor: g.Vendor, at: g.OccurredAt,
			failure: g.Failure, isError: model.EdgeError(g.StatusCode, g.ResultCode, g.SoapFault), latencyMs: g.LatencyMs,
			consumer: g.ConsumerIP})
	}
	return calls
}

// rollup buckets calls by UTC hour, minute and day and adds them up.
func rollup(calls []call, rowIDs []int64) model.IngestRollups {
	r := model.IngestRollups{
		Hours:      map[model.HourBucket]*model.HourCounts{},
		Minutes:    map[model.MinuteBucket]*model.CallCounts{},
		Consumers:  map[model.ConsumerBucket]*model.ConsumerCounts{},
		Vendors:    map[model.RowVendor]bool{},
		DirtyHours: map[model.DirtyHour]bool{},
	}
	for i := range calls {
		c := &calls[i]
		row := rowIDs[c.row]
		at := c.at.UTC()
		fail := int64(0)
		if c.failure {
			fail = 1
		}
		hk := model.HourBucket{Row: row, Source: c.source, Vendor: c.vendor, Hour: at.Truncate(time.Hour)}
		h := r.Hours[hk]
		if h == nil {
			h = &model.HourCounts{}
			r.Hours[hk] = h
		}
		h.Calls++
		h.Failures += fail
		if c.isError {
			h.Errors++
		}
		h.LatencySumMs += c.latencyMs
		h.LatencyMaxMs = max(h.LatencyMaxMs, c.latencyMs)
		mk := model.MinuteBucket{Row: row, Source: c.source, Minute: at.Truncate(time.Minute)}
		m := r.Minutes[mk]
		if m == nil {
			m = &model.CallCounts{}
			r.Minutes[mk] = m
		}
		m.Calls++
		m.Failures += fail
		if c.consumer != "" {
			ck := model.ConsumerBucket{Row: row, Source: c.source, Vendor: c.vendor, Day: at.Truncate(24 * time.Hour), IP: c.consumer}
			a := r.Consumers[ck]
			if a == nil {
				a = &model.ConsumerCounts{}
				r.Consumers[ck] = a
			}
			a.Calls++
			a.Failures += fail
			if at.After(a.LastSeen) {
				a.LastSeen = at
			}
		}
		r.Vendors[model.RowVendor{Row: row, Vendor: c.vendor}] = true
		r.DirtyHours[model.DirtyHour{Source: c.source, Hour: hk.Hour}] = true
	}
	return r
}
