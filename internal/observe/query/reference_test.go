package query

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// This file computes the observability figures by brute force over the
// raw rows, independently of the SQL: the reference the correctness test
// compares every endpoint against.

// fixtureServices are the catalog services of the fixture: calc is
// onboarded under another key than it is logged with (renamed), ghost is
// logged with an id the catalog does not have, shadow traffic has no id.
var fixtureServices = []model.Service{
	{ServiceID: "11111111-1111-4111-8111-111111111111", ServiceKey: "calculator", Environment: "prod", Direction: "publish", Status: "active"},
	{ServiceID: "22222222-2222-4222-8222-222222222222", ServiceKey: "weather", Environment: "dev", Direction: "consume", Status: "active"},
	{ServiceID: "33333333-3333-4333-8333-333333333333", ServiceKey: "legacy", Environment: "dev", Direction: "gateway", Status: "disabled"},
	{ServiceID: "44444444-4444-4444-8444-444444444444", ServiceKey: "old", Environment: "dev", Direction: "publish", Status: "deprecated"},
}

// logged is how a service appears in the records.
type logged struct{ id, direction, env, key string }

var fixtureTraffic = []logged{
	{fixtureServices[0].ServiceID, "publish", "prod", "calc"},
	{fixtureServices[1].ServiceID, "consume", "dev", "weather"},
	{fixtureServices[2].ServiceID, "gateway", "dev", "legacy"},
	{"99999999-9999-4999-8999-999999999999", "publish", "dev", "ghost"},
	{"", "publish", "dev", ""},
}

var fixtureResults = []string{"success", "success", "success", "success", "failed", "backend_failure", "error", "timeout", "response_schema_violation"}

// fixtureLogs returns n records spread over the span before now, with
// latencies in whole microseconds (as the recorder stores them).
func fixtureLogs(rng *rand.Rand, now time.Time, span time.Duration, n int, prefix string) []model.TxLog {
	logs := make([]model.TxLog, n)
	for i := range logs {
		tr := fixtureTraffic[rng.IntN(len(fixtureTraffic))]
		at := now.Add(-time.Duration(rng.Int64N(int64(span)))).Truncate(time.Microsecond)
		rc := fixtureResults[rng.IntN(len(fixtureResults))]
		logs[i] = model.TxLog{
			CorrelationID: fmt.Sprintf("%s-%d", prefix, i), OccurredAt: at, Direction: tr.direction, Environment: tr.env,
			ServiceKey: tr.key, ServiceID: tr.id, OperationKey: []string{"add", "sub", "mul"}[rng.IntN(3)],
			Method: "POST", Path: "/" + tr.direction + "/" + tr.env + "/" + tr.key, HTTPStatus: 200, ResultCode: rc,
			InBodyFault: rc == "success" && rng.IntN(10) == 0,
			TotalMs:     float64(rng.IntN(2_000_000)) / 1000, ConverterMs: float64(rng.IntN(3000)) / 1000,
		}
		if rng.IntN(50) == 0 {
			logs[i].TotalMs = 5000 + float64(rng.IntN(1000)) // slow outliers
		}
	}
	return logs
}

// seedServices stores the fixture's catalog.
func seedServices(t *testing.T, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	err := st.Transact(ctx, func(tx *store.Tx) error {
		for _, s := range fixtureServices {
			s.ServiceName, s.CreatedAt, s.UpdatedAt = s.ServiceKey, time.Now(), time.Now()
			if err := tx.CreateService(ctx, s); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// refRecord is one transaction of any source as the reference sees it:
// its group values as the endpoints must report them.
type refRecord struct {
	source, tenant                     string // tenant "" for runtime records
	at                                 time.Time
	direction, env, key, op, serviceID string
	latency                            float64
	converter                          *float64 // nil for edge sources
	isError                            bool
}

// runtimeRecords turns runtime logs into reference records.
func runtimeRecords(logs []model.TxLog) []refRecord {
	out := make([]refRecord, len(logs))
	for i, l := range logs {
		conv := l.ConverterMs
		out[i] = refRecord{source: "runtime", at: l.OccurredAt, direction: l.Direction, env: l.Environment, key: l.ServiceKey,
			op: l.OperationKey, serviceID: l.ServiceID, latency: l.TotalMs, converter: &conv, isError: isError(l)}
	}
	return out
}

// refQuery is what a reference computation selects.
type refQuery struct {
	since, until time.Time
	aggregated   bool // whole hours overlapping the range
	sources      []string
	tenant       string // "" is the default tenant
	direction    string
	envs, keys   []string
	onboarded    bool
	byService    bool
	byOperation  bool
	bucket       time.Duration // 0: none
	origin       time.Time
	buckets      int
}

// refKey is a group of the reference.
type refKey struct {
	bucket                               int
	source, direction, env, key, op, sid string
}

// refFigures are a group's figures.
type refFigures struct {
	requests, errors int64
	latencies        []float64
	converters       []float64
	sum              float64
}

func isError(l model.TxLog) bool {
	return slices.Contains([]string{"failed", "backend_failure", "error", "timeout", "response_schema_violation"}, l.ResultCode) || l.InBodyFault
}

// reference groups the records q selects.
func reference(recs []refRecord, q refQuery) map[refKey]*refFigures {
	out := map[refKey]*refFigures{}
	lo := q.since
	if q.aggregated {
		lo = q.since.UTC().Truncate(time.Hour)
	}
	tenant := cmp.Or(q.tenant, model.DefaultTenant)
	for _, l := range recs {
		t := l.at
		if q.aggregated {
			t = t.UTC().Truncate(time.Hour)
		}
		if t.Before(lo) || t.After(q.until) || (q.direction != "" && l.direction != q.direction) ||
			(len(q.sources) > 0 && !slices.Contains(q.sources, l.source)) || (l.tenant != "" && l.tenant != tenant) {
			continue
		}
		k := refKey{source: l.source, direction: l.direction, env: l.env, key: l.key}
		if q.onboarded {
			i := slices.IndexFunc(catalog, func(s model.Service) bool { return s.ServiceID == l.serviceID })
			if i < 0 {
				continue
			}
			s := catalog[i]
			k = refKey{source: l.source, direction: s.Direction, env: s.Environment, key: s.ServiceKey, sid: s.ServiceID}
		}
		if (len(q.envs) > 0 && !slices.Contains(q.envs, k.env)) || (len(q.keys) > 0 && !slices.Contains(q.keys, k.key)) {
			continue
		}
		if q.byOperation {
			k.op = l.op
		}
		if !q.byService {
			k = refKey{op: k.op}
		}
		if q.bucket > 0 {
			origin := q.origin.Truncate(time.Second)
			k.bucket = min(int(t.Sub(origin)/q.bucket), q.buckets-1)
		}
		f := out[k]
		if f == nil {
			f = &refFigures{}
			out[k] = f
		}
		f.requests++
		if l.isError {
			f.errors++
		}
		f.latencies = append(f.latencies, l.latency)
		if l.converter != nil {
			f.converters = append(f.converters, *l.converter)
		}
		f.sum += l.latency
	}
	for _, f := range out {
		slices.Sort(f.latencies)
		slices.Sort(f.converters)
	}
	return out
}

// rank is the nearest-rank p-th percentile of sorted values.
func rank(sorted []float64, p int) float64 {
	return sorted[int(math.Ceil(float64(p)*float64(len(sorted))/100))-1]
}

// p50, p95, p99 and the converter p95 of f (nil without converter
// figures): exact on raw data; on aggregates the mean and the maximum.
func (f *refFigures) percentiles(aggregated bool) (p50, p95, p99 float64, conv *float64) {
	if len(f.converters) > 0 {
		c := rank(f.converters, 95)
		if aggregated {
			c = f.converters[len(f.converters)-1]
		}
		conv = &c
	}
	if aggregated {
		mx := f.latencies[len(f.latencies)-1]
		return f.sum / float64(f.requests), mx, mx, conv
	}
	return rank(f.latencies, 50), rank(f.latencies, 95), rank(f.latencies, 99), conv
}

// sortedKeys orders groups as the endpoints do.
func sortedKeys(m map[refKey]*refFigures) []refKey {
	keys := make([]refKey, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b refKey) int {
		return cmp.Or(cmp.Compare(a.bucket, b.bucket), cmp.Compare(a.source, b.source), cmp.Compare(a.direction, b.direction),
			cmp.Compare(a.env, b.env), cmp.Compare(a.key, b.key), cmp.Compare(a.op, b.op), cmp.Compare(a.sid, b.sid))
	})
	return keys
}

// approx reports whether two figures in ms agree (sums differ in their
// last bits between SQL and Go; one rounding step apart).
func approx(a, b float64) bool { return math.Abs(a-b) <= 0.0011 }
