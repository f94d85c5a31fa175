package admin

import (
	"github.com/s2r-project/s2r/internal/model"
)

// gatewayRoutes are the routes of the backend machinery shared by every
// direction: the live backend health of a service (SPEC 4.6).
func (s *server) gatewayRoutes() []route {
	return []route{
		{Method: "GET", Path: "/services/{serviceId}/backend-health", Role: model.RoleReader, Handle: s.getBackendHealth, Doc: docGetBackendHealth},
	}
}
