package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/upstream"
)

// healthCheckJob names the backend health checks for store.TryExclusive:
// with several instances on one PostgreSQL, the job's leader checks every
// backend and shares each result; the others apply it (decisions-resilience.md).
const healthCheckJob = "backend-health-checks"

// maxSharedError bounds the error text of a shared result, to keep the
// notification small.
const maxSharedError = 1024

// sharedHealth carries backend health results between instances through
// the store's notifications.
type sharedHealth struct {
	store  *store.Store
	log    *slog.Logger
	origin string // this instance, to skip its own results
}

// sharedResult is one published result.
type sharedResult struct {
	Origin string                 `json:"origin"`
	State  upstream.BackendHealth `json:"state"`
}

// publish sends one result of this instance's checks to the others. A
// failure (database unreachable) is logged at debug level: the others keep
// their last view, and each instance checks on its own while the job lock
// cannot be had.
func (h *sharedHealth) publish(st upstream.BackendHealth) {
	if len(st.LastError) > maxSharedError {
		st.LastError = st.LastError[:maxSharedError]
	}
	b, err := json.Marshal(sharedResult{Origin: h.origin, State: st})
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := h.store.PublishBackendHealth(ctx, b); err != nil {
		h.log.Debug("backend health: result not shared", "profile", st.ProfileID, "error", err.Error())
	}
}

// watch applies the results other instances share until ctx ends.
func (h *sharedHealth) watch(ctx context.Context, health *upstream.Health) {
	h.store.WatchBackendHealth(ctx, func(payload []byte) {
		var r sharedResult
		if json.Unmarshal(payload, &r) != nil || r.Origin == h.origin {
			return
		}
		health.Apply(r.State)
	})
}
