package upstream

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"
)

// HealthCheckJob names the backend health checks for
// HealthJobs.TryExclusive: with several instances on one PostgreSQL, the
// job's leader checks every backend and shares each result; the others
// apply it (decisions-resilience.md).
const HealthCheckJob = "backend-health-checks"

// maxSharedError bounds the error text of a shared result, to keep the
// notification small.
const maxSharedError = 1024

// HealthJobs runs the health checks on one instance at a time and carries
// their results to the other instances (store.Store implements it).
type HealthJobs interface {
	// TryExclusive runs fn only when this instance holds the job name;
	// it reports whether fn ran.
	TryExclusive(ctx context.Context, name string, fn func(ctx context.Context) error) (bool, error)
	// PublishBackendHealth sends payload to every instance.
	PublishBackendHealth(ctx context.Context, payload []byte) error
	// WatchBackendHealth calls fn with every payload published until ctx
	// ends.
	WatchBackendHealth(ctx context.Context, fn func(payload []byte)) error
}

// sharedHealth carries backend health results between instances through
// HealthJobs.
type sharedHealth struct {
	jobs   HealthJobs
	log    *slog.Logger
	origin string // this instance, to skip its own results
}

// sharedResult is one published result.
type sharedResult struct {
	Origin string        `json:"origin"`
	State  BackendHealth `json:"state"`
}

// publish sends one result of this instance's checks to the others. A
// failure (database unreachable) is logged at debug level: the others keep
// their last view, and each instance checks on its own while the job lock
// cannot be had.
func (h *sharedHealth) publish(st BackendHealth) {
	if len(st.LastError) > maxSharedError {
		st.LastError = st.LastError[:maxSharedError]
	}
	b, err := json.Marshal(sharedResult{Origin: h.origin, State: st})
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := h.jobs.PublishBackendHealth(ctx, b); err != nil {
		h.log.Debug("backend health: result not shared", "profile", st.ProfileID, "error", err.Error())
	}
}

// watch applies the results other instances share until ctx ends.
func (h *sharedHealth) watch(ctx context.Context, health *Health) {
	h.jobs.WatchBackendHealth(ctx, func(payload []byte) {
		var r sharedResult
		if json.Unmarshal(payload, &r) != nil || r.Origin == h.origin {
			return
		}
		health.Apply(r.State)
	})
}
