package backends

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/s2r-project/s2r/internal/admin/backends/samples"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/store"
)

// sampleRequest answers GET /operations/{operationId}/sample-request: a
// request a client can send to the operation, generated from its contract
// (required members only, as the backend smoke tests generate them). For a
// consume service it is the SOAP request to paste into curl or SoapUI; for
// publish, the JSON body. Nothing is called.
type sampleRequest struct {
	OperationID string          `json:"operationId"`
	SOAPVersion string          `json:"soapVersion"`
	SOAPAction  string          `json:"soapAction"`
	ContentType string          `json:"contentType"`
	Payload     json.RawMessage `json:"payload"`
	Envelope    string          `json:"envelope"`
}

var docSampleRequest = adminapi.Doc{
	Summary: "A sample request of the operation generated from its contract, without calling anything: payload (the JSON a " +
		"publish client sends) and envelope (the SOAP request a consume client sends), with the SOAPAction and Content-Type " +
		"that go with it. Required members only; strings are \"string\", numbers fit the facets. An operation without a " +
		"contract (its version's import is missing) is 409 S2R-ADM-0410.",
	Response: sampleRequest{},
	Errors:   []int{http.StatusConflict},
}

// getSampleRequest generates the sample request of an operation.
func (h *Handlers) getSampleRequest(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	op, err := h.store.Operation(ctx, r.PathValue("operationId"))
	if errors.Is(err, store.ErrNotFound) {
		return apierr.New(apierr.AdmNotFound, "no operation with this id")
	}
	if err != nil {
		return err
	}
	v, err := h.store.Version(ctx, op.VersionID)
	if err != nil {
		return err
	}
	contract, err := adminapi.ContractOf(ctx, h.contracts, v, op)
	if err != nil {
		return err
	}
	if contract == nil {
		return apierr.New(apierr.AdmImmutable, "the operation has no contract: its version's WSDL import is missing or lacks it")
	}
	payload, err := samples.Request(contract)
	if err != nil {
		return err
	}
	env, sv, err := soapCall{op: op, contract: contract, payload: payload}.envelope()
	if err != nil {
		return err
	}
	res := sampleRequest{OperationID: op.OperationID, SOAPVersion: op.SOAPVersion, SOAPAction: op.SOAPAction,
		ContentType: "text/xml; charset=utf-8", Payload: payload, Envelope: string(env)}
	if sv == soap.V12 {
		res.ContentType = `application/soap+xml; charset=utf-8; action="` + op.SOAPAction + `"`
	}
	return adminapi.WriteJSON(w, http.StatusOK, res)
}
