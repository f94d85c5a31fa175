package admin

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/openapi"
	"github.com/s2r-project/s2r/internal/store"
)

// openAPIHeader carries the hex SHA-256 of the exact document bytes.
const openAPIHeader = "X-OpenAPI-SHA256"

var docGenerateOpenAPI = adminapi.Doc{
	Summary: "Generate the OpenAPI 3.1 document of the version's publish REST API and store it with its SHA-256 " +
		"(replacing an earlier one). Answers the stored document's metadata; header X-OpenAPI-SHA256. Operations " +
		"sharing a REST route are 409 S2R-ADM-0410.",
	Response: model.OpenAPIDocument{},
	Errors:   []int{http.StatusConflict},
}

var docGetVersionOpenAPI = adminapi.Doc{
	Summary: "The version's OpenAPI 3.1 document: the stored one when it was generated, otherwise generated afresh " +
		"(not stored). Header X-OpenAPI-SHA256 is the hex SHA-256 of the exact bytes returned; X-S2R-OpenAPI-Source " +
		"is stored or generated.",
	Response: map[string]any{},
}

var docGetOpenAPIPackage = adminapi.Doc{
	Summary: "ZIP (application/zip) with openapi.json (the document GET …/openapi answers), mapping-metadata.json " +
		"(per operation: keys, SOAP names, REST route, mapping version, diagnostics) and checksums.json (SHA-256 of " +
		"the two other files). Header X-OpenAPI-SHA256 is the document's.",
	ResponseMedia: adminapi.MediaZIP,
}

// generateOpenAPI generates and stores the document of a version.
func (s *server) generateOpenAPI(w http.ResponseWriter, r *http.Request) error {
	serviceID, versionID := r.PathValue("serviceId"), r.PathValue("versionId")
	ctx := r.Context()
	in, err := s.openAPIInput(ctx, serviceID, versionID)
	if err != nil {
		return err
	}
	doc, err := generateDocument(in)
	if err != nil {
		return err
	}
	d := model.OpenAPIDocument{VersionID: versionID, Document: doc, SHA256: openapi.SHA256(doc),
		GeneratedAt: s.now().UTC(), GeneratedBy: adminapi.CallerEmail(r)}
	err = s.store.ChangeConfig(ctx, func(tx *store.Tx) error {
		if _, err := adminapi.VersionOf(ctx, tx, serviceID, versionID); err != nil {
			return err
		}
		if err := tx.PutOpenAPIDocument(ctx, d); err != nil {
			return err
		}
		return tx.InsertAudit(ctx, adminapi.AuditEvent(r, "openapi.generate", "version", versionID,
			"generated OpenAPI document of version "+strconv.Itoa(in.Version.VersionNumber)+" of service "+serviceID,
			nil, map[string]any{"versionId": versionID, "sha256": d.SHA256, "sizeBytes": len(doc)}))
	})
	if err != nil {
		return err
	}
	w.Header().Set(openAPIHeader, d.SHA256)
	return adminapi.WriteJSON(w, http.StatusOK, d)
}

// getVersionOpenAPI answers the stored or a fresh document.
func (s *server) getVersionOpenAPI(w http.ResponseWriter, r *http.Request) error {
	doc, source, _, err := s.versionDocument(r.Context(), r.PathValue("serviceId"), r.PathValue("versionId"))
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(doc)))
	h.Set(openAPIHeader, openapi.SHA256(doc))
	h.Set("X-S2R-OpenAPI-Source", source)
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(doc)
	return nil
}

// getOpenAPIPackage answers the ZIP of the document, the mapping metadata
// and the checksums.
func (s *server) getOpenAPIPackage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	serviceID, versionID := r.PathValue("serviceId"), r.PathValue("versionId")
	doc, _, in, err := s.versionDocument(ctx, serviceID, versionID)
	if err != nil {
		return err
	}
	meta, err := s.mappingMetadata(ctx, in)
	if err != nil {
		return err
	}
	zip, err := openapi.Package(doc, meta)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Content-Length", strconv.Itoa(len(zip)))
	h.Set("Content-Disposition", `attachment; filename="`+in.Service.ServiceKey+"-v"+
		strconv.Itoa(in.Version.VersionNumber)+`-openapi.zip"`)
	h.Set(openAPIHeader, openapi.SHA256(doc))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(zip)
	return nil
}

// versionDocument returns the stored document of a version, or a freshly
// generated one, with its source and the generator input.
func (s *server) versionDocument(ctx context.Context, serviceID, versionID string) ([]byte, string, openapi.Input, error) {
	in, err := s.openAPIInput(ctx, serviceID, versionID)
	if err != nil {
		return nil, "", in, err
	}
	stored, err := s.store.OpenAPIDocument(ctx, versionID)
	if err == nil {
		return stored.Document, "stored", in, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return nil, "", in, err
	}
	doc, err := generateDocument(in)
	return doc, "generated", in, err
}

// generateDocument generates the document; operations sharing a REST
// route (which the operation edits refuse) are 409 S2R-ADM-0410.
func generateDocument(in openapi.Input) ([]byte, error) {
	doc, err := openapi.Generate(in)
	if errors.Is(err, openapi.ErrRouteConflict) {
		return nil, apierr.Wrap(apierr.AdmImmutable, err, "two operations of the version share a REST route; "+
			"give them distinct restMethod/restPath first")
	}
	return doc, err
}

// openAPIInput loads what the document of a version is generated from:
// the service, the version and its operations with their contracts.
func (s *server) openAPIInput(ctx context.Context, serviceID, versionID string) (openapi.Input, error) {
	svc, err := adminapi.ServiceOrNotFound(s.store.Service(ctx, serviceID))
	if err != nil {
		return openapi.Input{}, err
	}
	v, err := adminapi.VersionOf(ctx, s.store, serviceID, versionID)
	if err != nil {
		return openapi.Input{}, err
	}
	ops, err := s.store.Operations(ctx, versionID)
	if err != nil {
		return openapi.Input{}, err
	}
	defs, err := adminapi.Definitions(ctx, s.contracts, v)
	if err != nil {
		return openapi.Input{}, err
	}
	return openapi.NewInput(svc, v, ops, defs, s.public), nil
}

// mappingMetadata builds mapping-metadata.json: per operation its keys,
// SOAP names, REST route, active mapping version and diagnostics.
func (s *server) mappingMetadata(ctx context.Context, in openapi.Input) (openapi.Metadata, error) {
	maps, err := s.store.ActiveMappings(ctx, in.Version.VersionID)
	if err != nil {
		return openapi.Metadata{}, err
	}
	meta := openapi.Metadata{ServiceID: in.Service.ServiceID, ServiceKey: in.Service.ServiceKey,
		Environment: in.Service.Environment, VersionID: in.Version.VersionID, VersionNumber: in.Version.VersionNumber,
		VersionStatus: in.Version.Status, BasePath: openapi.BasePath(in.Service), Operations: []openapi.OperationMetadata{}}
	for _, op := range in.Operations {
		om := openapi.OperationMetadata{OperationID: op.OperationID, OperationKey: op.OperationKey,
			SOAPOperationName: op.SOAPOperationName, SOAPNamespace: op.SOAPNamespace, SOAPAction: op.SOAPAction,
			SOAPVersion: op.SOAPVersion, Style: op.Style, Use: op.Use, RestMethod: op.RestMethod, RestPath: op.RestPath,
			PublishPath: openapi.BasePath(in.Service) + op.RestPath, ExecutionMode: op.ExecutionMode}
		m, hasMapping := maps[op.OperationID]
		if hasMapping {
			om.MappingVersion, om.MappingSource = m.MappingVersion, m.Source
		}
		switch {
		case op.Contract != nil && hasMapping:
			om.Diagnostics = catalog.Diagnose(op.Contract, m)
		default:
			om.Diagnostics = map[string]any{"status": catalog.ManualRequired,
				"reasons": []any{map[string]any{"code": "NO_CONTRACT_OR_MAPPING"}}}
		}
		meta.Operations = append(meta.Operations, om)
	}
	return meta, nil
}
