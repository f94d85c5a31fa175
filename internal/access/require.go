package access

import (
	"net/http"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
)

// Require wraps next so that it runs only for a caller holding at least
// role min; the resolved Caller is in the request context (CallerFrom).
// No identity header gives 401 S2R-ADM-0401; no role or too low a role
// gives 403 S2R-ADM-0403; a failure to load bindings gives 503
// S2R-ADM-0503.
func (r *Resolver) Require(min model.Role, next apierr.AdminHandlerFunc) apierr.AdminHandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) error {
		c, err := r.authorize(req, min)
		if err != nil {
			return err
		}
		return next(w, req.WithContext(WithCaller(req.Context(), c)))
	}
}

// Authenticated returns 401 S2R-ADM-0401 when req carries no identity,
// nil otherwise. The admin API checks it before anything else, so that a
// request without identity learns nothing about its paths.
func (r *Resolver) Authenticated(req *http.Request) error {
	_, err := r.identityOf(req)
	return err
}

// identityOf returns the identity of req: its identity headers, else the
// development identity when DevRequest allows it (devidentity.go).
func (r *Resolver) identityOf(req *http.Request) (Identity, error) {
	id, ok := IdentityFromHeader(req.Header)
	if !ok && r.dev != "" && DevRequest(req) {
		id, ok = Identity{Email: r.dev}, true
	}
	if !ok {
		return id, apierr.New(apierr.AdmUnauthenticated, "no authenticated identity: header "+HeaderEmail+" is missing")
	}
	return id, nil
}

// authorize resolves the caller of req and checks it holds min.
func (r *Resolver) authorize(req *http.Request, min model.Role) (Caller, error) {
	id, err := r.identityOf(req)
	if err != nil {
		return Caller{}, err
	}
	c, err := r.Resolve(req.Context(), id)
	if err != nil {
		return Caller{}, apierr.Wrap(apierr.AdmUnavailable, err, "role bindings are unavailable")
	}
	if !c.Role.AtLeast(min) {
		e := apierr.New(apierr.AdmForbidden, "caller role not permitted").WithDetail("requiredRole", string(min))
		if c.Role != "" {
			e = e.WithDetail("role", string(c.Role))
		}
		return Caller{}, e
	}
	return c, nil
}
