package backends

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/s2r-project/s2r/internal/admin/backends/samples"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/xsd"
)

// applicationTestBody is the body of :test-application.
type applicationTestBody struct {
	OperationID string         `json:"operationId"`
	Payload     jsontext.Value `json:"payload"`
	DatasetID   string         `json:"datasetId"`
}

// applicationTestDoc documents applicationTestBody.
type applicationTestDoc struct {
	OperationID string          `json:"operationId"`
	Payload     json.RawMessage `json:"payload,omitempty"`
	DatasetID   string          `json:"datasetId,omitempty"`
}

var docTestApplication = adminapi.Doc{
	Summary: "A real SOAP call of one operation through the profile: the JSON payload (or the payload of a test " +
		"dataset) is converted with the operation's contract, sent with the profile's auth, timeout and retry, and " +
		"the answer converted back. The preview (request, response, status, latency; never headers or credentials) " +
		"is saved and answered. Backend failures are a 200 with status failed and the S2R code the runtime would " +
		"answer; a payload that does not fit the contract is 400 naming payload.",
	Request:  applicationTestDoc{},
	Response: model.TestPreview{},
}

var docTestPreviews = adminapi.Doc{
	Summary:  "Saved test previews of a profile, newest first, paged.",
	Query:    adminapi.PageParams,
	Response: model.ObservabilityPageRecord[model.TestPreview]{},
}

// testApplication calls one operation for real and saves the preview.
func (s *Handlers) testApplication(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	p, err := profileOrNotFound(s.store.BackendProfile(ctx, r.PathValue("profileId")))
	if err != nil {
		return err
	}
	var body applicationTestBody
	if err := adminapi.DecodeJSON(w, r, &body); err != nil {
		return err
	}
	op, contract, err := s.profileOperation(ctx, p, body.OperationID)
	if err != nil {
		return err
	}
	payload, err := s.testPayload(ctx, p.ServiceID, body)
	if err != nil {
		return err
	}
	settings, err := s.store.Settings(ctx)
	if err != nil {
		return err
	}
	call := soapCall{profile: p, op: op, contract: contract, payload: payload, settings: settings}
	preview, err := s.callAndSave(r, call, model.PreviewApplication)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, preview)
}

// testPayload returns the body's payload (a JSON object) or the named
// dataset's of the same service.
func (s *Handlers) testPayload(ctx context.Context, serviceID string, body applicationTestBody) ([]byte, error) {
	hasPayload := len(body.Payload) > 0 && body.Payload.Kind() != 'n'
	switch {
	case hasPayload && body.DatasetID != "":
		return nil, adminapi.FieldError("datasetId", "give payload or datasetId, not both")
	case hasPayload:
		if body.Payload.Kind() != '{' {
			return nil, adminapi.FieldError("payload", "must be a JSON object")
		}
		return []byte(body.Payload.Clone()), nil
	case body.DatasetID != "":
		d, err := s.store.TestDataset(ctx, body.DatasetID)
		if errors.Is(err, store.ErrNotFound) || (err == nil && d.ServiceID != serviceID) {
			return nil, adminapi.FieldError("datasetId", "is not a test dataset of this profile's service")
		}
		return d.Payload, err
	}
	return nil, adminapi.FieldError("payload", "is required (or datasetId)")
}

// profileOperation returns the operation with id when it belongs to a
// version of the profile's service, with its contract.
func (s *Handlers) profileOperation(ctx context.Context, p model.BackendProfile, id string) (model.Operation, *xsd.Operation, error) {
	if id == "" {
		return model.Operation{}, nil, adminapi.FieldError("operationId", "is required")
	}
	op, err := s.store.Operation(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return op, nil, adminapi.FieldError("operationId", "is not an operation of this profile's service")
	}
	if err != nil {
		return op, nil, err
	}
	v, err := s.store.Version(ctx, op.VersionID)
	if err != nil {
		return op, nil, err
	}
	if v.ServiceID != p.ServiceID {
		return op, nil, adminapi.FieldError("operationId", "is not an operation of this profile's service")
	}
	contract, err := adminapi.ContractOf(ctx, s.contracts, v, op)
	if err != nil {
		return op, nil, err
	}
	if contract == nil {
		return op, nil, adminapi.FieldError("operationId", "has no contract (the version's WSDL import is missing or lacks it)")
	}
	return op, contract, nil
}

// callAndSave makes the call and saves its preview.
func (s *Handlers) callAndSave(r *http.Request, c soapCall, kind string) (model.TestPreview, error) {
	ctx := r.Context()
	req, res, err := s.send(ctx, c)
	if err != nil {
		return model.TestPreview{}, err
	}
	opID := c.op.OperationID
	return s.savePreview(ctx, model.TestPreview{ProfileID: c.profile.ProfileID, OperationID: &opID, Kind: kind,
		Status: res.Status, HTTPStatus: res.HTTPStatus, LatencyMs: res.latency.Milliseconds(), CreatedBy: adminapi.CallerEmail(r)}, req, res)
}

// savePreview stores a preview with its encoded request and response.
func (s *Handlers) savePreview(ctx context.Context, p model.TestPreview, req, res any) (model.TestPreview, error) {
	var err error
	if p.Request, err = json.Marshal(req); err != nil {
		return p, err
	}
	if p.Response, err = json.Marshal(res); err != nil {
		return p, err
	}
	p.PreviewID, p.CreatedAt = adminapi.NewID(), s.now().UTC()
	// Saved even when the caller went away: the call was made.
	ctx = context.WithoutCancel(ctx)
	err = s.store.Transact(ctx, func(tx *store.Tx) error { return tx.InsertTestPreview(ctx, p) })
	return p, err
}

// listTestPreviews answers the saved previews of a profile.
func (s *Handlers) listTestPreviews(w http.ResponseWriter, r *http.Request) error {
	page, err := adminapi.ParsePage(r.URL.Query())
	if err != nil {
		return err
	}
	p, err := profileOrNotFound(s.store.BackendProfile(r.Context(), r.PathValue("profileId")))
	if err != nil {
		return err
	}
	out, err := s.store.TestPreviews(r.Context(), p.ProfileID, page)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}

// samplesBody is the body of :test-generated-samples.
type samplesBody struct {
	OperationID string `json:"operationId,omitempty"`
	VersionID   string `json:"versionId,omitempty"`
}

// sampleResult is one operation's outcome in a samples run.
type sampleResult struct {
	OperationID  string     `json:"operationId"`
	OperationKey string     `json:"operationKey"`
	Status       string     `json:"status"`
	HTTPStatus   int        `json:"httpStatus"`
	LatencyMs    int64      `json:"latencyMs"`
	PreviewID    string     `json:"previewId,omitempty"`
	Error        *CallError `json:"error,omitempty"`
}

// SamplesReport answers :test-generated-samples.
type SamplesReport struct {
	VersionID string         `json:"versionId"`
	Summary   map[string]int `json:"summary"`
	Results   []sampleResult `json:"results"`
}

var docTestSamples = adminapi.Doc{
	Summary: "Generated-sample test: a minimal valid request is generated from each operation's contract " +
		"(internal/samples) and sent for real, as :test-application does. With operationId one operation; otherwise " +
		"a smoke test of every operation of versionId (default: the active version, else the draft), at most 4 calls " +
		"at a time, results in operation order. Each call's " +
		"preview is saved; the answer has per-operation results and a summary (total, succeeded, failed, soap_fault).",
	Request:  samplesBody{},
	Response: SamplesReport{},
}

// testGeneratedSamples runs generated requests against the backend.
func (s *Handlers) testGeneratedSamples(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	p, err := profileOrNotFound(s.store.BackendProfile(ctx, r.PathValue("profileId")))
	if err != nil {
		return err
	}
	var body samplesBody
	if err := adminapi.DecodeOptionalJSON(w, r, &body); err != nil {
		return err
	}
	calls, versionID, err := s.sampleCalls(ctx, p, body)
	if err != nil {
		return err
	}
	rep := SamplesReport{VersionID: versionID, Results: []sampleResult{},
		Summary: map[string]int{"total": len(calls), model.PreviewStatusSucceeded: 0, model.PreviewStatusFailed: 0,
			model.PreviewStatusSOAPFault: 0}}
	results := make([]sampleResult, len(calls))
	sem := make(chan struct{}, sampleParallelism)
	var wg sync.WaitGroup
	for i, c := range calls {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = s.sampleCall(r, c)
		})
	}
	wg.Wait()
	for _, res := range results {
		rep.Summary[res.Status]++
		rep.Results = append(rep.Results, res)
	}
	return adminapi.WriteJSON(w, http.StatusOK, rep)
}

// sampleParallelism bounds the concurrent calls of a smoke test, so a
// slow backend costs a batch about len/4 timeouts, not len.
const sampleParallelism = 4

// sampleCall makes one generated-sample call and summarizes it.
func (s *Handlers) sampleCall(r *http.Request, c soapCall) sampleResult {
	res := sampleResult{OperationID: c.op.OperationID, OperationKey: c.op.OperationKey}
	preview, err := s.callAndSave(r, c, model.PreviewGeneratedSample)
	if err != nil {
		e := apierr.Resolve(err, apierr.AdmInternal)
		res.Status, res.Error = model.PreviewStatusFailed, &CallError{Code: e.Code, Message: e.Message}
		return res
	}
	res.Status, res.HTTPStatus, res.LatencyMs, res.PreviewID = preview.Status, preview.HTTPStatus, preview.LatencyMs, preview.PreviewID
	var saved callResult
	if json.Unmarshal(preview.Response, &saved) == nil {
		res.Error = saved.Error
	}
	return res
}

// sampleCalls returns the calls of a samples run with generated payloads.
func (s *Handlers) sampleCalls(ctx context.Context, p model.BackendProfile, body samplesBody) ([]soapCall, string, error) {
	settings, err := s.store.Settings(ctx)
	if err != nil {
		return nil, "", err
	}
	call := func(op model.Operation, contract *xsd.Operation) (soapCall, error) {
		payload, err := samples.Request(contract)
		return soapCall{profile: p, op: op, contract: contract, payload: payload, settings: settings}, err
	}
	if body.OperationID != "" {
		op, contract, err := s.profileOperation(ctx, p, body.OperationID)
		if err != nil {
			return nil, "", err
		}
		c, err := call(op, contract)
		return []soapCall{c}, op.VersionID, err
	}
	v, err := s.sampleVersion(ctx, p.ServiceID, body.VersionID)
	if err != nil {
		return nil, "", err
	}
	ops, err := s.store.Operations(ctx, v.VersionID)
	if err != nil {
		return nil, "", err
	}
	contracts, err := adminapi.ContractsOf(ctx, s.contracts, v, ops)
	if err != nil {
		return nil, "", err
	}
	var calls []soapCall
	for _, op := range ops {
		if c := contracts[op.OperationID]; c != nil {
			sc, err := call(op, c)
			if err != nil {
				return nil, "", err
			}
			calls = append(calls, sc)
		}
	}
	return calls, v.VersionID, nil
}

// sampleVersion is the named version of the service, else its active
// version, else its draft.
func (s *Handlers) sampleVersion(ctx context.Context, serviceID, versionID string) (model.Version, error) {
	if versionID != "" {
		v, err := adminapi.VersionOf(ctx, s.store, serviceID, versionID)
		if err != nil {
			return v, adminapi.FieldError("versionId", "is not a version of this profile's service")
		}
		return v, nil
	}
	for _, status := range []string{model.VersionActive, model.VersionDraft} {
		v, err := s.store.VersionWithStatus(ctx, serviceID, status)
		if err == nil {
			return v, nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return v, err
		}
	}
	return model.Version{}, adminapi.FieldError("versionId", "the service has no active or draft version")
}
