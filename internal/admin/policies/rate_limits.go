package policies

import (
	"net/http"
	"strconv"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/limit"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// rateLimitBody documents the PUT body of a service's client rate limit;
// null or {} removes it.
type rateLimitBody struct {
	ClientKey         string `json:"clientKey"`
	RequestsPerMinute int64  `json:"requestsPerMinute"`
	Burst             int64  `json:"burst,omitempty"`
}

var docGetRateLimits = adminapi.Doc{
	Summary: "Rate limit per client of a service (DESIGN 10.6): clientKey \"ip\" (the client address, attributed by " +
		"gateway_trusted_proxies) or \"header:NAME\" (that header's value; the address when it is absent), " +
		"requestsPerMinute and burst. {} when the service has none. Counted on each instance separately; a client " +
		"over it gets 429 S2R-RUN-0429 with Retry-After.",
	Response: model.ClientRateLimit{},
}

var docPutRateLimits = adminapi.Doc{
	Summary: "Replace the rate limit per client of a service; null or {} removes it. requestsPerMinute 1 to " +
		"60000000; burst (the requests a client may make at once) defaults to requestsPerMinute. Applies to " +
		"publish, consume and gateway requests and async initiations, never to async callbacks.",
	Request:  rateLimitBody{},
	Response: model.ClientRateLimit{},
}

// getRateLimits answers the client rate limit of a service.
func (s *Handlers) getRateLimits(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("serviceId")
	if _, err := adminapi.ServiceOrNotFound(s.store.Service(r.Context(), id)); err != nil {
		return err
	}
	l, err := s.store.ServiceRateLimit(r.Context(), id)
	if err != nil {
		return err
	}
	return writeRateLimit(w, l)
}

// putRateLimits replaces the client rate limit of a service.
func (s *Handlers) putRateLimits(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("serviceId")
	if err := adminapi.CheckJSONContentType(r); err != nil {
		return err
	}
	body, err := adminapi.ReadBody(w, r, adminapi.MaxBodyBytes)
	if err != nil {
		return err
	}
	parsed, err := limit.ParseClientSettings(body)
	if fe, ok := err.(*model.FieldError); ok {
		return adminapi.FieldError(fe.Field, fe.Reason)
	} else if err != nil {
		return err
	}
	var after *model.ClientRateLimit
	if parsed != nil {
		l := model.ClientRateLimit(parsed.Normalized())
		after = &l
	}
	ctx := r.Context()
	err = s.store.ChangeConfig(ctx, func(tx *store.Tx) error {
		if _, err := adminapi.ServiceOrNotFound(tx.Service(ctx, id)); err != nil {
			return err
		}
		before, err := tx.ServiceRateLimit(ctx, id)
		if err != nil {
			return err
		}
		if err := tx.PutServiceRateLimit(ctx, id, after, store.NewTime(s.now()), adminapi.CallerEmail(r)); err != nil {
			return err
		}
		msg := "removed the client rate limit of service " + id
		if after != nil {
			msg = "set the client rate limit of service " + id + " (" + after.ClientKey + ", " +
				strconv.Itoa(int(after.RequestsPerMinute)) + "/min, burst " + strconv.Itoa(int(after.Burst)) + ")"
		}
		return tx.InsertAudit(ctx, adminapi.AuditEvent(r, "rate_limits.update", "service", id, msg, before, after))
	})
	if err != nil {
		return err
	}
	return writeRateLimit(w, after)
}

// writeRateLimit answers l, {} for none: the body PUT takes back as is.
func writeRateLimit(w http.ResponseWriter, l *model.ClientRateLimit) error {
	if l == nil {
		return adminapi.WriteJSON(w, http.StatusOK, struct{}{})
	}
	return adminapi.WriteJSON(w, http.StatusOK, l)
}
