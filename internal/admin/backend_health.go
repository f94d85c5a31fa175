package admin

import (
	"net/http"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/upstream"
)

// BackendHealthReader gives the live health and breaker state of a backend
// as the runtime sees it (upstream.Selector implements it). The admin
// reads it in process: the state lives in the instance's memory, not in
// the database.
type BackendHealthReader interface {
	// Status returns the state of profileID of serviceID.
	Status(serviceID, profileID string) upstream.BackendHealth
}

// backendHealthAnswer is the answer of GET …/backend-health.
type backendHealthAnswer struct {
	ServiceID string                   `json:"serviceId"`
	Backends  []upstream.BackendHealth `json:"backends"`
}

var docGetBackendHealth = adminapi.Doc{
	Summary: "Health of the service's backends as this instance sees them, in routing order: healthy (unhealthy " +
		"backends are left out of selection), whether a check ran, the last check time and error, consecutive " +
		"failures and successes (2 failures make a backend unhealthy, 1 success healthy again), the check mode " +
		"and the circuit breaker state (closed, half_open, open). Backends never checked are healthy.",
	Response: backendHealthAnswer{},
}

func (s *server) getBackendHealth(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("serviceId")
	if _, err := adminapi.ServiceOrNotFound(s.store.Service(r.Context(), id)); err != nil {
		return err
	}
	profiles, err := s.store.BackendProfiles(r.Context(), id)
	if err != nil {
		return err
	}
	out := backendHealthAnswer{ServiceID: id, Backends: make([]upstream.BackendHealth, 0, len(profiles))}
	for _, p := range profiles {
		st := upstream.BackendHealth{ServiceID: id, ProfileID: p.ProfileID, Healthy: true, Mode: upstream.HealthNone, Breaker: upstream.BreakerClosed.String()}
		if s.backendHealth != nil {
			st = s.backendHealth.Status(id, p.ProfileID)
		}
		st.ProfileName = p.Name
		out.Backends = append(out.Backends, st)
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}
