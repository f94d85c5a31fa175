package limit

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
)

// Reasons for a Refusal.
const (
	ReasonConcurrency = "concurrency" // backend: maxConcurrentRequests calls in flight
	ReasonRate        = "rate"        // backend: maxRequestsPerSecond reached
	ReasonClientRate  = "client_rate" // client: over the service's rate limit
)

// Refusal is the error of a request refused by a limit. RetryAfter is the
// time after which a retry may pass (at least one second once rendered).
type Refusal struct {
	Reason     string
	RetryAfter time.Duration
}

// Error implements error.
func (r *Refusal) Error() string {
	return fmt.Sprintf("refused by limit (%s); retry after %s", r.Reason, r.RetryAfter)
}

// RetryAfterSeconds is the Retry-After header value: whole seconds, rounded
// up, at least 1.
func (r *Refusal) RetryAfterSeconds() int64 {
	return RetryAfterSeconds(r.RetryAfter)
}

// RetryAfterSeconds rounds d up to whole seconds, at least 1, as a
// Retry-After header counts.
func RetryAfterSeconds(d time.Duration) int64 {
	s := int64((d + time.Second - 1) / time.Second)
	return max(s, 1)
}

// RetryAfterHeader is RetryAfterSeconds as the header's text.
func (r *Refusal) RetryAfterHeader() string {
	return strconv.FormatInt(r.RetryAfterSeconds(), 10)
}

// APIError returns the error the caller answers: 429 S2R-RUN-0429 for a
// client over its rate limit, else 503 S2R-RUN-0509, with
// details.retryAfterSeconds. The caller also sets the Retry-After header.
func (r *Refusal) APIError() *apierr.Error {
	if r.Reason == ReasonClientRate {
		return apierr.New(apierr.RunClientRateLimit, "too many requests from this client").
			WithDetail(apierr.RetryAfterDetail, r.RetryAfterSeconds())
	}
	return apierr.New(apierr.RunBackendSaturated, "the backend is at its request limit").
		WithDetail(apierr.RetryAfterDetail, r.RetryAfterSeconds())
}

// AsRefusal returns the *Refusal in err's chain.
func AsRefusal(err error) (*Refusal, bool) {
	var r *Refusal
	ok := errors.As(err, &r)
	return r, ok
}
