package routing

import (
	"context"
	"errors"
	"log/slog"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// LoadFunc builds a complete table from the stored configuration.
type LoadFunc func(ctx context.Context) (*Table, error)

// WatchFunc calls fn with the configuration revision at start and whenever
// it changes until ctx ends (store.Store.WatchRevision: in-process nudge,
// PostgreSQL LISTEN/NOTIFY, poll every interval).
type WatchFunc func(ctx context.Context, interval time.Duration, fn func(rev int64)) error

// ReloaderConfig configures a Reloader.
type ReloaderConfig struct {
	Load  LoadFunc
	Watch WatchFunc
	// Interval is the revision poll fallback; default 2 s.
	Interval time.Duration
	Logger   *slog.Logger
	// OnSwap, when set, is called with every table swapped in, after the
	// swap and before the next load starts (to apply its settings to
	// what keeps state of its own, such as the outbound policies).
	OnSwap func(*Table)
}

// Reloader holds the current table and swaps in a new one when the
// revision changes. A load that fails keeps the current table (and logs
// the error); the next revision change or Nudge tries again.
type Reloader struct {
	cfg   ReloaderConfig
	cur   atomic.Pointer[Table]
	mu    sync.Mutex // serializes loads
	nudge chan struct{}
	fails atomic.Int64
	// WaitRevision's view of the loads: started counts the loads begun,
	// failed is the number of the newest that failed, and loaded is
	// closed (and replaced) at the end of every load.
	started atomic.Int64
	failed  atomic.Int64
	loadMu  sync.Mutex
	loaded  chan struct{}
}

// NewReloader returns a reloader with an empty table (revision -1).
func NewReloader(cfg ReloaderConfig) *Reloader {
	if cfg.Interval <= 0 {
		cfg.Interval = 2 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	r := &Reloader{cfg: cfg, nudge: make(chan struct{}, 1), loaded: make(chan struct{})}
	r.cur.Store(NewTable(-1, nil, nil))
	return r
}

// Table returns the current table. It never returns nil.
func (r *Reloader) Table() *Table { return r.cur.Load() }

// Settings returns the settings of the current table.
func (r *Reloader) Settings() Settings { return r.Table().Settings() }

// MaxPayloadMB returns max_payload_mb of the current table; it has the
// httpx.MaxPayloadFunc shape. Called per request, it reads the one field
// rather than copying the snapshot (Table never returns nil).
func (r *Reloader) MaxPayloadMB() int { return r.Table().settings.MaxPayloadMB }

// TrustedProxies returns gateway_trusted_proxies of the current table.
func (r *Reloader) TrustedProxies() []netip.Prefix { return r.Table().settings.TrustedProxies }

// Revision returns the configuration revision the current table was built
// from.
func (r *Reloader) Revision() int64 { return r.Table().Revision() }

// ErrLoadFailed is WaitRevision's answer when a load that began after the
// wait did fail: the table in service stays older than the revision.
var ErrLoadFailed = errors.New("routing: the route table reload failed; the previous table is still served")

// WaitRevision returns nil once the table in service was built from
// configuration revision rev or a later one, ErrLoadFailed when a load
// begun after the call fails first, or ctx's error when ctx ends first.
// The admin API calls it after committing a change at rev, so that its
// answer comes after this instance serves the change (read your writes);
// a load begun after the commit reads a revision >= rev (load.Table reads
// the revision first), so its failure means the change is not coming
// until a retry succeeds. A load that began before the call is not
// counted when it fails (it may have read an older revision): the wait
// goes on until the retry, an interval later.
func (r *Reloader) WaitRevision(ctx context.Context, rev int64) error {
	since := r.started.Load()
	for {
		loaded := r.loadedChan()
		if r.Table().Revision() >= rev {
			return nil
		}
		if r.failed.Load() > since {
			return ErrLoadFailed
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-loaded:
		}
	}
}

// loadedChan returns the channel the end of the next load closes.
func (r *Reloader) loadedChan() <-chan struct{} {
	r.loadMu.Lock()
	defer r.loadMu.Unlock()
	return r.loaded
}

// endLoad wakes WaitRevision callers after a load numbered n, failed or
// not.
func (r *Reloader) endLoad(n int64, failed bool) {
	if failed {
		r.failed.Store(n) // loads are serialized by mu: n only grows
	}
	r.loadMu.Lock()
	defer r.loadMu.Unlock()
	close(r.loaded)
	r.loaded = make(chan struct{})
}

// Failures returns how many loads failed since start.
func (r *Reloader) Failures() int64 { return r.fails.Load() }

// Nudge asks Run to reload at once, even when the revision has not
// changed. It never blocks.
func (r *Reloader) Nudge() {
	select {
	case r.nudge <- struct{}{}:
	default:
	}
}

// Reload loads a table now and swaps it in. On failure the current table
// stays and the error is returned.
func (r *Reloader) Reload(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	start := time.Now()
	n := r.started.Add(1)
	t, err := r.cfg.Load(ctx)
	if err == nil && t == nil {
		err = errors.New("routing: load returned no table")
	}
	defer func() { r.endLoad(n, err != nil) }()
	if err != nil {
		r.fails.Add(1)
		r.cfg.Logger.Error("route table reload failed: keeping the current table",
			"revision", r.Table().Revision(), "error", err.Error())
		return err
	}
	old := r.cur.Swap(t)
	if old.replaced != t.replaced {
		old.markReplaced() // after the swap: whoever wakes reads t
	}
	if r.cfg.OnSwap != nil {
		r.cfg.OnSwap(t)
	}
	for _, e := range t.Errors() {
		r.cfg.Logger.Error("service left out of the route table", "serviceId", e.ServiceID,
			"direction", e.Key.Direction, "environment", e.Key.Environment, "serviceKey", e.Key.ServiceKey, "error", e.Err.Error())
	}
	if old.Revision() != t.Revision() {
		r.cfg.Logger.Info("route table loaded", "revision", t.Revision(), "services", len(t.services),
			"excluded", len(t.Errors()), "took", time.Since(start).String())
	}
	return nil
}

// Run watches the revision and reloads on every change and every Nudge
// until ctx ends; it returns nil then.
func (r *Reloader) Run(ctx context.Context) error {
	revs := make(chan int64, 1)
	var wg sync.WaitGroup
	if r.cfg.Watch != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := r.cfg.Watch(ctx, r.cfg.Interval, func(rev int64) {
				select {
				case <-revs: // keep only the newest
				default:
				}
				revs <- rev
			})
			if err != nil && ctx.Err() == nil {
				r.cfg.Logger.Error("revision watch stopped", "error", err.Error())
			}
		}()
	}
	defer wg.Wait()
	retry := time.NewTimer(time.Hour)
	retry.Stop()
	defer retry.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case rev := <-revs:
			if rev == r.Table().Revision() {
				continue
			}
		case <-r.nudge:
		case <-retry.C:
		}
		if err := r.Reload(ctx); err != nil && ctx.Err() == nil {
			retry.Reset(r.cfg.Interval) // a failed load is retried, the old table served meanwhile
		}
	}
}
