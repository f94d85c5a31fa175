package admin

import (
	"errors"
	"net/http"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// operationDiagnostics is the mapping diagnostics of one operation.
type operationDiagnostics struct {
	OperationID    string `json:"operationId"`
	OperationKey   string `json:"operationKey"`
	MappingVersion *int   `json:"mappingVersion"`
	catalog.Diagnostics
}

// serviceDiagnostics is the mapping diagnostics of a version's operations.
type serviceDiagnostics struct {
	ServiceID string                 `json:"serviceId"`
	VersionID string                 `json:"versionId"`
	Summary   map[string]int         `json:"summary"` // AUTO_READY, AUTO_READY_WITH_WARNINGS, MANUAL_REQUIRED
	Items     []operationDiagnostics `json:"items"`
}

var docOperationDiagnostics = adminapi.Doc{
	Summary:  "Mapping diagnostics of one operation: AUTO_READY, AUTO_READY_WITH_WARNINGS or MANUAL_REQUIRED, with reasons.",
	Response: operationDiagnostics{},
}

var docServiceDiagnostics = adminapi.Doc{
	Summary: "Mapping diagnostics of every operation of a version (query versionId; default the draft, else the active " +
		"version) with summary counters.",
	Query:    []adminapi.Param{{Name: "versionId", Type: "string", Description: "version to diagnose; default the draft, else the active version"}},
	Response: serviceDiagnostics{},
}

// getOperationDiagnostics answers the diagnostics of one operation.
func (s *server) getOperationDiagnostics(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	op, err := operationOrNotFound(s.store.Operation(ctx, r.PathValue("operationId")))
	if err != nil {
		return err
	}
	v, err := s.store.Version(ctx, op.VersionID)
	if err != nil {
		return err
	}
	c, err := adminapi.ContractOf(ctx, s.contracts, v, op)
	if err != nil {
		return err
	}
	m, err := s.store.ActiveMapping(ctx, op.OperationID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, diagnose(op, catalog.Diagnose(c, m), m, err == nil))
}

// diagnose builds the answer for one operation; an operation without an
// active mapping is MANUAL_REQUIRED.
func diagnose(op model.Operation, d catalog.Diagnostics, m model.Mapping, hasMapping bool) operationDiagnostics {
	out := operationDiagnostics{OperationID: op.OperationID, OperationKey: op.OperationKey, Diagnostics: d}
	if !hasMapping {
		out.Diagnostics = catalog.Diagnostics{Status: catalog.ManualRequired, Reasons: []catalog.Reason{{
			Code: "NO_MAPPING", Severity: "blocking", Message: "the operation has no active mapping"}}}
		return out
	}
	n := m.MappingVersion
	out.MappingVersion = &n
	return out
}

// getServiceDiagnostics answers the diagnostics of a version's operations.
func (s *server) getServiceDiagnostics(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	svc, err := adminapi.ServiceOrNotFound(s.store.Service(ctx, r.PathValue("serviceId")))
	if err != nil {
		return err
	}
	v, err := s.diagnosedVersion(r, svc)
	if err != nil {
		return err
	}
	ops, err := s.store.Operations(ctx, v.VersionID)
	if err != nil {
		return err
	}
	maps, err := s.store.ActiveMappings(ctx, v.VersionID)
	if err != nil {
		return err
	}
	contracts, err := adminapi.ContractsOf(ctx, s.contracts, v, ops)
	if err != nil {
		return err
	}
	out := serviceDiagnostics{ServiceID: svc.ServiceID, VersionID: v.VersionID, Summary: catalog.NewSummary(),
		Items: []operationDiagnostics{}}
	for _, op := range ops {
		m, ok := maps[op.OperationID]
		d := diagnose(op, catalog.Diagnose(contracts[op.OperationID], m), m, ok)
		out.Summary[d.Status]++
		out.Items = append(out.Items, d)
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}

// diagnosedVersion picks the version of the service diagnostics: query
// versionId, else the draft, else the active version.
func (s *server) diagnosedVersion(r *http.Request, svc model.Service) (model.Version, error) {
	ctx := r.Context()
	if id := r.URL.Query().Get("versionId"); id != "" {
		return adminapi.VersionOf(ctx, s.store, svc.ServiceID, id)
	}
	for _, status := range []string{model.VersionDraft, model.VersionActive} {
		v, err := s.store.VersionWithStatus(ctx, svc.ServiceID, status)
		if err == nil || !errors.Is(err, store.ErrNotFound) {
			return v, err
		}
	}
	return model.Version{}, apierr.New(apierr.AdmNotFound, "the service has no draft or active version")
}
