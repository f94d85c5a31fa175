package admin

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/xsd"
)

// mappingBody is the body of PUT /operations/{operationId}/mapping; an
// absent member keeps the value of the active mapping.
type mappingBody struct {
	RequestMapping  json.RawMessage `json:"requestMapping,omitempty"`
	ResponseMapping json.RawMessage `json:"responseMapping,omitempty"`
	FaultMapping    json.RawMessage `json:"faultMapping,omitempty"`
}

// regenerateResult answers the service-wide regeneration.
type regenerateResult struct {
	VersionID string          `json:"versionId"`
	Mappings  []model.Mapping `json:"mappings"`
}

var docGetMapping = adminapi.Doc{Summary: "The active mapping of an operation.", Response: model.Mapping{}}

var docPutMapping = adminapi.Doc{
	Summary: "Replace the mapping of a draft operation: a new mappingVersion becomes active and the previous one inactive. " +
		"Each part uses the mapping language of docs/decisions-catalog.md; a mapping naming fields the contract lacks is " +
		"400 S2R-VAL-0400 with details.problems and details.unknownFields.",
	Request:  mappingBody{},
	Response: model.Mapping{},
	Errors:   []int{http.StatusConflict},
}

var docRegenerateMapping = adminapi.Doc{
	Summary:  "Regenerate the auto mapping of a draft operation (new mappingVersion); the fault mapping is preserved.",
	Response: model.Mapping{},
	Errors:   []int{http.StatusConflict},
}

var docRegenerateServiceMappings = adminapi.Doc{
	Summary: "Regenerate the auto mapping of every operation of the service's draft (or of query versionId, which must " +
		"be a draft); fault mappings are preserved. No draft is 409 S2R-ADM-0410.",
	Query:    []adminapi.Param{{Name: "versionId", Type: "string", Description: "the draft version; default the service's draft"}},
	Response: regenerateResult{},
	Errors:   []int{http.StatusConflict},
}

// getMapping answers the active mapping of an operation.
func (s *server) getMapping(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	op, err := operationOrNotFound(s.store.Operation(ctx, r.PathValue("operationId")))
	if err != nil {
		return err
	}
	m, err := s.store.ActiveMapping(ctx, op.OperationID)
	if errors.Is(err, store.ErrNotFound) {
		return apierr.New(apierr.AdmNotFound, "the operation has no active mapping")
	}
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, m)
}

// putMapping stores a manual mapping as the new active mapping.
func (s *server) putMapping(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("operationId")
	var body mappingBody
	if err := adminapi.DecodeJSON(w, r, &body); err != nil {
		return err
	}
	ctx := r.Context()
	m, err := s.replaceMapping(r, id, "mapping.update", func(prev model.Mapping, c contractLookup) (model.Mapping, error) {
		m := prev
		m.Source = model.MappingManual
		for _, part := range []struct {
			dst *json.RawMessage
			v   json.RawMessage
		}{{&m.RequestMapping, body.RequestMapping}, {&m.ResponseMapping, body.ResponseMapping}, {&m.FaultMapping, body.FaultMapping}} {
			if len(part.v) > 0 {
				*part.dst = compactJSON(jsontext.Value(part.v))
			}
		}
		contract, err := c(ctx)
		if err != nil {
			return m, err
		}
		if probs := catalog.CheckMapping(contract, m); len(probs) > 0 {
			return m, mappingProblems(probs)
		}
		return m, nil
	})
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, m)
}

// mappingProblems is the 400 of a mapping that does not fit its contract.
func mappingProblems(probs []catalog.Problem) error {
	var unknown []string
	for _, p := range probs {
		if p.Field != "" && strings.HasSuffix(p.Reason, "the contract lacks") {
			unknown = append(unknown, p.Field)
		}
	}
	p := probs[0]
	field := p.Section
	if p.Field != "" {
		field += "." + p.Field
	}
	e := adminapi.FieldError(field, p.Reason).WithDetail("problems", probs)
	if len(unknown) > 0 {
		e = e.WithDetail("unknownFields", unknown)
	}
	return e
}

// contractLookup loads the contract of the operation being changed.
type contractLookup func(context.Context) (*xsd.Operation, error)

// regenerateMapping regenerates one draft operation's auto mapping.
func (s *server) regenerateMapping(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("operationId")
	m, err := s.replaceMapping(r, id, "mapping.regenerate", regenerated(r.Context()))
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, m)
}

// regenerated returns the change that replaces a mapping by the auto
// mapping while keeping its fault mapping.
func regenerated(ctx context.Context) func(model.Mapping, contractLookup) (model.Mapping, error) {
	return func(prev model.Mapping, c contractLookup) (model.Mapping, error) {
		contract, err := c(ctx)
		if err != nil {
			return prev, err
		}
		m := catalog.AutoMapping(contract)
		if len(prev.FaultMapping) > 0 {
			m.FaultMapping = prev.FaultMapping
		}
		return m, nil
	}
}

// replaceMapping stores the mapping built by build from the active one as
// the operation's new active mapping, in one transaction with its audit
// event and a revision bump.
func (s *server) replaceMapping(r *http.Request, opID, action string, build func(model.Mapping, contractLookup) (model.Mapping, error)) (model.Mapping, error) {
	ctx := r.Context()
	s.warmContract(ctx, opID)
	var out model.Mapping
	err := s.store.ChangeConfig(ctx, func(tx *store.Tx) error {
		op, v, err := draftOperation(ctx, tx, opID)
		if err != nil {
			return err
		}
		out, err = s.replaceMappingTx(r, tx, op, v, action, build)
		return err
	})
	return out, err
}

// warmContract parses the contract of operation opID into the cache
// before the caller opens its write transaction, so a cold WSDL parse
// never runs while the transaction holds SQLite's writer lock. A failure
// is ignored here: the transaction reads the rows again and answers it.
func (s *server) warmContract(ctx context.Context, opID string) {
	op, err := s.store.Operation(ctx, opID)
	if err != nil {
		return
	}
	if v, err := s.store.Version(ctx, op.VersionID); err == nil {
		_, _ = adminapi.Definitions(ctx, s.contracts, v)
	}
}

// replaceMappingTx is replaceMapping inside tx for one draft operation.
func (s *server) replaceMappingTx(r *http.Request, tx *store.Tx, op model.Operation, v model.Version, action string, build func(model.Mapping, contractLookup) (model.Mapping, error)) (model.Mapping, error) {
	ctx := r.Context()
	prev, err := tx.ActiveMapping(ctx, op.OperationID)
	var before any = prev
	if errors.Is(err, store.ErrNotFound) {
		prev, before = catalog.AutoMapping(nil), nil
	} else if err != nil {
		return model.Mapping{}, err
	}
	lookup := func(ctx context.Context) (*xsd.Operation, error) { return adminapi.ContractOf(ctx, s.contracts, v, op) }
	m, err := build(prev, lookup)
	if err != nil {
		return model.Mapping{}, err
	}
	m.MappingID, m.OperationID, m.CreatedAt, m.CreatedBy = adminapi.NewID(), op.OperationID, s.now().UTC(), adminapi.CallerEmail(r)
	m, err = tx.CreateMapping(ctx, m)
	if err != nil {
		return model.Mapping{}, err
	}
	err = tx.InsertAudit(ctx, adminapi.AuditEvent(r, action, "operation", op.OperationID,
		"mapping version "+itoa(m.MappingVersion)+" of operation "+op.OperationKey, before, m))
	return m, err
}

// regenerateServiceMappings regenerates the auto mapping of every
// operation of the draft.
func (s *server) regenerateServiceMappings(w http.ResponseWriter, r *http.Request) (err error) {
	serviceID := r.PathValue("serviceId")
	ctx := r.Context()
	res := regenerateResult{Mappings: []model.Mapping{}}
	err = s.store.ChangeConfig(ctx, func(tx *store.Tx) error {
		v, err := s.draftOfService(ctx, tx, serviceID, r.URL.Query().Get("versionId"))
		if err != nil {
			return err
		}
		res.VersionID = v.VersionID
		ops, err := tx.Operations(ctx, v.VersionID)
		if err != nil {
			return err
		}
		for _, op := range ops {
			m, err := s.replaceMappingTx(r, tx, op, v, "mapping.regenerate", regenerated(ctx))
			if err != nil {
				return err
			}
			res.Mappings = append(res.Mappings, m)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, res)
}

// draftOfService returns the service's draft, or version versionID when
// given (which must be a draft of the service).
func (s *server) draftOfService(ctx context.Context, tx *store.Tx, serviceID, versionID string) (model.Version, error) {
	if _, err := adminapi.ServiceOrNotFound(tx.Service(ctx, serviceID)); err != nil {
		return model.Version{}, err
	}
	if versionID != "" {
		v, err := adminapi.VersionOf(ctx, tx, serviceID, versionID)
		if err != nil {
			return v, err
		}
		if v.Status != model.VersionDraft {
			return v, immutable(v)
		}
		return v, nil
	}
	v, err := tx.VersionWithStatus(ctx, serviceID, model.VersionDraft)
	if errors.Is(err, store.ErrNotFound) {
		return v, apierr.New(apierr.AdmImmutable, "the service has no draft version; create one (POST /services/{serviceId}/versions)")
	}
	return v, err
}
