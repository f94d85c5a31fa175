package onboarding

import (
	"net/http"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
)

// importRoutes lists the WSDL import, autopilot and repair routes
// (SPEC 4.8, DESIGN 8). Imports are operator changes; reading an artifact
// is a reader's.
func (s *Handlers) Routes() []adminapi.Route {
	return []adminapi.Route{
		{Method: "POST", Path: "/wsdl/import", Role: model.RoleOperator, Handle: s.postImport, Doc: docPostImport,
			Audit: adminapi.OnFailure("wsdl.import", "wsdl_artifact", "")},
		{Method: "POST", Path: "/wsdl/import-url", Role: model.RoleOperator, Handle: s.postImportURL, Doc: docPostImportURL,
			Audit: adminapi.OnFailure("wsdl.import", "wsdl_artifact", "")},
		{Method: "POST", Path: "/wsdl/import-xml", Role: model.RoleOperator, Handle: s.postImportXML, Doc: docPostImportXML,
			Audit: adminapi.OnFailure("wsdl.import", "wsdl_artifact", "")},
		{Method: "GET", Path: "/wsdl/import/{artifactId}", Role: model.RoleReader, Handle: s.getImport, Doc: docGetImport},
		{Method: "POST", Path: "/wsdl/import/{artifactId}/generate-service", Role: model.RoleOperator, Handle: s.postGenerateService, Doc: docGenerateService,
			Audit: adminapi.OnFailure("wsdl.generate_service", "wsdl_artifact", "{artifactId}")},

		{Method: "POST", Path: "/wsdl/import-xml:autopilot", Role: model.RoleOperator, Handle: s.postAutopilotXML, Doc: docAutopilotXML,
			Audit: adminapi.OnFailure("wsdl.autopilot", "wsdl_artifact", "")},
		{Method: "POST", Path: "/wsdl/import:autopilot", Role: model.RoleOperator, Handle: s.postAutopilotUpload, Doc: docAutopilotUpload,
			Audit: adminapi.OnFailure("wsdl.autopilot", "wsdl_artifact", "")},
		{Method: "POST", Path: "/wsdl/import-url:autopilot", Role: model.RoleOperator, Handle: s.postAutopilotURL, Doc: docAutopilotURL,
			Audit: adminapi.OnFailure("wsdl.autopilot", "wsdl_artifact", "")},
		{Method: "POST", Path: "/wsdl/import/{artifactId}:autopilot", Role: model.RoleOperator, Handle: s.postAutopilotArtifact, Doc: docAutopilotArtifact,
			Audit: adminapi.OnFailure("wsdl.autopilot", "wsdl_artifact", "{artifactId}")},
		{Method: "POST", Path: "/wsdl/import-urls:autopilot", Role: model.RoleOperator, Handle: s.postAutopilotURLs, Doc: docAutopilotURLs},
		{Method: "POST", Path: "/wsdl/import-files:autopilot", Role: model.RoleOperator, Handle: s.postAutopilotFiles, Doc: docAutopilotFiles},

		{Method: "POST", Path: "/wsdl/namespace-repair-preview", Role: model.RoleOperator, Handle: s.postNamespaceRepairPreview, Doc: docNamespaceRepairPreview},
		{Method: "POST", Path: "/wsdl/external-reference-preview", Role: model.RoleOperator, Handle: s.postExternalReferencePreview, Doc: docExternalReferencePreview},
		{Method: "POST", Path: "/wsdl/repair-report", Role: model.RoleOperator, Handle: s.postRepairReport, Doc: docRepairReport},
		{Method: "POST", Path: "/wsdl/repair-package", Role: model.RoleOperator, Handle: s.postRepairPackage, Doc: docRepairPackage},
	}
}

// repairForm documents the multipart form of the repair endpoints.
type repairForm struct {
	File        string `json:"file"`
	CheckRemote string `json:"checkRemote,omitempty"`
	RootPath    string `json:"rootPath,omitempty"`
}

// batchFilesForm documents the multipart form of the batch file autopilot:
// several file parts plus the shared autopilot fields.
type batchFilesForm struct {
	File        string `json:"file"`
	RootPath    string `json:"rootPath,omitempty"`
	Environment string `json:"environment"`
	ServiceKey  string `json:"serviceKey,omitempty"`
	ServiceName string `json:"serviceName,omitempty"`
	Direction   string `json:"direction,omitempty"`
	BackendURL  string `json:"backendUrl,omitempty"`
}

var importErrors = []int{http.StatusBadRequest, http.StatusRequestEntityTooLarge}

var docPostImport = adminapi.Doc{
	Summary: "Import a WSDL uploaded as multipart/form-data field file: one WSDL, or a ZIP of a WSDL and its XSDs " +
		"(detected by its magic bytes; root WSDL: the only .wsdl at the shallowest depth). Parsed and compiled fully " +
		"before anything is stored; a contract that cannot be imported answers 400 S2R-VAL-0400 with details {file, line, reason}. " +
		"Limits: 20 MB per document, ZIP 500 files and 50 MB inflated, body 32 MB (413 S2R-ADM-0413).",
	Form:     importUploadBody{},
	Response: ArtifactView{},
	Status:   http.StatusCreated,
	Errors:   importErrors,
}

var docPostImportURL = adminapi.Doc{
	Summary: "Import the WSDL at an http(s) URL, and its relative and remote imports, through the guarded fetcher " +
		"(loopback, link-local and metadata addresses refused unless in outbound_allowed_cidrs; outbound_denied_cidrs always refused).",
	Request:  importURLBody{},
	Response: ArtifactView{},
	Status:   http.StatusCreated,
	Errors:   importErrors,
}

var docPostImportXML = adminapi.Doc{
	Summary:  "Import pasted WSDL XML (stored as root.wsdl) with optional further files keyed by the relative path its imports use.",
	Request:  importXMLBody{},
	Response: ArtifactView{},
	Status:   http.StatusCreated,
	Errors:   importErrors,
}

var docGetImport = adminapi.Doc{
	Summary:  "A stored WSDL import artifact: files (paths, sizes, SHA-256; texts with includeFiles=true), services, ports and operations.",
	Query:    []adminapi.Param{{Name: "includeFiles", Type: "string", Description: "true to include every file's text"}},
	Response: ArtifactView{},
	Errors:   []int{http.StatusNotFound},
}

const repairInputDoc = " Body: JSON {xml, files, checkRemote} or multipart/form-data with field file (a WSDL or a ZIP) and " +
	"fields checkRemote and rootPath. Nothing is stored; remote references are fetched (guarded) only with checkRemote=true."

var docNamespaceRepairPreview = adminapi.Doc{
	Summary:  "Preview namespace auto-repairs: every prefix used without declaration, where it is first used, and the declaration proposed." + repairInputDoc,
	Request:  repairBody{},
	Response: NamespaceRepairPreview{},
	Errors:   importErrors,
	Form:     repairForm{},
}

var docExternalReferencePreview = adminapi.Doc{
	Summary: "Health of every wsdl:import, xs:import and xs:include: resolved from the files, builtin well-known schema, " +
		"remote_reachable, remote_unreachable, remote_not_checked, missing or namespace_only." + repairInputDoc,
	Request:  repairBody{},
	Response: ReferenceReport{},
	Errors:   importErrors,
	Form:     repairForm{},
}

var docRepairReport = adminapi.Doc{
	Summary: "Combined diagnostics: namespace repairs, reference health, the import error before and after repair, warnings " +
		"and status IMPORTABLE, IMPORTABLE_AFTER_REPAIR or NOT_IMPORTABLE." + repairInputDoc,
	Request:  repairBody{},
	Response: RepairReport{},
	Errors:   importErrors,
	Form:     repairForm{},
}

var docRepairPackage = adminapi.Doc{
	Summary: "A ZIP (application/zip) with the repaired root WSDL, every file with the proposed namespace declarations, and every " +
		"resolvable remote (external/<host>/<path>) or built-in (builtin/) reference, references rewritten to those relative paths; " +
		"s2r-repair-report.json lists the changes and what stayed unresolved." + repairInputDoc,
	Request:       repairBody{},
	Errors:        importErrors,
	Form:          repairForm{},
	ResponseMedia: adminapi.MediaZIP,
}

const autopilotDoc = " In ONE transaction: the artifact (when new), the service (status active, serviceKey derived from the WSDL " +
	"service name in lower-kebab-case unless given; an existing service with that direction, environment and key is 409 " +
	"S2R-ADM-0409), a draft version, its operations with auto mappings, a default backend profile (backendUrl, default the " +
	"port's soap:address), audit events and a revision bump; then the mapping diagnostics and publish readiness of the draft. " +
	"Port: wsdlService/wsdlPort/soapVersion when given, else the first service's SOAP 1.1 port, else its SOAP 1.2 port."

var autopilotErrors = []int{http.StatusBadRequest, http.StatusNotFound, http.StatusConflict, http.StatusRequestEntityTooLarge}

var docAutopilotXML = adminapi.Doc{
	Summary:  "Autopilot (DESIGN 8): import pasted WSDL XML and its files and draft a service from it." + autopilotDoc,
	Request:  autopilotXMLBody{},
	Response: AutopilotResult{},
	Status:   http.StatusCreated,
	Errors:   autopilotErrors,
}

var docAutopilotUpload = adminapi.Doc{
	Summary:  "Autopilot of a WSDL or ZIP uploaded as multipart/form-data field file, with the other fields as form fields." + autopilotDoc,
	Form:     autopilotFormBody{},
	Response: AutopilotResult{},
	Status:   http.StatusCreated,
	Errors:   autopilotErrors,
}

var docAutopilotURL = adminapi.Doc{
	Summary:  "Autopilot of the WSDL at a URL, fetched with its imports through the guarded fetcher." + autopilotDoc,
	Request:  autopilotURLBody{},
	Response: AutopilotResult{},
	Status:   http.StatusCreated,
	Errors:   autopilotErrors,
}

var docAutopilotArtifact = adminapi.Doc{
	Summary:  "Autopilot of a stored WSDL import." + autopilotDoc,
	Request:  autopilotArtifactBody{},
	Response: AutopilotResult{},
	Status:   http.StatusCreated,
	Errors:   autopilotErrors,
}

var docGenerateService = adminapi.Doc{
	Summary:  "Generate a draft service, version, operations, auto mappings and a backend profile from a stored import (same as its autopilot)." + autopilotDoc,
	Request:  autopilotArtifactBody{},
	Response: AutopilotResult{},
	Status:   http.StatusCreated,
	Errors:   autopilotErrors,
}

const batchDoc = " Each item runs in its own transaction; the answer is 200 with every item's status and its 201 body or its " +
	"error (SPEC 7.1 shape), in request order, and summary {total, succeeded, failed}. At most 50 items."

var docAutopilotURLs = adminapi.Doc{
	Summary:  "Batch autopilot of URLs: items are autopilotURLBody objects." + batchDoc,
	Request:  autopilotURLBatch{},
	Response: BatchResult{},
	Errors:   []int{http.StatusBadRequest, http.StatusRequestEntityTooLarge},
}

var docAutopilotFiles = adminapi.Doc{
	Summary: "Batch autopilot of files: multipart/form-data with several file parts (WSDL or ZIP each) and the shared " +
		"autopilot fields (serviceKey and rootPath only with one file), or JSON items with xml and files." + batchDoc,
	Request:  autopilotXMLBatch{},
	Response: BatchResult{},
	Errors:   []int{http.StatusBadRequest, http.StatusRequestEntityTooLarge},
	Form:     batchFilesForm{},
}
