package admin

import (
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
)

// catalogRoutes are the routes of services, versions, operations, rules,
// mappings and their diagnostics (SPEC 4.8). Roles follow DESIGN 6.3.
func (s *server) catalogRoutes() []route {
	const (
		reader   = model.RoleReader
		operator = model.RoleOperator
		admin    = model.RoleAdmin
	)
	return []route{
		{Method: "POST", Path: "/services", Role: operator, Handle: s.createService, Doc: docCreateService,
			Audit: adminapi.OnFailure("service.create", "service", "")},
		{Method: "GET", Path: "/services", Role: reader, Handle: s.listServices, Doc: docListServices},
		{Method: "POST", Path: "/services:bulk-action", Role: operator, Handle: s.bulkAction, Doc: docBulkAction},
		{Method: "GET", Path: "/services/{serviceId}", Role: reader, Handle: s.getService, Doc: docGetService},
		{Method: "PATCH", Path: "/services/{serviceId}", Role: operator, Handle: s.patchService, Doc: docPatchService,
			Audit: adminapi.OnFailure("service.update", "service", "{serviceId}")},
		{Method: "DELETE", Path: "/services/{serviceId}", Role: operator, Handle: s.deleteService, Doc: docDeleteService,
			Audit: adminapi.OnFailure("service.delete", "service", "{serviceId}")},
		{Method: "DELETE", Path: "/services/{serviceId}:hard-delete", Role: admin, Handle: s.hardDeleteService, Doc: docHardDeleteService,
			Audit: adminapi.OnFailure("service.hard_delete", "service", "{serviceId}")},

		{Method: "GET", Path: "/services/{serviceId}/versions", Role: reader, Handle: s.listVersions, Doc: docListVersions},
		{Method: "POST", Path: "/services/{serviceId}/versions", Role: operator, Handle: s.createVersion, Doc: docCreateVersion,
			Audit: adminapi.OnFailure("version.create", "service", "{serviceId}")},
		{Method: "GET", Path: "/services/{serviceId}/versions/{versionId}/publish-readiness", Role: reader, Handle: s.publishReadiness, Doc: docPublishReadiness},
		{Method: "POST", Path: "/services/{serviceId}/versions/{versionId}:activate", Role: operator, Handle: s.activateVersion, Doc: docActivateVersion,
			Audit: adminapi.OnFailure("version.activate", "version", "{versionId}")},
		{Method: "POST", Path: "/services/{serviceId}/versions/{versionId}:rollback", Role: operator, Handle: s.rollbackVersion, Doc: docRollbackVersion,
			Audit: adminapi.OnFailure("version.rollback", "version", "{versionId}")},
		{Method: "POST", Path: "/services/{serviceId}/versions/{versionId}:generate-replacement-draft", Role: operator, Handle: s.generateReplacementDraft, Doc: docReplacementDraft,
			Audit: adminapi.OnFailure("version.create", "version", "{versionId}")},
		{Method: "GET", Path: "/services/{serviceId}/versions/{versionId}/wsdl-drift", Role: reader, Handle: s.wsdlDrift, Doc: docWSDLDrift},

		{Method: "GET", Path: "/services/{serviceId}/versions/{versionId}/operations", Role: reader, Handle: s.listOperations, Doc: docListOperations},
		{Method: "PATCH", Path: "/operations/{operationId}", Role: operator, Handle: s.patchOperation, Doc: docPatchOperation,
			Audit: adminapi.OnFailure("operation.update", "operation", "{operationId}")},
		{Method: "GET", Path: "/operations/{operationId}/validation-rules", Role: reader, Handle: s.getValidationRules, Doc: docGetValidationRules},
		{Method: "PATCH", Path: "/operations/{operationId}/validation-rules", Role: operator, Handle: s.patchValidationRules, Doc: docPatchValidationRules,
			Audit: adminapi.OnFailure("operation.validation_rules.update", "operation", "{operationId}")},
		{Method: "GET", Path: "/operations/{operationId}/transform-rules", Role: reader, Handle: s.getTransformRules, Doc: docGetTransformRules},
		{Method: "PUT", Path: "/operations/{operationId}/transform-rules", Role: operator, Handle: s.putTransformRules, Doc: docPutTransformRules,
			Audit: adminapi.OnFailure("operation.transform_rules.update", "operation", "{operationId}")},
		{Method: "GET", Path: "/operations/{operationId}/mapping", Role: reader, Handle: s.getMapping, Doc: docGetMapping},
		{Method: "PUT", Path: "/operations/{operationId}/mapping", Role: operator, Handle: s.putMapping, Doc: docPutMapping,
			Audit: adminapi.OnFailure("mapping.update", "operation", "{operationId}")},
		{Method: "POST", Path: "/operations/{operationId}/mapping:regenerate", Role: operator, Handle: s.regenerateMapping, Doc: docRegenerateMapping,
			Audit: adminapi.OnFailure("mapping.regenerate", "operation", "{operationId}")},
		{Method: "GET", Path: "/operations/{operationId}/mapping-diagnostics", Role: reader, Handle: s.getOperationDiagnostics, Doc: docOperationDiagnostics},
		{Method: "GET", Path: "/services/{serviceId}/mapping-diagnostics", Role: reader, Handle: s.getServiceDiagnostics, Doc: docServiceDiagnostics},
		{Method: "POST", Path: "/services/{serviceId}/mapping:regenerate", Role: operator, Handle: s.regenerateServiceMappings, Doc: docRegenerateServiceMappings,
			Audit: adminapi.OnFailure("mapping.regenerate", "service", "{serviceId}")},
	}
}
