package model

// BackendProtection are the protection fields of a backend profile
// (DESIGN 10.6), applied on each instance separately: at most
// MaxConcurrentRequests calls in flight and MaxRequestsPerSecond calls a
// second (nil: unlimited); a call over a cap waits up to QueueTimeoutMs
// (0: refused at once) and is then answered 503 S2R-RUN-0509 without
// reaching the backend. package limit validates and enforces them.
type BackendProtection struct {
	MaxConcurrentRequests *int64   `json:"maxConcurrentRequests"`
	MaxRequestsPerSecond  *float64 `json:"maxRequestsPerSecond"`
	QueueTimeoutMs        int64    `json:"queueTimeoutMs"`
}

// Protection returns the protection fields of p.
func (p BackendProfile) Protection() BackendProtection {
	return BackendProtection{MaxConcurrentRequests: p.MaxConcurrentRequests,
		MaxRequestsPerSecond: p.MaxRequestsPerSecond, QueueTimeoutMs: p.QueueTimeoutMs}
}

// ClientRateLimit is a service's rate limit per client (DESIGN 10.6,
// /admin/v1/services/{serviceId}/rate-limits): each client, told apart by
// ClientKey ("ip" or "header:NAME"), may make RequestsPerMinute requests a
// minute and at most Burst at once. package limit parses, validates and
// enforces it.
type ClientRateLimit struct {
	ClientKey         string `json:"clientKey"`
	RequestsPerMinute int64  `json:"requestsPerMinute"`
	Burst             int64  `json:"burst"`
}
