// Package health serves the liveness and readiness probes:
// GET /health/live is always UP; GET /health/ready checks the database
// (with a timeout) and the license state, and answers 503 when either is
// not ready (SPEC 4.1, 7.3).
package health

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/license"
)

// Paths served by the Handler.
const (
	LivePath  = "/health/live"
	ReadyPath = "/health/ready"
)

// DefaultTimeout bounds the database check.
const DefaultTimeout = 2 * time.Second

// Pinger is the database check (store.Store implements it).
type Pinger interface {
	// Ping returns nil when the database answers.
	Ping(ctx context.Context) error
}

// LicenseStater reports the license state (license.Checker implements it).
type LicenseStater interface {
	// State returns the current license state.
	State() license.State
}

// Config configures a Handler.
type Config struct {
	DB      Pinger
	License LicenseStater
	Timeout time.Duration // database check timeout; DefaultTimeout when 0
}

// Handler serves /health/live and /health/ready.
type Handler struct {
	cfg Config
}

// New returns a Handler.
func New(cfg Config) *Handler {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	return &Handler{cfg: cfg}
}

// Status values.
const (
	Up   = "UP"
	Down = "DOWN"
)

// Report is the body of a health answer.
type Report struct {
	Status string            `json:"status"`
	Checks map[string]string `json:"checks,omitempty"`
}

// ServeHTTP serves both probes; other paths under /health/ are 404 and
// methods other than GET and HEAD are 405 S2R-RUN-0411.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	apierr.HandlerFunc(h.serve).ServeHTTP(w, r)
}

func (h *Handler) serve(w http.ResponseWriter, r *http.Request) error {
	if r.URL.Path != LivePath && r.URL.Path != ReadyPath {
		return apierr.Newf(apierr.RunNotFound, "no health endpoint at %s", r.URL.Path)
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		return apierr.Newf(apierr.RunMethodNotAllowed, "method %s not supported on %s", r.Method, r.URL.Path)
	}
	if r.URL.Path == LivePath {
		writeReport(w, http.StatusOK, Report{Status: Up})
		return nil
	}
	rep := h.Ready(r.Context())
	status := http.StatusOK
	if rep.Status != Up {
		status = http.StatusServiceUnavailable
	}
	writeReport(w, status, rep)
	return nil
}

// Ready runs the readiness checks.
func (h *Handler) Ready(ctx context.Context) Report {
	rep := Report{Status: Up, Checks: map[string]string{}}
	rep.Checks["database"] = Up
	if h.cfg.DB != nil {
		ctx, cancel := context.WithTimeout(ctx, h.cfg.Timeout)
		defer cancel()
		if err := h.cfg.DB.Ping(ctx); err != nil {
			rep.Checks["database"] = Down
			rep.Status = Down
		}
	}
	state := license.Valid
	if h.cfg.License != nil {
		state = h.cfg.License.State()
	}
	rep.Checks["license"] = string(state)
	if state == license.RuntimeStop {
		rep.Status = Down
	}
	return rep
}

func writeReport(w http.ResponseWriter, status int, rep Report) {
	b, _ := json.Marshal(rep)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b)
}
