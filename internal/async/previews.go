package async

import (
	"bytes"
	"io"
	"mime"
	"net/http"
	"slices"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/httpx"
	"github.com/s2r-project/s2r/internal/model"
)

// preview is the answer of replay-preview and callback-preview: the
// execution's current state and what the callback would make of it.
// RelatesTo and MessageID are the callback's correlation headers; Matches
// is false when they name another execution. Outcome is null when there
// is no callback to preview.
type preview struct {
	CorrelationID    string       `json:"correlationId"`
	Status           string       `json:"status"`
	Replayable       bool         `json:"replayable"`
	HasCallback      bool         `json:"hasCallback"`
	RelatesTo        string       `json:"relatesTo"`
	MessageID        string       `json:"messageId"`
	Matches          bool         `json:"matches"`
	Outcome          *outcomeView `json:"outcome"`
	PayloadsWithheld bool         `json:"payloadsWithheld"`
}

// replayPreview answers GET /async-executions/{id}/replay-preview.
func (x *adminAPI) replayPreview(w http.ResponseWriter, r *http.Request) error {
	e, err := x.execution(r)
	if err != nil {
		return err
	}
	p := preview{CorrelationID: e.CorrelationID, Status: e.Status, HasCallback: e.HasCallback,
		Replayable: slices.Contains(model.AsyncReplayable, e.Status)}
	if e.Callback != nil {
		info, out, err := x.convert(r, e, e.Callback)
		if err != nil {
			return err
		}
		p.fill(info, out, e)
	}
	return adminapi.WriteJSON(w, http.StatusOK, p.forCaller(r))
}

// callbackPreview answers POST /async-executions/{id}/callback-preview.
func (x *adminAPI) callbackPreview(w http.ResponseWriter, r *http.Request) error {
	e, err := x.execution(r)
	if err != nil {
		return err
	}
	body, err := x.readCallback(r)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return adminapi.FieldError("", "the body must be the raw SOAP callback to preview")
	}
	info, out, err := x.convert(r, e, body)
	if err != nil {
		return err
	}
	p := preview{CorrelationID: e.CorrelationID, Status: e.Status, HasCallback: e.HasCallback,
		Replayable: slices.Contains(model.AsyncReplayable, e.Status)}
	p.fill(info, out, e)
	return adminapi.WriteJSON(w, http.StatusOK, p.forCaller(r))
}

func (p *preview) fill(info dataplane.CallbackInfo, out model.AsyncOutcome, e model.AsyncExecution) {
	p.RelatesTo, p.MessageID = info.RelatesTo, info.MessageID
	p.Matches = names(info, e)
	p.Outcome = &outcomeView{Status: out.Status, Result: out.Result, Fault: out.Fault, Error: out.Error}
}

// forCaller withholds the outcome's payloads from reader.
func (p preview) forCaller(r *http.Request) preview {
	if p.Outcome != nil && !showPayloads(r) {
		o := *p.Outcome
		o.Result, o.Fault = nil, nil
		p.Outcome, p.PayloadsWithheld = &o, true
	}
	return p
}

// names reports whether a callback may finish e: it names e, or nothing.
func names(info dataplane.CallbackInfo, e model.AsyncExecution) bool {
	id := info.ID()
	return id == "" || id == e.CorrelationID
}

// key is the async key of e.
func key(e model.AsyncExecution) model.AsyncKey {
	return model.AsyncKey{Direction: e.Direction, Environment: e.Environment, ServiceKey: e.ServiceKey, OperationKey: e.OperationKey}
}

// convert converts a callback for e through the runtime. An operation the
// runtime does not serve is 422 S2R-OBS-0422.
func (x *adminAPI) convert(r *http.Request, e model.AsyncExecution, body []byte) (dataplane.CallbackInfo, model.AsyncOutcome, error) {
	if x.conv == nil {
		return dataplane.CallbackInfo{}, model.AsyncOutcome{}, apierr.New(apierr.AdmInternal, "callback conversion is not available")
	}
	info, out, err := x.conv.ConvertCallback(r, key(e), e.CorrelationID, body)
	if apierr.CodeOf(err) == apierr.RunNotFound {
		return info, out, apierr.Newf(apierr.ObsInvalidState, "operation %s/%s/%s is not served by an active route, so its "+
			"callbacks cannot be converted", e.Environment, e.ServiceKey, e.OperationKey).WithCause(err)
	}
	return info, out, err
}

// readCallback reads a raw callback body (XML or text; no Content-Type is
// accepted too) within the payload limit.
func (x *adminAPI) readCallback(r *http.Request) ([]byte, error) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || !slices.Contains(xmlMedia, mt) {
			return nil, apierr.New(apierr.ValUnsupportedMedia, "the callback body must be text/plain or application/xml")
		}
	}
	mb := httpx.DefaultMaxPayloadMB
	if x.cfg.MaxPayloadMB != nil {
		if v := x.cfg.MaxPayloadMB(); v >= 1 {
			mb = v
		}
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, int64(mb)<<20+1))
	if err != nil {
		return nil, apierr.Wrap(apierr.ValBadRequest, err, "the request body could not be read")
	}
	if len(body) > mb<<20 {
		return nil, apierr.PayloadTooLarge(apierr.AdmPayloadTooLarge, mb)
	}
	return body, nil
}
