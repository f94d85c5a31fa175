package admin

import (
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
)

// publishRoutes are the routes of the per-version OpenAPI documents (SPEC
// 4.8): reader for GETs, admin for generation (DESIGN 6.3). The service's
// runtime policies (grants, inbound WS-Security, rate limits) are in
// internal/admin/policies.
func (s *server) publishRoutes() []route {
	const (
		reader   = model.RoleReader
		operator = model.RoleOperator
		admin    = model.RoleAdmin
	)
	return []route{
		{Method: "POST", Path: "/services/{serviceId}/versions/{versionId}:generate-openapi", Role: admin, Handle: s.generateOpenAPI, Doc: docGenerateOpenAPI,
			Audit: adminapi.OnFailure("openapi.generate", "version", "{versionId}")},
		{Method: "GET", Path: "/services/{serviceId}/versions/{versionId}/openapi", Role: reader, Handle: s.getVersionOpenAPI, Doc: docGetVersionOpenAPI},
		{Method: "GET", Path: "/services/{serviceId}/versions/{versionId}/openapi/package", Role: reader, Handle: s.getOpenAPIPackage, Doc: docGetOpenAPIPackage},
	}
}
