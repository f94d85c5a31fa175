package admin

import (
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
)

// backendRoutes are the routes of backend profiles and their tests,
// consumer grants, synthetic monitors, test datasets and the per-version
// OpenAPI documents (SPEC 4.8). Roles follow DESIGN 6.3: reader for GETs,
// operator for changes and backend tests, admin for OpenAPI generation.
func (s *server) backendRoutes() []route {
	const (
		reader   = model.RoleReader
		operator = model.RoleOperator
		admin    = model.RoleAdmin
	)
	return []route{
		{Method: "GET", Path: "/services/{serviceId}/backend-profiles", Role: reader, Handle: s.listBackendProfiles, Doc: docListBackendProfiles},
		{Method: "POST", Path: "/services/{serviceId}/backend-profiles", Role: operator, Handle: s.createBackendProfile, Doc: docCreateBackendProfile, Audit: adminapi.OnFailure("backend_profile.create", "backend_profile", "")},
		{Method: "PATCH", Path: "/backend-profiles/{profileId}", Role: operator, Handle: s.patchBackendProfile, Doc: docPatchBackendProfile, Audit: adminapi.OnFailure("backend_profile.update", "backend_profile", "{profileId}")},
		{Method: "DELETE", Path: "/backend-profiles/{profileId}", Role: operator, Handle: s.deleteBackendProfile, Doc: docDeleteBackendProfile, Audit: adminapi.OnFailure("backend_profile.delete", "backend_profile", "{profileId}")},
		{Method: "POST", Path: "/backend-profiles/{profileId}:test-connection", Role: operator, Handle: s.testConnection, Doc: docTestConnection},
		{Method: "POST", Path: "/backend-profiles/{profileId}:test-application", Role: operator, Handle: s.testApplication, Doc: docTestApplication},
		{Method: "POST", Path: "/backend-profiles/{profileId}:test-generated-samples", Role: operator, Handle: s.testGeneratedSamples, Doc: docTestSamples},
		{Method: "POST", Path: "/backend-profiles/{profileId}:test-rest", Role: operator, Handle: s.testREST, Doc: docTestREST},
		{Method: "GET", Path: "/backend-profiles/{profileId}/test-previews", Role: reader, Handle: s.listTestPreviews, Doc: docTestPreviews},

		{Method: "GET", Path: "/services/{serviceId}/consumer-grants", Role: reader, Handle: s.getConsumerGrants, Doc: docGetConsumerGrants},
		{Method: "PUT", Path: "/services/{serviceId}/consumer-grants", Role: operator, Handle: s.putConsumerGrants, Doc: docPutConsumerGrants, Audit: adminapi.OnFailure("consumer_grants.update", "service", "{serviceId}")},
		{Method: "GET", Path: "/services/{serviceId}/synthetic-monitor", Role: reader, Handle: s.getMonitor, Doc: docGetMonitor},
		{Method: "POST", Path: "/services/{serviceId}/synthetic-monitor", Role: operator, Handle: s.postMonitor, Doc: docPostMonitor, Audit: adminapi.OnFailure("synthetic_monitor.update", "service", "{serviceId}")},
		{Method: "GET", Path: "/services/{serviceId}/test-datasets", Role: reader, Handle: s.listDatasets, Doc: docListDatasets},
		{Method: "POST", Path: "/services/{serviceId}/test-datasets", Role: operator, Handle: s.createDataset, Doc: docCreateDataset, Audit: adminapi.OnFailure("test_dataset.create", "test_dataset", "")},
		{Method: "DELETE", Path: "/test-datasets/{datasetId}", Role: operator, Handle: s.deleteDataset, Doc: docDeleteDataset, Audit: adminapi.OnFailure("test_dataset.delete", "test_dataset", "{datasetId}")},

		{Method: "POST", Path: "/services/{serviceId}/versions/{versionId}:generate-openapi", Role: admin, Handle: s.generateOpenAPI, Doc: docGenerateOpenAPI, Audit: adminapi.OnFailure("openapi.generate", "version", "{versionId}")},
		{Method: "GET", Path: "/services/{serviceId}/versions/{versionId}/openapi", Role: reader, Handle: s.getVersionOpenAPI, Doc: docGetVersionOpenAPI},
		{Method: "GET", Path: "/services/{serviceId}/versions/{versionId}/openapi/package", Role: reader, Handle: s.getOpenAPIPackage, Doc: docGetOpenAPIPackage},
	}
}
