package apierr

import (
	"fmt"
	"net/http"
)

// Protection codes (DESIGN 10.6): a request refused before it reaches the
// backend, answered with a Retry-After header.
const (
	RunBackendSaturated = "S2R-RUN-0509" // backend profile over maxConcurrentRequests or maxRequestsPerSecond
	RunClientRateLimit  = "S2R-RUN-0429" // client over the service's rate limit
)

// RetryAfterDetail is the detail of a protection refusal holding the
// seconds after which a retry may pass, the Retry-After header's value.
const RetryAfterDetail = "retryAfterSeconds"

// IsRefusal reports whether code is a protection refusal: expected under
// load, answered with its own status also as a SOAP Fault, and not logged
// as a server failure (the /metrics refusal counters count them).
func IsRefusal(code string) bool {
	return code == RunBackendSaturated || code == RunClientRateLimit
}

// SetRetryAfter sets the Retry-After header of a protection refusal from
// its retryAfterSeconds detail; other errors leave h alone. Every writer
// of an error body calls it before writing the status.
func SetRetryAfter(h http.Header, e *Error) {
	if !IsRefusal(e.Code) {
		return
	}
	if v, ok := e.Details[RetryAfterDetail]; ok {
		h.Set("Retry-After", fmt.Sprint(v))
	}
}
