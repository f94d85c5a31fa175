package admin

import (
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
		{"POST", "/services", operator, s.createService, docCreateService},
		{"GET", "/services", reader, s.listServices, docListServices},
		{"POST", "/services:bulk-action", operator, s.bulkAction, docBulkAction},
		{"GET", "/services/{serviceId}", reader, s.getService, docGetService},
		{"PATCH", "/services/{serviceId}", operator, s.patchService, docPatchService},
		{"DELETE", "/services/{serviceId}", operator, s.deleteService, docDeleteService},
		{"DELETE", "/services/{serviceId}:hard-delete", admin, s.hardDeleteService, docHardDeleteService},

		{"GET", "/services/{serviceId}/versions", reader, s.listVersions, docListVersions},
		{"POST", "/services/{serviceId}/versions", operator, s.createVersion, docCreateVersion},
		{"GET", "/services/{serviceId}/versions/{versionId}/publish-readiness", reader, s.publishReadiness, docPublishReadiness},
		{"POST", "/services/{serviceId}/versions/{versionId}:activate", operator, s.activateVersion, docActivateVersion},
		{"POST", "/services/{serviceId}/versions/{versionId}:rollback", operator, s.rollbackVersion, docRollbackVersion},
		{"POST", "/services/{serviceId}/versions/{versionId}:generate-replacement-draft", operator, s.generateReplacementDraft, docReplacementDraft},
		{"GET", "/services/{serviceId}/versions/{versionId}/wsdl-drift", reader, s.wsdlDrift, docWSDLDrift},

		{"GET", "/services/{serviceId}/versions/{versionId}/operations", reader, s.listOperations, docListOperations},
		{"PATCH", "/operations/{operationId}", operator, s.patchOperation, docPatchOperation},
		{"GET", "/operations/{operationId}/validation-rules", reader, s.getValidationRules, docGetValidationRules},
		{"PATCH", "/operations/{operationId}/validation-rules", operator, s.patchValidationRules, docPatchValidationRules},
		{"GET", "/operations/{operationId}/transform-rules", reader, s.getTransformRules, docGetTransformRules},
		{"PUT", "/operations/{operationId}/transform-rules", operator, s.putTransformRules, docPutTransformRules},
		{"GET", "/operations/{operationId}/mapping", reader, s.getMapping, docGetMapping},
		{"PUT", "/operations/{operationId}/mapping", operator, s.putMapping, docPutMapping},
		{"POST", "/operations/{operationId}/mapping:regenerate", operator, s.regenerateMapping, docRegenerateMapping},
		{"GET", "/operations/{operationId}/mapping-diagnostics", reader, s.getOperationDiagnostics, docOperationDiagnostics},
		{"GET", "/services/{serviceId}/mapping-diagnostics", reader, s.getServiceDiagnostics, docServiceDiagnostics},
		{"POST", "/services/{serviceId}/mapping:regenerate", operator, s.regenerateServiceMappings, docRegenerateServiceMappings},
	}
}
