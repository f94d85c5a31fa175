package admin

import (
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
)

// gatewayRoutes are the routes of the backend machinery shared by every
// direction: the live backend health of a service (SPEC 4.6) and its rate
// limit per client (DESIGN 10.6).
func (s *server) gatewayRoutes() []route {
	return []route{
		{Method: "GET", Path: "/services/{serviceId}/backend-health", Role: model.RoleReader, Handle: s.getBackendHealth, Doc: docGetBackendHealth},
		{Method: "GET", Path: "/services/{serviceId}/rate-limits", Role: model.RoleReader, Handle: s.getRateLimits, Doc: docGetRateLimits},
		{Method: "PUT", Path: "/services/{serviceId}/rate-limits", Role: model.RoleOperator, Handle: s.putRateLimits, Doc: docPutRateLimits,
			Audit: adminapi.OnFailure("rate_limits.update", "service", "{serviceId}")},
	}
}
