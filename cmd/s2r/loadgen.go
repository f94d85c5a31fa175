package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/loadgen"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	routeload "github.com/s2r-project/s2r/internal/routing/load"
	"github.com/s2r-project/s2r/internal/store"
)

// loadgenCmd replays generated ingest traffic against a running s2r
// (docs/discovery.md, "Trying discovery without a load balancer").
func loadgenCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		url         = fs.String("url", "http://127.0.0.1:8080", "base URL of the running s2r")
		token       = fs.String("token", "", "ingest token of a registered instance (default: $S2R_INGEST_TOKEN)")
		kind        = fs.String("kind", loadgen.KindLB, "traffic: lb (four-stage load-balancer transactions), generic (gateway logs) or mixed")
		services    = fs.Int("services", 10, "number of distinct services")
		errorRate   = fs.Float64("error-rate", 0.02, "fraction of failing calls, 0..1")
		consumers   = fs.Int("consumers", 8, "client IPs per service")
		payload     = fs.Int("payload-bytes", 512, "approximate size of each request and response payload (0: none)")
		vendor      = fs.String("vendor", "kong", "vendor of generic logs")
		rate        = fs.Float64("rate", 0, "events per second in all (0: as fast as s2r takes them)")
		duration    = fs.Duration("duration", 30*time.Second, "how long to run (0: until -events are sent)")
		events      = fs.Int("events", 0, "stop after about this many events (0: until -duration ends)")
		batch       = fs.Int("batch", 1000, "events per call (at most 5000)")
		concurrency = fs.Int("concurrency", 2, "calls in flight")
		gz          = fs.Bool("gzip", false, "gzip request bodies")
		ndjson      = fs.Bool("ndjson", false, "send NDJSON instead of a JSON array")
		seed        = fs.Uint64("seed", 0, "random seed (0: random); the same seed repeats the same event ids")
		skew        = fs.Float64("skew", 0, "Zipf exponent (> 1) of the traffic per service: a few services take most calls; 0: uniform")
		bulk        = fs.Int("bulk", 0, "instead of calling the ingest API, write this many lb events straight into the database "+
			"configured by S2R_DATABASE_URL / S2R_DATA_DIR (COPY on PostgreSQL), spread over -days, then rebuild the rollups")
		days     = fs.Int("days", 30, "with -bulk: days the events are spread over, ending now")
		instance = fs.String("instance", "", "with -bulk: id of the registered ingest instance the events are attributed to")
		hour     = fs.String("hour", "", "with -bulk: put every event in this one hour (RFC 3339, e.g. 2026-01-02T15:00:00Z) instead of the last -days")
	)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError{err}
	}
	if *bulk > 0 {
		gen := loadgen.New(loadgen.Config{Services: *services, ErrorRate: *errorRate, Consumers: *consumers,
			PayloadBytes: *payload, Vendor: *vendor, Seed: *seed, Skew: *skew})
		opts := discovery.BulkOptions{Events: *bulk, Days: *days}
		if *hour != "" {
			h, err := time.Parse(time.RFC3339, *hour)
			if err != nil {
				return usageError{fmt.Errorf("loadgen: -hour: %w", err)}
			}
			opts.Now, opts.Span = h.UTC().Truncate(time.Hour).Add(time.Hour), time.Hour
		}
		return bulkLoad(ctx, getenv, stdout, gen, opts, *instance)
	}
	if *token == "" {
		*token = getenv("S2R_INGEST_TOKEN")
	}
	if *token == "" {
		return usageError{fmt.Errorf("loadgen: -token or S2R_INGEST_TOKEN is required (register an instance: POST /admin/v1/ingest-instances)")}
	}
	if *errorRate < 0 || *errorRate > 1 {
		return usageError{fmt.Errorf("loadgen: -error-rate must be between 0 and 1")}
	}
	switch *kind {
	case loadgen.KindLB, loadgen.KindGeneric, loadgen.KindMixed:
	default:
		return usageError{fmt.Errorf("loadgen: -kind must be lb, generic or mixed")}
	}
	if *duration <= 0 && *events <= 0 {
		return usageError{fmt.Errorf("loadgen: set -duration or -events")}
	}
	gen := loadgen.New(loadgen.Config{Services: *services, ErrorRate: *errorRate, Consumers: *consumers,
		PayloadBytes: *payload, Vendor: *vendor, Seed: *seed, Skew: *skew})
	fmt.Fprintf(stdout, "loadgen: %s traffic for %d services to %s\n", *kind, *services, *url)
	st, err := loadgen.Run(ctx, loadgen.RunConfig{BaseURL: *url, Token: *token, Kind: *kind, Batch: *batch,
		Concurrency: *concurrency, Rate: *rate, Duration: *duration, Events: *events, Gzip: *gz, NDJSON: *ndjson, Generator: gen})
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "loadgen:", st)
	if st.Failed > 0 {
		return fmt.Errorf("loadgen: %d calls failed; last: %s", st.Failed, st.LastError)
	}
	return nil
}

// bulkLoad writes opts.Events generated lb events straight into the
// configured database (discovery.Service.BulkLoad), attributed to
// instance.
func bulkLoad(ctx context.Context, getenv func(string) string, stdout io.Writer, gen *loadgen.Generator, opts discovery.BulkOptions, instance string) error {
	if instance == "" {
		return usageError{fmt.Errorf("loadgen: -bulk needs -instance (the instanceId of POST /admin/v1/ingest-instances)")}
	}
	cfg, err := loadConfig(getenv)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, store.Config{URL: cfg.DatabaseURL, DataDir: cfg.DataDir})
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Migrate(ctx); err != nil {
		return err
	}
	var inst model.IngestInstance
	err = st.Transact(ctx, func(tx *store.Tx) (err error) {
		inst, err = tx.IngestInstance(ctx, instance)
		return err
	})
	if err != nil {
		return fmt.Errorf("loadgen: ingest instance %s: %w", instance, err)
	}
	// A one-shot load masks by the settings as stored when it starts.
	settings, err := routeload.Settings(ctx, st)
	if err != nil {
		return err
	}
	disc, err := discovery.New(discovery.Config{Store: st, Settings: routing.Fixed{Snapshot: settings}})
	if err != nil {
		return err
	}
	start := time.Now()
	opts.Instance = discovery.Instance{InstanceID: inst.InstanceID, Vendor: inst.Vendor, TenantID: inst.TenantID}
	opts.Progress = func(done int) {
		fmt.Fprintf(stdout, "loadgen: %d events stored (%.0f events/s)\n", done, float64(done)/time.Since(start).Seconds())
	}
	if err := disc.BulkLoad(ctx, gen, opts); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "loadgen: %d events and their rollups stored in %v\n", opts.Events, time.Since(start).Round(time.Second))
	return nil
}
