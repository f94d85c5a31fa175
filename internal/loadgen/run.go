package loadgen

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"

	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
)

// Kinds of traffic a run sends.
const (
	KindLB      = "lb"
	KindGeneric = "generic"
	KindMixed   = "mixed" // alternate lb and generic batches
)

// RunConfig describes a replay against a running s2r.
type RunConfig struct {
	BaseURL     string        // e.g. http://127.0.0.1:8080
	Token       string        // bearer token of a registered ingest instance
	Kind        string        // KindLB (default), KindGeneric or KindMixed
	Batch       int           // events per call; default 1000
	Concurrency int           // calls in flight; default 2
	Rate        float64       // events per second in all; 0: as fast as s2r takes them
	Duration    time.Duration // stop after this long (0: only Events bounds the run)
	Events      int           // stop after about this many events (0: only Duration)
	Gzip        bool          // gzip request bodies
	NDJSON      bool          // NDJSON bodies instead of a JSON array
	Client      *http.Client  // default: a client with keep-alive
	Generator   *Generator    // required
	// Clock gives event timestamps; default time.Now.
	Clock func() time.Time
}

// Stats summarises a run.
type Stats struct {
	Calls      int64
	Events     int64 // events in calls answered 200
	Stored     int64
	Duplicates int64
	Failed     int64 // calls not answered 200
	Elapsed    time.Duration
	// Latencies of the answered calls: p50, p95, p99.
	P50, P95, P99 time.Duration
	LastError     string
}

// EventsPerSecond is the rate of events stored or acknowledged.
func (s Stats) EventsPerSecond() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Events) / s.Elapsed.Seconds()
}

// String is a one-line summary.
func (s Stats) String() string {
	return fmt.Sprintf("%d calls, %d events (%d stored, %d duplicates), %d failed calls in %v: %.0f events/s; latency p50 %v p95 %v p99 %v",
		s.Calls, s.Events, s.Stored, s.Duplicates, s.Failed, s.Elapsed.Round(time.Millisecond), s.EventsPerSecond(),
		s.P50.Round(time.Microsecond), s.P95.Round(time.Microsecond), s.P99.Round(time.Microsecond))
}

// ingestAnswer is the 200 body of an ingest call.
type ingestAnswer struct {
	Received, Stored, Duplicates int
}

// Run sends batches until Duration or Events is reached, or ctx ends.
// Bodies are generated ahead of the calls by each worker, so generation
// is not timed as s2r's latency.
func Run(ctx context.Context, cfg RunConfig) (Stats, error) {
	if cfg.Generator == nil || cfg.BaseURL == "" {
		return Stats{}, errors.New("loadgen: a generator and a base URL are required")
	}
	if cfg.Duration <= 0 && cfg.Events <= 0 {
		return Stats{}, errors.New("loadgen: set a duration or a number of events")
	}
	if cfg.Batch <= 0 {
		cfg.Batch = 1000
	}
	cfg.Batch = min(cfg.Batch, MaxBatch)
	cfg.Concurrency = max(cfg.Concurrency, 1)
	if cfg.Client == nil {
		cfg.Client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: cfg.Concurrency * 2}, Timeout: time.Minute}
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Kind == "" {
		cfg.Kind = KindLB
	}
	if cfg.Duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.Duration)
		defer cancel()
	}
	r := &runner{cfg: cfg, start: time.Now()}
	var wg sync.WaitGroup
	for range cfg.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.work(ctx)
		}()
	}
	wg.Wait()
	return r.stats(), nil
}

type runner struct {
	cfg   RunConfig
	start time.Time

	mu      sync.Mutex // guards everything below and the generator
	seq     int        // batches handed out
	sent    int        // events handed out
	st      Stats
	latency []time.Duration
}

// next returns the next batch body, or nil when the run is over. It
// paces the run to Rate.
func (r *runner) next(ctx context.Context) ([]byte, string, int) {
	r.mu.Lock()
	if r.cfg.Events > 0 && r.sent >= r.cfg.Events {
		r.mu.Unlock()
		return nil, "", 0
	}
	n := r.cfg.Batch
	if r.cfg.Events > 0 {
		n = min(n, r.cfg.Events-r.sent)
	}
	seq := r.seq
	r.seq++
	r.sent += n
	var (
		events any
		path   = "/ingest/v1/lb-events"
		count  int
	)
	now := r.cfg.Clock()
	if r.cfg.Kind == KindGeneric || r.cfg.Kind == KindMixed && seq%2 == 1 {
		logs := r.cfg.Generator.GenericBatch(n, now)
		events, path, count = logs, "/ingest/v1/generic-logs", len(logs)
	} else {
		evs := r.cfg.Generator.LBBatch(n, now)
		evs = evs[:min(len(evs), MaxBatch)]
		events, count = evs, len(evs)
	}
	r.mu.Unlock()
	body, err := Encode(events, r.cfg.NDJSON, r.cfg.Gzip)
	if err != nil {
		return nil, "", 0
	}
	if r.cfg.Rate > 0 {
		due := r.start.Add(time.Duration(float64(seq*r.cfg.Batch) / r.cfg.Rate * float64(time.Second)))
		if d := time.Until(due); d > 0 {
			select {
			case <-ctx.Done():
				return nil, "", 0
			case <-time.After(d):
			}
		}
	}
	return body, path, count
}

// MaxBatch is the ingest API's limit on events per call.
const MaxBatch = 5000

func (r *runner) work(ctx context.Context) {
	for ctx.Err() == nil {
		body, path, n := r.next(ctx)
		if body == nil {
			return
		}
		t0 := time.Now()
		ans, err := r.post(ctx, path, body)
		d := time.Since(t0)
		r.mu.Lock()
		r.st.Calls++
		if err != nil {
			if ctx.Err() == nil {
				r.st.Failed++
				r.st.LastError = err.Error()
			}
		} else {
			r.st.Events += int64(n)
			r.st.Stored += int64(ans.Stored)
			r.st.Duplicates += int64(ans.Duplicates)
			r.latency = append(r.latency, d)
		}
		r.mu.Unlock()
	}
}

func (r *runner) post(ctx context.Context, path string, body []byte) (ingestAnswer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(r.cfg.BaseURL, "/")+path, bytes.NewReader(body))
	if err != nil {
		return ingestAnswer{}, err
	}
	req.Header.Set("Authorization", "Bearer "+r.cfg.Token)
	req.Header.Set("Content-Type", "application/json")
	if r.cfg.NDJSON {
		req.Header.Set("Content-Type", "application/x-ndjson")
	}
	if r.cfg.Gzip {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := r.cfg.Client.Do(req)
	if err != nil {
		return ingestAnswer{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return ingestAnswer{}, err
	}
	if resp.StatusCode != http.StatusOK {
		return ingestAnswer{}, fmt.Errorf("%s: %d %s", path, resp.StatusCode, bytes.TrimSpace(b))
	}
	var ans ingestAnswer
	if err := json.Unmarshal(b, &ans); err != nil {
		return ingestAnswer{}, fmt.Errorf("%s: answer: %w", path, err)
	}
	return ans, nil
}

func (r *runner) stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := r.st
	st.Elapsed = time.Since(r.start)
	if len(r.latency) > 0 {
		l := slices.Clone(r.latency)
		slices.Sort(l)
		at := func(q float64) time.Duration { return l[min(len(l)-1, int(q*float64(len(l))))] }
		st.P50, st.P95, st.P99 = at(0.50), at(0.95), at(0.99)
	}
	return st
}

// Encode renders events (a slice of LBEvent or GenericLog) as a JSON
// array, or NDJSON, optionally gzipped.
func Encode(events any, ndjson, gz bool) ([]byte, error) {
	var buf bytes.Buffer
	var w io.Writer = &buf
	var zw *gzip.Writer
	if gz {
		zw, _ = gzip.NewWriterLevel(&buf, gzip.BestSpeed)
		w = zw
	}
	var err error
	switch evs := events.(type) {
	case []LBEvent:
		err = encodeAll(w, evs, ndjson)
	case []GenericLog:
		err = encodeAll(w, evs, ndjson)
	default:
		err = fmt.Errorf("loadgen: cannot encode %T", events)
	}
	if err != nil {
		return nil, err
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// encodeAll writes evs as one JSON array or as NDJSON lines.
func encodeAll[T any](w io.Writer, evs []T, ndjson bool) error {
	if !ndjson {
		return jsonv2.MarshalWrite(w, evs)
	}
	for i := range evs {
		if err := jsonv2.MarshalWrite(w, &evs[i]); err != nil {
			return err
		}
		if _, err := w.Write([]byte{'\n'}); err != nil {
			return err
		}
	}
	return nil
}
