package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/s2r-project/s2r/internal/loadgen"
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
	)
	if err := fs.Parse(args); err != nil {
		return usageError{err}
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
		PayloadBytes: *payload, Vendor: *vendor, Seed: *seed})
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
