package apierr

// Protection codes (DESIGN 10.6): a request refused before it reaches the
// backend, answered with a Retry-After header.
const (
	RunBackendSaturated = "S2R-RUN-0509" // backend profile over maxConcurrentRequests or maxRequestsPerSecond
	RunClientRateLimit  = "S2R-RUN-0429" // client over the service's rate limit
)
