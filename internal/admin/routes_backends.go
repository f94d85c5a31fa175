package admin

import (
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
		{"GET", "/services/{serviceId}/backend-profiles", reader, s.listBackendProfiles, docListBackendProfiles},
		{"POST", "/services/{serviceId}/backend-profiles", operator, s.createBackendProfile, docCreateBackendProfile},
		{"PATCH", "/backend-profiles/{profileId}", operator, s.patchBackendProfile, docPatchBackendProfile},
		{"DELETE", "/backend-profiles/{profileId}", operator, s.deleteBackendProfile, docDeleteBackendProfile},
		{"POST", "/backend-profiles/{profileId}:test-connection", operator, s.testConnection, docTestConnection},
		{"POST", "/backend-profiles/{profileId}:test-application", operator, s.testApplication, docTestApplication},
		{"POST", "/backend-profiles/{profileId}:test-generated-samples", operator, s.testGeneratedSamples, docTestSamples},
		{"POST", "/backend-profiles/{profileId}:test-rest", operator, s.testREST, docTestREST},
		{"GET", "/backend-profiles/{profileId}/test-previews", reader, s.listTestPreviews, docTestPreviews},

		{"GET", "/services/{serviceId}/consumer-grants", reader, s.getConsumerGrants, docGetConsumerGrants},
		{"PUT", "/services/{serviceId}/consumer-grants", operator, s.putConsumerGrants, docPutConsumerGrants},
		{"GET", "/services/{serviceId}/synthetic-monitor", reader, s.getMonitor, docGetMonitor},
		{"POST", "/services/{serviceId}/synthetic-monitor", operator, s.postMonitor, docPostMonitor},
		{"GET", "/services/{serviceId}/test-datasets", reader, s.listDatasets, docListDatasets},
		{"POST", "/services/{serviceId}/test-datasets", operator, s.createDataset, docCreateDataset},
		{"DELETE", "/test-datasets/{datasetId}", operator, s.deleteDataset, docDeleteDataset},

		{"POST", "/services/{serviceId}/versions/{versionId}:generate-openapi", admin, s.generateOpenAPI, docGenerateOpenAPI},
		{"GET", "/services/{serviceId}/versions/{versionId}/openapi", reader, s.getVersionOpenAPI, docGetVersionOpenAPI},
		{"GET", "/services/{serviceId}/versions/{versionId}/openapi/package", reader, s.getOpenAPIPackage, docGetOpenAPIPackage},
	}
}
