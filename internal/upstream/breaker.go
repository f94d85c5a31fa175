package upstream

import (
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/sony/gobreaker/v2"
)

// Circuit breaker thresholds (one breaker per backend profile, SPEC 1 and
// 4.6). A breaker is closed while its backend behaves; it opens when, in
// the rolling window of BreakerWindow (10 one-second buckets), either
// BreakerConsecutiveFailures calls failed in a row, or at least
// BreakerMinRequests calls were made and BreakerFailureRatio of them
// failed. An open breaker refuses calls (503 S2R-RUN-0529) for
// BreakerOpenFor, then turns half-open: BreakerHalfOpenProbes calls go
// through as probes; one failed probe opens it again, BreakerHalfOpenProbes
// successful probes in a row close it.
//
// BreakerOpenFor is short on purpose: a backend that comes back must be
// served again within seconds (docs/decisions-resilience.md), and while it
// is down an open breaker still answers almost every call at once; each
// half-open turn costs the dead backend at most BreakerHalfOpenProbes
// calls.
//
// A failure is a connect error, a timeout, a connection broken before the
// answer, or an HTTP 5xx answer other than a 500 carrying XML (a SOAP
// Fault: IsFailedAnswer). A 4xx answer and a canceled client are not
// failures (the first is the caller's mistake, the second says nothing
// about the backend).
const (
	BreakerConsecutiveFailures = 5
	BreakerMinRequests         = 20
	BreakerFailureRatio        = 0.5
	BreakerWindow              = 10 * time.Second
	BreakerOpenFor             = 3 * time.Second
	BreakerHalfOpenProbes      = 3
)

// BreakerState is the state of a backend's breaker.
type BreakerState int

// Breaker states; the numbers are the values of the s2r_backend_breaker_state
// gauge.
const (
	BreakerClosed   BreakerState = 0
	BreakerHalfOpen BreakerState = 1
	BreakerOpen     BreakerState = 2
)

// String returns closed, half_open or open.
func (s BreakerState) String() string {
	switch s {
	case BreakerHalfOpen:
		return "half_open"
	case BreakerOpen:
		return "open"
	}
	return "closed"
}

// ErrBreakerOpen is returned by Breakers.Allow when the backend's breaker
// is open or its half-open probes are all taken.
var ErrBreakerOpen = errors.New("circuit breaker open")

// BreakerConfig overrides the thresholds, for tests; zero fields keep the
// defaults above.
type BreakerConfig struct {
	ConsecutiveFailures int
	OpenFor             time.Duration
	HalfOpenProbes      int
	// OnStateChange is called when a breaker changes state.
	OnStateChange func(profileID string, from, to BreakerState)
}

// Breakers holds one circuit breaker per backend profile id. It is safe for
// concurrent use; a breaker is created on first use and lives as long as
// the process (profile ids are stable across edits).
type Breakers struct {
	cfg BreakerConfig
	mu  sync.Mutex
	m   map[string]*breakerEntry
	// endpoints are the profiles' endpoint URLs as last tracked (Track).
	endpoints map[string]string
}

type breakerEntry struct {
	cb        *gobreaker.TwoStepCircuitBreaker[struct{}]
	serviceID string
}

// NewBreakers returns an empty registry with cfg's thresholds.
func NewBreakers(cfg BreakerConfig) *Breakers {
	if cfg.ConsecutiveFailures <= 0 {
		cfg.ConsecutiveFailures = BreakerConsecutiveFailures
	}
	if cfg.OpenFor <= 0 {
		cfg.OpenFor = BreakerOpenFor
	}
	if cfg.HalfOpenProbes <= 0 {
		cfg.HalfOpenProbes = BreakerHalfOpenProbes
	}
	return &Breakers{cfg: cfg, m: map[string]*breakerEntry{}}
}

func (bs *Breakers) get(profileID, serviceID string) *gobreaker.TwoStepCircuitBreaker[struct{}] {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	if e, ok := bs.m[profileID]; ok {
		if serviceID != "" {
			e.serviceID = serviceID
		}
		return e.cb
	}
	e := &breakerEntry{cb: bs.newBreaker(profileID), serviceID: serviceID}
	bs.m[profileID] = e
	return e.cb
}

// newBreaker returns a closed breaker for profileID with bs's thresholds.
func (bs *Breakers) newBreaker(profileID string) *gobreaker.TwoStepCircuitBreaker[struct{}] {
	consecutive := uint32(bs.cfg.ConsecutiveFailures)
	return gobreaker.NewTwoStepCircuitBreaker[struct{}](gobreaker.Settings{
		Name:         profileID,
		MaxRequests:  uint32(bs.cfg.HalfOpenProbes),
		Interval:     BreakerWindow,
		BucketPeriod: time.Second,
		Timeout:      bs.cfg.OpenFor,
		ReadyToTrip: func(c gobreaker.Counts) bool {
			if c.ConsecutiveFailures >= consecutive {
				return true
			}
			return c.Requests >= BreakerMinRequests && float64(c.TotalFailures) >= BreakerFailureRatio*float64(c.Requests)
		},
		OnStateChange: func(name string, from, to gobreaker.State) {
			if f := bs.cfg.OnStateChange; f != nil {
				f(name, breakerState(from), breakerState(to))
			}
		},
	})
}

// Allow asks the breaker of profileID for one call. When it refuses, the
// error is ErrBreakerOpen. Otherwise the caller makes the call and reports
// its outcome once through done: failure true counts against the backend,
// excluded true (client canceled) counts nothing.
func (bs *Breakers) Allow(profileID string) (done func(failure bool), err error) {
	return bs.allow(profileID, "")
}

// allow is Allow noting the service of the profile, for the metrics.
func (bs *Breakers) allow(profileID, serviceID string) (done func(failure bool), err error) {
	cb := bs.get(profileID, serviceID)
	report, err := cb.Allow()
	if err != nil {
		return nil, ErrBreakerOpen
	}
	return func(failure bool) {
		if failure {
			report(errBackendFailed)
			return
		}
		report(nil)
	}, nil
}

var errBackendFailed = errors.New("backend call failed")

// State returns the breaker state of profileID (closed for an unknown one).
func (bs *Breakers) State(profileID string) BreakerState {
	bs.mu.Lock()
	e, ok := bs.m[profileID]
	bs.mu.Unlock()
	if !ok {
		return BreakerClosed
	}
	return breakerState(e.cb.State())
}

type breakerSnapshot struct {
	profileID, serviceID string
	state                BreakerState
}

// all returns the state of every breaker.
func (bs *Breakers) all() []breakerSnapshot {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	out := make([]breakerSnapshot, 0, len(bs.m))
	for id, e := range bs.m {
		out = append(out, breakerSnapshot{profileID: id, serviceID: e.serviceID, state: breakerState(e.cb.State())})
	}
	return out
}

func breakerState(s gobreaker.State) BreakerState {
	switch s {
	case gobreaker.StateOpen:
		return BreakerOpen
	case gobreaker.StateHalfOpen:
		return BreakerHalfOpen
	}
	return BreakerClosed
}

// IsBackendFailure reports whether a call outcome counts against the
// backend's breaker: an *Error other than a canceled client or a refused
// auth configuration, or an HTTP status of 500 or more. Callers that have
// the answer's Content-Type use IsFailedAnswer, which spares SOAP Faults.
func IsBackendFailure(status int, err error) bool {
	if err != nil {
		switch KindOf(err) {
		case KindCanceled, KindAuthConfig, KindTooLarge:
			return false
		}
		return true
	}
	return status >= 500
}

// IsFailedAnswer is IsBackendFailure for an answer with its Content-Type:
// an HTTP 500 carrying XML (text/xml, application/soap+xml, …+xml) is how
// SOAP delivers a Fault, an application answer the backend was healthy
// enough to give, so it does not count against the breaker; a 500 of any
// other type, and every other 5xx, does.
func IsFailedAnswer(status int, contentType string) bool {
	if status < 500 {
		return false
	}
	if status == 500 {
		ct := strings.ToLower(contentType)
		if i := strings.IndexByte(ct, ';'); i >= 0 {
			ct = ct[:i]
		}
		ct = strings.TrimSpace(ct)
		if ct == "text/xml" || ct == "application/xml" || strings.HasSuffix(ct, "+xml") {
			return false
		}
	}
	return true
}
