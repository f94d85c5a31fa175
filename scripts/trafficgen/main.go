// Command trafficgen fills an s2r database with generated runtime traffic
// for the observability benchmarks (scripts/bench-observe.sh,
// docs/PERFORMANCE.md): services in the catalog and runtime transaction
// records written with PostgreSQL's COPY (a multi-row INSERT on SQLite),
// reproducible from a seed.
//
//	trafficgen -db postgres://… -records 10000000 -days 60 -services 200 -end 2026-06-01T00:00:00Z
//	trafficgen -db postgres://… -records 1000000 -hour 2026-05-01T10:00:00Z -services 200   (one busy hour)
//
// Records are written in time order, hour by hour, as the recorder writes
// them (the table's physical order then follows time, as in production).
// Traffic follows a day/night curve; service popularity is skewed (a few
// services carry most calls); each service has its own error rate (0.1 to
// 15 percent, some in-body faults) and latency (log-normal around 20 to
// 400 ms, with a slow tail); the converter overhead is 0.05 to 2 ms.
// Every tenth service is logged without an onboarded id (shadow traffic).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/observe"
	"github.com/s2r-project/s2r/internal/routing"
	routeload "github.com/s2r-project/s2r/internal/routing/load"
	"github.com/s2r-project/s2r/internal/store"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "trafficgen:", err)
		os.Exit(1)
	}
}

// config holds the flags.
type config struct {
	db, dataDir  string
	records      int
	days         int
	services     int
	seed         uint64
	end, hour    string
	batch        int
	skipServices bool
	aggregate    bool
}

func run() error {
	var c config
	flag.StringVar(&c.db, "db", "", "postgres:// URL; empty: SQLite in -data")
	flag.StringVar(&c.dataDir, "data", "", "SQLite data directory")
	flag.IntVar(&c.records, "records", 1_000_000, "records to generate")
	flag.IntVar(&c.days, "days", 60, "days the records span, ending at -end")
	flag.IntVar(&c.services, "services", 200, "services")
	flag.Uint64Var(&c.seed, "seed", 1, "random seed")
	flag.StringVar(&c.end, "end", "", "RFC 3339 end of the span (default: now, to the second)")
	flag.StringVar(&c.hour, "hour", "", "RFC 3339 hour: put every record in this one hour instead of the span")
	flag.IntVar(&c.batch, "batch", 20_000, "records per COPY")
	flag.BoolVar(&c.skipServices, "skip-services", false, "do not create the catalog services (already there)")
	flag.BoolVar(&c.aggregate, "aggregate", false, "run the hourly aggregation once afterwards and print its time")
	flag.Parse()
	ctx := context.Background()
	st, err := store.Open(ctx, store.Config{URL: c.db, DataDir: c.dataDir})
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Migrate(ctx); err != nil {
		return err
	}
	from, span, err := c.window()
	if err != nil {
		return err
	}
	svcs := newServices(c.services, c.seed)
	if !c.skipServices {
		if err := createServices(ctx, st, svcs); err != nil {
			return err
		}
	}
	rng := rand.New(rand.NewPCG(c.seed, 0x5332))
	start := time.Now()
	batch := make([]model.TxLog, 0, c.batch)
	hours := hourCounts(from, span, c.records, c.hour == "")
	i := 0
	for h, n := range hours {
		at := make([]time.Time, n)
		for k := range at {
			at[k] = from.Add(time.Duration(h)*time.Hour + time.Duration(rng.Int64N(int64(time.Hour))))
		}
		slices.SortFunc(at, func(a, b time.Time) int { return a.Compare(b) })
		for _, t := range at {
			batch = append(batch, svcs.record(rng, i, t))
			i++
			if len(batch) < c.batch && i < c.records {
				continue
			}
			if err := st.CopyTxLogs(ctx, batch); err != nil {
				return err
			}
			batch = batch[:0]
			if i%(50*c.batch) == 0 || i == c.records {
				el := time.Since(start)
				fmt.Fprintf(os.Stderr, "trafficgen: %d records in %s (%.0f/s)\n", i, el.Round(time.Second), float64(i)/el.Seconds())
			}
		}
	}
	if !c.aggregate {
		return nil
	}
	settings, err := routeload.Settings(ctx, st) // default_retention_days bounds the edge hours
	if err != nil {
		return err
	}
	agg, err := observe.NewAggregator(observe.AggregatorConfig{Store: st, Settings: routing.Fixed{Snapshot: settings}})
	if err != nil {
		return err
	}
	t0 := time.Now()
	res, err := agg.RunOnce(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "trafficgen: aggregation of %d hours in %s\n", res.Hours, time.Since(t0).Round(time.Millisecond))
	return nil
}

// window returns the start and length of the generated span.
func (c config) window() (time.Time, time.Duration, error) {
	if c.hour != "" {
		h, err := time.Parse(time.RFC3339, c.hour)
		if err != nil {
			return h, 0, fmt.Errorf("-hour: %w", err)
		}
		return h.UTC().Truncate(time.Hour), time.Hour, nil
	}
	end := time.Now().UTC().Truncate(time.Second)
	if c.end != "" {
		var err error
		if end, err = time.Parse(time.RFC3339, c.end); err != nil {
			return end, 0, fmt.Errorf("-end: %w", err)
		}
	}
	if c.days <= 0 {
		return end, 0, errors.New("-days must be positive")
	}
	span := time.Duration(c.days) * 24 * time.Hour
	return end.Add(-span), span, nil
}

// service is one generated service and its traffic profile.
type service struct {
	model.Service
	logged    string // service id as logged ("" for shadow traffic)
	ops       []string
	errorRate float64
	faultRate float64
	latencyMu float64 // log-normal location of the latency in ms
}

// services are the generated services with a cumulative popularity.
type services struct {
	list []service
	cum  []float64
}

func newServices(n int, seed uint64) services {
	rng := rand.New(rand.NewPCG(seed, 0x5e))
	s := services{list: make([]service, n), cum: make([]float64, n)}
	total := 0.0
	for i := range s.list {
		dir := []string{model.DirectionPublish, model.DirectionPublish, model.DirectionConsume, model.DirectionGateway}[i%4]
		id := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		sv := service{Service: model.Service{ServiceID: id, ServiceKey: fmt.Sprintf("svc%03d", i), ServiceName: fmt.Sprintf("Service %d", i),
			Environment: []string{"prod", "prod", "test", "dev"}[i%4], Direction: dir, Status: model.ServiceActive}}
		if i%10 != 9 {
			sv.logged = id
		}
		for j := range 1 + rng.IntN(5) {
			sv.ops = append(sv.ops, fmt.Sprintf("op%d", j))
		}
		sv.errorRate = 0.001 + 0.15*math.Pow(rng.Float64(), 4)
		sv.faultRate = sv.errorRate * rng.Float64() / 3
		sv.latencyMu = math.Log(20 + 380*rng.Float64())
		s.list[i] = sv
		total += 1 / math.Pow(float64(i+1), 0.8) // Zipf-like popularity
		s.cum[i] = total
	}
	for i := range s.cum {
		s.cum[i] /= total
	}
	return s
}

// pick chooses a service by popularity.
func (s services) pick(rng *rand.Rand) *service {
	u := rng.Float64()
	lo, hi := 0, len(s.cum)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if s.cum[mid] < u {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return &s.list[lo]
}

var errorResults = []string{"failed", "backend_failure", "error", "timeout", "response_schema_violation"}

// hourCounts spreads n records over the hours of the span: with diurnal,
// hours from 7 to 21 UTC weigh three times the night's.
func hourCounts(from time.Time, span time.Duration, n int, diurnal bool) []int {
	hours := max(int(span/time.Hour), 1)
	weights := make([]float64, hours)
	total := 0.0
	for h := range weights {
		weights[h] = 1
		if hh := from.Add(time.Duration(h) * time.Hour).Hour(); diurnal && hh >= 7 && hh <= 21 {
			weights[h] = 3
		}
		total += weights[h]
	}
	counts := make([]int, hours)
	given, acc := 0, 0.0
	for h, w := range weights {
		acc += w
		next := int(float64(n) * acc / total)
		counts[h] = next - given
		given = next
	}
	return counts
}

// record generates the i-th record, at time at.
func (s services) record(rng *rand.Rand, i int, at time.Time) model.TxLog {
	sv := s.pick(rng)
	status, result, fault := 200, "success", false
	switch u := rng.Float64(); {
	case u < sv.errorRate:
		result = errorResults[rng.IntN(len(errorResults))]
		status = map[string]int{"failed": 400, "backend_failure": 502, "error": 503, "timeout": 504, "response_schema_violation": 502}[result]
	case u < sv.errorRate+sv.faultRate && sv.Direction == model.DirectionGateway:
		fault = true
	}
	total := math.Exp(sv.latencyMu + 0.6*rng.NormFloat64())
	if rng.IntN(200) == 0 {
		total *= 10 // slow tail
	}
	conv := 0.05 + 2*math.Pow(rng.Float64(), 3)
	op := sv.ops[rng.IntN(len(sv.ops))]
	return model.TxLog{
		CorrelationID: fmt.Sprintf("gen-%d-%d", at.Unix(), i), OccurredAt: at, Direction: sv.Direction,
		Environment: sv.Environment, ServiceKey: sv.ServiceKey, ServiceID: sv.logged, OperationKey: op,
		OperationID: sv.logged, Method: "POST", Path: "/" + sv.Direction + "/" + sv.Environment + "/" + sv.ServiceKey + "/" + op,
		HTTPStatus: status, ResultCode: result, InBodyFault: fault,
		TotalMs: math.Round(total*1000) / 1000, BackendMs: math.Round((total-conv)*1000) / 1000, ConverterMs: math.Round(conv*1000) / 1000,
		BackendTarget: fmt.Sprintf("http://10.1.%d.%d:8080/%s", rng.IntN(4), 10+rng.IntN(40), sv.ServiceKey),
		ClientIP:      fmt.Sprintf("10.20.%d.%d", rng.IntN(256), rng.IntN(256)), RequestBytes: int64(200 + rng.IntN(4000)),
		ResponseBytes: int64(300 + rng.IntN(20000)),
	}
}

// createServices stores the onboarded services.
func createServices(ctx context.Context, st *store.Store, s services) error {
	now := time.Now()
	return st.Transact(ctx, func(tx *store.Tx) error {
		for _, sv := range s.list {
			m := sv.Service
			m.CreatedAt, m.UpdatedAt = now, now
			if err := tx.CreateService(ctx, m); err != nil && !errors.Is(err, store.ErrAlreadyExists) {
				return err
			}
		}
		return nil
	})
}
