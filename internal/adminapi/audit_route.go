package adminapi

import (
	"log/slog"
	"net/http"
	"strings"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/store"
)

// Audit names the failure event the route wrapper records when a route's
// handler returns an error (Route.Audit): each change is audited on
// refusal in one place, not by a deferred call in every handler.
type Audit struct {
	Action     string // e.g. service.update
	EntityType string // e.g. service
	// EntityID is the event's entity id: a fixed value, or "{name}" for
	// the value of path parameter name.
	EntityID string
}

// OnFailure returns the Audit of a route: a refused change is recorded as
// action on entityType, with entityID fixed or "{name}" for a path
// parameter.
func OnFailure(action, entityType, entityID string) *Audit {
	return &Audit{Action: action, EntityType: entityType, EntityID: entityID}
}

// entityID returns a's entity id for r.
func (a *Audit) entityID(r *http.Request) string {
	if name, ok := strings.CutPrefix(a.EntityID, "{"); ok {
		if name, ok = strings.CutSuffix(name, "}"); ok {
			return r.PathValue(name)
		}
	}
	return a.EntityID
}

// Audited returns h, which records a's failure event (RecordFailure) when
// it returns an error; with a nil a it returns h itself.
func Audited(st *store.Store, log *slog.Logger, a *Audit, h apierr.AdminHandlerFunc) apierr.AdminHandlerFunc {
	if a == nil {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) error {
		err := h(w, r)
		if err != nil {
			RecordFailure(st, log, r, a.Action, a.EntityType, a.entityID(r), err)
		}
		return err
	}
}
