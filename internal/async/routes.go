package async

import (
	"net/http"
	"strings"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/model"
)

// CallbackConverter converts a callback envelope for a served operation
// as the runtime's callback endpoint does, storing nothing
// (*dataplane.Dispatcher implements it).
type CallbackConverter interface {
	ConvertCallback(r *http.Request, key model.AsyncKey, id string, body []byte) (dataplane.CallbackInfo, model.AsyncOutcome, error)
}

// adminAPI serves the admin routes of the executions.
type adminAPI struct {
	*Executions
	// conv converts callbacks for previews and reprocessing; nil refuses them.
	conv CallbackConverter
}

// Routes are the /admin/v1/async-executions routes (SPEC 4.10; DESIGN 9),
// for admin.Config.Routes; conv (the runtime dispatcher) converts
// callbacks for the previews and reprocessing. Reads are reader routes
// (DESIGN 6.3), with the payloads (result, fault, callback) shown to
// operator and admin only; every action is an operator route, audited when refused.
func (x *Executions) Routes(conv CallbackConverter) []adminapi.Route {
	const base = "/async-executions"
	a := &adminAPI{Executions: x, conv: conv}
	return []adminapi.Route{
		{Method: "GET", Path: base, Role: model.RoleReader, Handle: a.list, Doc: docList},
		{Method: "GET", Path: base + "/{id}", Role: model.RoleReader, Handle: a.get, Doc: docGet},
		{Method: "GET", Path: base + "/{id}/replay-preview", Role: model.RoleReader, Handle: a.replayPreview, Doc: docReplayPreview},
		{Method: "POST", Path: base + "/{id}/callback-preview", Role: model.RoleOperator, Handle: a.callbackPreview, Doc: docCallbackPreview},
		{Method: "POST", Path: base + "/{id}/reprocess", Role: model.RoleOperator, Handle: a.reprocess, Doc: docReprocess, Audit: refused("async.reprocess")},
		{Method: "POST", Path: base + "/{id}/complete", Role: model.RoleOperator, Handle: a.complete, Doc: docComplete, Audit: refused("async.complete")},
		{Method: "POST", Path: base + "/{id}/fail", Role: model.RoleOperator, Handle: a.fail, Doc: docFail, Audit: refused("async.fail")},
		{Method: "POST", Path: base + "/{id}/reopen", Role: model.RoleOperator, Handle: a.reopen, Doc: docReopen, Audit: refused("async.reopen")},
	}
}

// refused is the failure audit of an operator action on execution {id}.
func refused(action string) *adminapi.Audit {
	return adminapi.OnFailure(action, "async_execution", "{id}")
}

// xmlMedia are the media types of a raw callback body.
var xmlMedia = []string{"application/xml", "text/xml", "application/soap+xml", "text/plain"}

var docList = adminapi.Doc{
	Summary: "Async callback executions, newest first, filtered and paginated. Items carry no payloads.",
	Query: append(append([]adminapi.Param{
		{Name: "environment", Type: "string", Description: "exact environment"},
		{Name: "serviceKey", Type: "string", Description: "exact service key"},
		{Name: "operationKey", Type: "string", Description: "exact operation key"},
		{Name: "status", Type: "string", Description: "comma-separated or repeated: " + strings.Join(model.AsyncStatuses, ", ")},
	}, adminapi.TimeParams...), adminapi.PageParams...),
	Response: model.ObservabilityPageRecord[model.AsyncExecution]{},
}

var docGet = adminapi.Doc{
	Summary: "One async execution. result, fault and the stored callback (WS-Security headers removed) are shown to " +
		"operator and admin only (payloadsWithheld tells). An unknown id is 400 S2R-OBS-0400.",
	Response: executionDetail{},
}

var docReplayPreview = adminapi.Doc{
	Summary: "What reprocessing the stored callback would do now (the outcome through the operation's current " +
		"response mapping), changing nothing. outcome is null without a stored callback; payloads are withheld from reader.",
	Response: preview{},
}

var docCallbackPreview = adminapi.Doc{
	Summary: "What the given raw SOAP callback (text/plain or application/xml) would do to this execution, changing " +
		"nothing: its correlation headers and the outcome.",
	RequestMedia: xmlMedia,
	Response:     preview{},
}

var docReprocess = adminapi.Doc{
	Summary: "Reprocess a callback: with an empty body the stored one, with a raw SOAP/XML body that one (stored in its " +
		"place). The execution must be replayable (waiting_callback, failed or expired), else 422 S2R-OBS-0422; a " +
		"callback naming another execution is 400 S2R-VAL-0400.",
	RequestMedia: xmlMedia,
	Response:     executionDetail{},
	Errors:       []int{http.StatusUnprocessableEntity, http.StatusConflict},
}

var docComplete = adminapi.Doc{
	Summary: "Complete a replayable execution by hand: the JSON body is the final result (a JSON string holding a " +
		"JSON object or array is unwrapped). Not replayable: 422 S2R-OBS-0422.",
	Request:  map[string]any{},
	Response: executionDetail{},
	Errors:   []int{http.StatusUnprocessableEntity, http.StatusConflict},
}

var docFail = adminapi.Doc{
	Summary: "Fail a replayable execution by hand: the body is the reason, a JSON string or text/plain (1 to 4096 " +
		"characters). Pollers see error {code S2R-RUN-0502, message: the reason, details.manual: true}.",
	RequestMedia: []string{"application/json", "text/plain"},
	Response:     executionDetail{},
	Errors:       []int{http.StatusUnprocessableEntity, http.StatusConflict},
}

var docReopen = adminapi.Doc{
	Summary: "Reopen a completed, failed or expired execution: waiting_callback again with a fresh expiry " +
		"(async_callback_ttl_seconds), its outcome cleared; the stored callback stays. waiting_callback: 422 S2R-OBS-0422.",
	Response: executionDetail{},
	Errors:   []int{http.StatusUnprocessableEntity, http.StatusConflict},
}
