package admin

import (
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
)

// publishRoutes are the routes of what a service offers its consumers:
// consumer grants, the inbound WS-Security policy and the per-version OpenAPI documents (SPEC 4.8). Roles
// follow DESIGN 6.3: reader for GETs, operator for grants and WS-Security, admin for
// OpenAPI generation.
func (s *server) publishRoutes() []route {
	const (
		reader   = model.RoleReader
		operator = model.RoleOperator
		admin    = model.RoleAdmin
	)
	return []route{
		{Method: "GET", Path: "/services/{serviceId}/consumer-grants", Role: reader, Handle: s.getConsumerGrants, Doc: docGetConsumerGrants},
		{Method: "PUT", Path: "/services/{serviceId}/consumer-grants", Role: operator, Handle: s.putConsumerGrants, Doc: docPutConsumerGrants,
			Audit: adminapi.OnFailure("consumer_grants.update", "service", "{serviceId}")},
		{Method: "GET", Path: "/services/{serviceId}/inbound-ws-security", Role: reader, Handle: s.getInboundWSS, Doc: docGetInboundWSS},
		{Method: "PUT", Path: "/services/{serviceId}/inbound-ws-security", Role: operator, Handle: s.putInboundWSS, Doc: docPutInboundWSS,
			Audit: adminapi.OnFailure("inbound_ws_security.update", "service", "{serviceId}")},

		{Method: "POST", Path: "/services/{serviceId}/versions/{versionId}:generate-openapi", Role: admin, Handle: s.generateOpenAPI, Doc: docGenerateOpenAPI,
			Audit: adminapi.OnFailure("openapi.generate", "version", "{versionId}")},
		{Method: "GET", Path: "/services/{serviceId}/versions/{versionId}/openapi", Role: reader, Handle: s.getVersionOpenAPI, Doc: docGetVersionOpenAPI},
		{Method: "GET", Path: "/services/{serviceId}/versions/{versionId}/openapi/package", Role: reader, Handle: s.getOpenAPIPackage, Doc: docGetOpenAPIPackage},
	}
}
