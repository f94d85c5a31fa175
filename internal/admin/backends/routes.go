package backends

import (
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
)

// Routes are the routes of backend profiles and their tests, synthetic
// monitors and test datasets (SPEC 4.8). Roles follow DESIGN 6.3: reader
// for GETs, operator for changes and backend tests.
func (h *Handlers) Routes() []adminapi.Route {
	const (
		reader   = model.RoleReader
		operator = model.RoleOperator
	)
	return []adminapi.Route{
		{Method: "GET", Path: "/services/{serviceId}/backend-profiles", Role: reader, Handle: h.listBackendProfiles, Doc: docListBackendProfiles},
		{Method: "POST", Path: "/services/{serviceId}/backend-profiles", Role: operator, Handle: h.createBackendProfile, Doc: docCreateBackendProfile,
			Audit: adminapi.OnFailure("backend_profile.create", "backend_profile", "")},
		{Method: "PATCH", Path: "/backend-profiles/{profileId}", Role: operator, Handle: h.patchBackendProfile, Doc: docPatchBackendProfile,
			Audit: adminapi.OnFailure("backend_profile.update", "backend_profile", "{profileId}")},
		{Method: "DELETE", Path: "/backend-profiles/{profileId}", Role: operator, Handle: h.deleteBackendProfile, Doc: docDeleteBackendProfile,
			Audit: adminapi.OnFailure("backend_profile.delete", "backend_profile", "{profileId}")},
		{Method: "POST", Path: "/backend-profiles/{profileId}:test-connection", Role: operator, Handle: h.testConnection, Doc: docTestConnection},
		{Method: "POST", Path: "/backend-profiles/{profileId}:test-application", Role: operator, Handle: h.testApplication, Doc: docTestApplication},
		{Method: "POST", Path: "/backend-profiles/{profileId}:test-generated-samples", Role: operator, Handle: h.testGeneratedSamples, Doc: docTestSamples},
		{Method: "POST", Path: "/backend-profiles/{profileId}:test-rest", Role: operator, Handle: h.testREST, Doc: docTestREST},
		{Method: "GET", Path: "/backend-profiles/{profileId}/test-previews", Role: reader, Handle: h.listTestPreviews, Doc: docTestPreviews},
		{Method: "GET", Path: "/operations/{operationId}/sample-request", Role: reader, Handle: h.getSampleRequest, Doc: docSampleRequest},
		{Method: "GET", Path: "/services/{serviceId}/synthetic-monitor", Role: reader, Handle: h.getMonitor, Doc: docGetMonitor},
		{Method: "POST", Path: "/services/{serviceId}/synthetic-monitor", Role: operator, Handle: h.postMonitor, Doc: docPostMonitor,
			Audit: adminapi.OnFailure("synthetic_monitor.update", "service", "{serviceId}")},
		{Method: "GET", Path: "/services/{serviceId}/test-datasets", Role: reader, Handle: h.listDatasets, Doc: docListDatasets},
		{Method: "POST", Path: "/services/{serviceId}/test-datasets", Role: operator, Handle: h.createDataset, Doc: docCreateDataset,
			Audit: adminapi.OnFailure("test_dataset.create", "test_dataset", "")},
		{Method: "DELETE", Path: "/test-datasets/{datasetId}", Role: operator, Handle: h.deleteDataset, Doc: docDeleteDataset,
			Audit: adminapi.OnFailure("test_dataset.delete", "test_dataset", "{datasetId}")},
	}
}
