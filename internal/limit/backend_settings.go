package limit

import (
	"fmt"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// Bounds of the backend protection settings. Larger values are refused as
// mistakes rather than taken as "unlimited" (null says that).
const (
	MaxConcurrentRequestsLimit = 100_000
	MaxRequestsPerSecondLimit  = 1_000_000
	MaxQueueTimeoutMs          = 60_000
)

// BackendSettings are a backend profile's protection fields (DESIGN 10.6).
// A nil cap is unlimited; QueueTimeoutMs 0 refuses a call over a cap at
// once. They apply on each instance separately.
type BackendSettings struct {
	MaxConcurrentRequests *int64   `json:"maxConcurrentRequests"`
	MaxRequestsPerSecond  *float64 `json:"maxRequestsPerSecond"`
	QueueTimeoutMs        int64    `json:"queueTimeoutMs"`
}

// Unlimited reports whether s sets no cap.
func (s BackendSettings) Unlimited() bool {
	return s.MaxConcurrentRequests == nil && s.MaxRequestsPerSecond == nil
}

// Validate returns a *model.FieldError naming the first field out of
// bounds.
func (s BackendSettings) Validate() error {
	if c := s.MaxConcurrentRequests; c != nil && (*c < 1 || *c > MaxConcurrentRequestsLimit) {
		return boundsErr("maxConcurrentRequests", 1, MaxConcurrentRequestsLimit)
	}
	// The negated test also refuses NaN.
	if r := s.MaxRequestsPerSecond; r != nil && !(*r >= 0.001 && *r <= MaxRequestsPerSecondLimit) {
		return &model.FieldError{Field: "maxRequestsPerSecond", Index: -1,
			Reason: fmt.Sprintf("must be null (unlimited) or between 0.001 and %d", MaxRequestsPerSecondLimit)}
	}
	if s.QueueTimeoutMs < 0 || s.QueueTimeoutMs > MaxQueueTimeoutMs {
		return &model.FieldError{Field: "queueTimeoutMs", Index: -1,
			Reason: fmt.Sprintf("must be between 0 and %d", MaxQueueTimeoutMs)}
	}
	return nil
}

func boundsErr(field string, lo, hi int64) error {
	return &model.FieldError{Field: field, Index: -1,
		Reason: fmt.Sprintf("must be null (unlimited) or an integer between %d and %d", lo, hi)}
}

// backendConfig is BackendSettings compiled for the hot path.
type backendConfig struct {
	maxInFlight int64 // 0: unlimited
	hasRate     bool
	rate        gcra
	queue       time.Duration
}

// compile turns valid settings into a backendConfig. The rate's burst is
// one second of requests (at least one).
func (s BackendSettings) compile() *backendConfig {
	c := &backendConfig{queue: time.Duration(s.QueueTimeoutMs) * time.Millisecond}
	if s.MaxConcurrentRequests != nil {
		c.maxInFlight = *s.MaxConcurrentRequests
	}
	if s.MaxRequestsPerSecond != nil {
		c.hasRate = true
		c.rate = newGCRA(*s.MaxRequestsPerSecond, int64(*s.MaxRequestsPerSecond))
	}
	return c
}
