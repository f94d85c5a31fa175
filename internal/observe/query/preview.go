package query

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"

	"github.com/google/uuid"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/convert"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// Preview modes (SPEC 4.10).
const (
	modeContract = "contract"
	modeNaive    = "naive"
)

// previewMedia are the accepted body types (and none).
var previewMedia = []string{"text/xml", "application/xml", "text/plain", "application/soap+xml"}

var docPostPreview = adminapi.Doc{
	Summary: "SOAP-to-JSON preview (SPEC 4.10): converts a SOAP envelope (or a bare XML body) to the JSON a client of the " +
		"operation sees. mode contract: the operation's compiled contract and active mapping (renames) convert the " +
		"direction's message, with declared fault details typed; mode naive: the generic XML-to-JSON mapping of " +
		"docs/conversion.md, used when no operation is named or its version has no contract. fault is true when the body " +
		"holds a SOAP Fault (json is then the fault). The XML is read by s2r's secure reader (no DTD, bounded depth and " +
		"sizes); the body is limited to max_payload_mb.",
	Query: []adminapi.Param{
		{Name: "operationId", Type: "string", Description: "operation (UUID)"},
		{Name: "serviceId", Type: "string", Description: "service (UUID); with operationKey, the operation of its active (else draft) version"},
		{Name: "operationKey", Type: "string", Description: "operation key, with serviceId"},
		{Name: "direction", Type: "string", Description: "request or response (default)"},
	},
	RequestMedia: previewMedia,
	Response:     previewResult{},
	Errors:       []int{http.StatusNotFound, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType},
}

// previewResult is the answer of POST /soap-to-json-preview.
type previewResult struct {
	Mode         string          `json:"mode"`
	JSON         json.RawMessage `json:"json"`
	Fault        bool            `json:"fault"`
	OperationID  string          `json:"operationId,omitempty"`
	OperationKey string          `json:"operationKey,omitempty"`
	Direction    string          `json:"direction"`
}

// previewContract is what contract mode converts with.
type previewContract struct {
	op      model.Operation
	plan    *convert.Plan // nil: the message has no body (one-way)
	faults  map[[2]string]*convert.Plan
	renamer *routing.Renamer // body renames of the active mapping
	faultRn *routing.Renamer
}

// postPreview answers POST /soap-to-json-preview.
func (a *API) postPreview(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	direction := q.Get("direction")
	switch direction {
	case "":
		direction = model.TargetResponse
	case model.TargetRequest, model.TargetResponse:
	default:
		return adminapi.FieldError("direction", "must be request or response")
	}
	op, err := a.previewOperation(r.Context(), q)
	if err != nil {
		return err
	}
	body, lim, err := a.previewBody(w, r)
	if err != nil {
		return err
	}
	out := previewResult{Mode: modeNaive, Direction: direction}
	var c *previewContract
	if op != nil {
		out.OperationID, out.OperationKey = op.OperationID, op.OperationKey
		if c, err = a.previewContract(r.Context(), *op, direction); err != nil {
			return err
		}
	}
	if c != nil {
		out.Mode = modeContract
	}
	out.JSON, out.Fault, err = convertPreview(body, lim, c)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}

// previewOperation resolves the operation the query names; nil for none.
func (a *API) previewOperation(ctx context.Context, q url.Values) (*model.Operation, error) {
	opID, svcID, key := q.Get("operationId"), q.Get("serviceId"), q.Get("operationKey")
	for _, p := range []struct{ name, v string }{{"operationId", opID}, {"serviceId", svcID}} {
		if _, err := uuid.Parse(p.v); p.v != "" && err != nil {
			return nil, adminapi.FieldError(p.name, "must be a UUID")
		}
	}
	if err := checkText("operationKey", key); err != nil {
		return nil, err
	}
	switch {
	case opID != "":
		op, err := a.store.Operation(ctx, opID)
		if errors.Is(err, store.ErrNotFound) {
			return nil, apierr.Newf(apierr.AdmNotFound, "operation %s not found", opID)
		}
		return &op, err
	case key != "" && svcID == "":
		return nil, adminapi.FieldError("serviceId", "is required with operationKey")
	case svcID == "":
		return nil, nil
	}
	if _, err := a.store.Service(ctx, svcID); errors.Is(err, store.ErrNotFound) {
		return nil, apierr.Newf(apierr.AdmNotFound, "service %s not found", svcID)
	} else if err != nil {
		return nil, err
	}
	if key == "" {
		return nil, nil // the service alone names no contract: naive
	}
	for _, status := range []string{model.VersionActive, model.VersionDraft} {
		v, err := a.store.VersionWithStatus(ctx, svcID, status)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		ops, err := a.store.Operations(ctx, v.VersionID)
		if err != nil {
			return nil, err
		}
		for i := range ops {
			if ops[i].OperationKey == key {
				return &ops[i], nil
			}
		}
	}
	return nil, apierr.Newf(apierr.AdmNotFound, "service %s has no operation %q in its active or draft version", svcID, key)
}

// previewBody reads the XML body through the payload limit.
func (a *API) previewBody(w http.ResponseWriter, r *http.Request) ([]byte, xmlstream.Limits, error) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || !slices.Contains(previewMedia, mt) {
			return nil, xmlstream.Limits{}, apierr.New(apierr.ValUnsupportedMedia, "the body must be XML: text/xml, application/xml, application/soap+xml or text/plain")
		}
	}
	mb := model.DefaultSettings().MaxPayloadMB
	if s, err := a.store.Settings(r.Context()); err == nil {
		mb = s.MaxPayloadMB
	}
	limit := mb << 20
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, xmlstream.Limits{}, apierr.PayloadTooLarge(apierr.AdmPayloadTooLarge, int(mb))
		}
		return nil, xmlstream.Limits{}, apierr.Wrap(apierr.ValBadRequest, err, "the request body could not be read")
	}
	if len(body) == 0 {
		return nil, xmlstream.Limits{}, adminapi.FieldError("body", "an XML body is required")
	}
	return body, xmlstream.Limits{MaxSize: limit}, nil
}

// previewContract compiles the contract of op's direction; nil when its
// version has no stored contract (naive fallback).
func (a *API) previewContract(ctx context.Context, op model.Operation, direction string) (*previewContract, error) {
	v, err := a.store.Version(ctx, op.VersionID)
	if err != nil || v.ArtifactID == nil {
		return nil, err
	}
	xop, err := a.contracts.Operation(ctx, *v.ArtifactID, v.WSDLService, v.WSDLPort, op.SOAPOperationName)
	if err != nil {
		return nil, nil // the stored contract no longer has it: naive
	}
	msg := xop.Output
	if direction == model.TargetRequest {
		msg = xop.Input
	}
	c := &previewContract{op: op, faults: routing.FaultPlans(xop)}
	if msg != nil {
		if c.plan, err = convert.Compile(msg, convert.OptionsFor(xop)); err != nil {
			return nil, nil
		}
	}
	return c, c.mapping(ctx, a.store, direction)
}

// mapping loads the renames of op's active mapping.
func (c *previewContract) mapping(ctx context.Context, st *store.Store, direction string) error {
	m, err := st.ActiveMapping(ctx, c.op.OperationID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	part := m.ResponseMapping
	if direction == model.TargetRequest {
		part = m.RequestMapping
	}
	if c.renamer, err = routing.ParseRenamer(part); err != nil {
		c.renamer = nil
	}
	if c.faultRn, err = routing.ParseRenamer(m.FaultMapping); err != nil {
		c.faultRn = nil
	}
	return nil
}

// convertPreview converts body: a SOAP envelope's Body content (or its
// Fault), or a bare XML document, by c (nil: naively).
func convertPreview(body []byte, lim xmlstream.Limits, c *previewContract) (json.RawMessage, bool, error) {
	m, rd, err := soap.ParseHead(body, lim)
	if err != nil {
		if c != nil && c.plan != nil {
			// A bare body: its root is the message's first element.
			out, cerr := convert.FragmentJSON(nil, withoutDeclaration(body), c.plan, "", lim)
			if cerr != nil {
				return nil, false, previewError(err, cerr)
			}
			return c.rename(out, c.renamer), false, nil
		}
		out, nerr := convert.NaiveXMLToJSONBytes(nil, body, lim)
		if nerr != nil {
			return nil, false, previewError(err, nerr)
		}
		return out, false, nil
	}
	if m.FaultAhead(rd) {
		f, err := m.ReadFault(rd)
		if err != nil {
			return nil, false, previewError(err, nil)
		}
		return faultJSON(f, c, lim), true, nil
	}
	var out []byte
	if c != nil && c.plan != nil {
		out, err = c.plan.XMLToJSON(nil, rd, "/Envelope/Body")
	} else {
		out, err = convert.NaiveXMLToJSON(nil, rd, "/Envelope/Body")
	}
	if err == nil {
		err = soap.FinishBody(rd)
	}
	if err != nil {
		return nil, false, previewError(err, nil)
	}
	if c != nil {
		out = c.rename(out, c.renamer)
	}
	return out, false, nil
}

// withoutDeclaration drops a leading XML declaration, so the document can
// be read as a fragment.
func withoutDeclaration(doc []byte) []byte {
	d := bytes.TrimLeft(doc, " \t\r\n\ufeff")
	if bytes.HasPrefix(d, []byte("<?xml")) {
		if i := bytes.Index(d, []byte("?>")); i >= 0 {
			return d[i+2:]
		}
	}
	return doc
}

// faultJSON is the fault in the JSON shape of docs/conversion.md: the
// detail by the declared fault its first element names, else naively,
// renamed by the fault mapping in contract mode.
func faultJSON(f *soap.Fault, c *previewContract, lim xmlstream.Limits) json.RawMessage {
	var detail []byte
	if len(f.Detail) > 0 {
		const path = "/Envelope/Body/Fault/detail"
		if name, ok := convert.DetailElement(f.Detail); ok && c != nil {
			if p := c.faults[[2]string{name.Space, name.Local}]; p != nil {
				detail, _ = convert.FragmentJSON(nil, f.Detail, p, path, lim)
			}
		}
		if detail == nil {
			detail, _ = convert.FragmentJSON(nil, f.Detail, nil, path, lim)
		}
		if c != nil && detail != nil {
			detail = c.rename(detail, c.faultRn)
		}
	}
	return f.AppendJSON(nil, detail)
}

// rename applies rn to the JSON doc (unchanged without renames).
func (c *previewContract) rename(doc []byte, rn *routing.Renamer) json.RawMessage {
	if rn == nil {
		return doc
	}
	v, err := routing.DecodeJSON(doc)
	if err != nil {
		return doc
	}
	out, err := json.Marshal(rn.FromContract(v))
	if err != nil {
		return doc
	}
	return out
}

// previewError is 400 S2R-VAL-0400 naming the body, with the reason of
// the conversion error (its path) when there is one, else of err.
func previewError(err, convErr error) error {
	e := adminapi.FieldError("body", "the XML could not be converted: "+err.Error())
	if ce, ok := convert.AsError(convErr); ok {
		e = adminapi.FieldError("body", "the XML does not fit the contract at "+ce.Path+": "+ce.Reason).WithDetail("path", ce.Path)
	} else if ce, ok := convert.AsError(err); ok {
		e = adminapi.FieldError("body", "the XML could not be converted at "+ce.Path+": "+ce.Reason).WithDetail("path", ce.Path)
	}
	return e
}
