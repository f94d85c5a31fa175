package dataplane

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/correlation"
	"github.com/s2r-project/s2r/internal/license"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/upstream"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// serveCallback serves POST /_s2r/callback/{env}/{svc}/{op} (SPEC 4.5;
// DESIGN 9): authentication, the whole envelope parsed within the payload
// limit, correlation by RelatesTo or MessageID, conversion through the
// operation's response path, and the outcome stored exactly once. The
// answer is 200 {"correlationId","status"} or an SPEC 7.1 error; every
// callback is recorded as a runtime transaction (direction publish).
func (d *Dispatcher) serveCallback(w http.ResponseWriter, r *http.Request) {
	start := d.cfg.Now()
	rec := &model.TxRecord{CorrelationID: correlation.ID(r.Context()), OccurredAt: start, Direction: model.DirectionPublish,
		Method: r.Method, Path: r.URL.Path, ClientIP: clientIP(r)}
	e, err := d.callback(r, rec)
	var n int
	if err != nil {
		ae := apierr.Resolve(err, apierr.RunInternal)
		apierr.Log(r.Context(), ae)
		if ae.Code == apierr.RunMethodNotAllowed {
			w.Header().Set("Allow", http.MethodPost)
		}
		body := apierr.MarshalJSONBody(ae, correlation.ID(r.Context()))
		writeJSON(w, ae.Status(), body)
		n = len(body)
		rec.HTTPStatus, rec.ErrorCode, rec.ResultCode = ae.Status(), ae.Code, model.ResultForCode(ae.Code)
	} else {
		body, _ := marshalJSON(struct {
			CorrelationID string `json:"correlationId"`
			Status        string `json:"status"`
		}{e.CorrelationID, e.Status})
		writeJSON(w, http.StatusOK, body)
		n = len(body)
		rec.HTTPStatus, rec.ResultCode = http.StatusOK, model.ResultSuccess
		if rec.Debug {
			rec.ResponsePayload = body
		}
	}
	rec.ResponseBytes = int64(n)
	rec.TotalMs = Ms(d.cfg.Now().Sub(start))
	d.cfg.Recorder.Record(rec)
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(body)
}

func (d *Dispatcher) callback(r *http.Request, rec *model.TxRecord) (model.AsyncExecution, error) {
	var none model.AsyncExecution
	key, ok := parseCallbackPath(r.URL.Path)
	rec.Environment, rec.ServiceKey, rec.OperationKey = key.Environment, key.ServiceKey, key.OperationKey
	if !ok {
		return none, apierr.New(apierr.RunNotFound, "no callback endpoint at this path: want "+CallbackPrefix+
			"{environment}/{serviceKey}/{operationKey}")
	}
	if r.Method != http.MethodPost {
		return none, apierr.Newf(apierr.RunMethodNotAllowed, "%s is not supported on the callback endpoint: use POST", r.Method)
	}
	if d.cfg.License != nil && d.cfg.License.State() == license.RuntimeStop {
		return none, apierr.New(apierr.RunUnavailable, "the runtime is stopped: the license has expired")
	}
	svc, op, err := d.callbackOperation(key)
	if err != nil {
		return none, err
	}
	rec.ServiceID, rec.OperationID = svc.ID, op.ID
	rec.Debug = svc.DebugEnabled || strings.EqualFold(strings.TrimSpace(r.Header.Get("X-Debug-Enabled")), "true")
	if d.cfg.Async == nil {
		return none, apierr.New(apierr.RunInternal, "async executions are not configured on this instance")
	}
	if err := checkCallbackAuth(r, svc); err != nil {
		return none, err
	}
	maxMB := maxPayloadMB(d.cfg.MaxPayloadMB)
	body, err := readLimited(r, maxMB)
	rec.RequestBytes = int64(len(body))
	if err != nil {
		return none, err
	}
	lim := xmlstream.Limits{MaxSize: int64(maxMB) << 20}
	info, err := ParseCallback(body, lim)
	if err != nil {
		return none, apierr.Wrap(apierr.ValBadRequest, err, "the callback is not a well-formed SOAP 1.1 or 1.2 envelope: "+err.Error())
	}
	stored := RedactCallback(body, lim)
	if rec.Debug {
		rec.RequestPayload = stored
	}
	id := info.ID()
	if id == "" {
		return none, apierr.New(apierr.ValBadRequest, "the callback has no WS-Addressing RelatesTo or MessageID header naming the execution")
	}
	if !asyncIDUsable(id) {
		return none, asyncError(model.ErrAsyncNotFound, id)
	}
	rec.CorrelationID = id // the join key of the execution's records
	// Converted before the execution is read: Finish changes it only if
	// it is waiting, and tells otherwise, in one round trip on success.
	out := d.convertCallback(r, svc, op, id, body, rec)
	out.Callback = stored
	e, err := d.cfg.Async.Finish(r.Context(), key, id, out)
	if err != nil {
		return none, asyncError(err, id)
	}
	return e, nil
}

// parseCallbackPath reads /_s2r/callback/{env}/{svc}/{op}.
func parseCallbackPath(p string) (model.AsyncKey, bool) {
	rest, ok := strings.CutPrefix(p, CallbackPrefix)
	if !ok {
		return model.AsyncKey{}, false
	}
	segs := strings.Split(rest, "/")
	if len(segs) != 3 || segs[0] == "" || segs[1] == "" || segs[2] == "" {
		return model.AsyncKey{}, false
	}
	return model.AsyncKey{Direction: string(Publish), Environment: segs[0], ServiceKey: segs[1], OperationKey: segs[2]}, true
}

// callbackOperation finds the served publish operation of key.
func (d *Dispatcher) callbackOperation(key model.AsyncKey) (*routing.Service, *routing.Operation, error) {
	svc := d.lookup(Publish, key.Environment, key.ServiceKey)
	if svc == nil {
		return nil, nil, apierr.Newf(apierr.RunNotFound, "no active publish service %q in environment %q", key.ServiceKey, key.Environment)
	}
	op := svc.Operation(key.OperationKey)
	if op == nil {
		return nil, nil, apierr.Newf(apierr.RunNotFound, "service %q has no operation %q", key.ServiceKey, key.OperationKey)
	}
	return svc, op, nil
}

// checkCallbackAuth enforces callbackAuthMode shared_secret (SPEC 4.5
// rule 3): the secret in X-S2R-Callback-Secret or as a bearer token,
// compared in constant time (over SHA-256 digests, so the length does not
// leak either). A service without a secret refuses every callback.
func checkCallbackAuth(r *http.Request, svc *routing.Service) error {
	if svc.CallbackAuthMode != model.CallbackAuthSharedSecret {
		return nil
	}
	got := r.Header.Get(CallbackSecretHeader)
	if got == "" {
		if a := r.Header.Get("Authorization"); len(a) > 7 && strings.EqualFold(a[:7], "bearer ") {
			got = strings.TrimSpace(a[7:])
		}
	}
	if got == "" {
		return apierr.New(apierr.RunUnauthorized, "the callback must send the service's callback secret in "+
			CallbackSecretHeader+" or as Authorization: Bearer")
	}
	want := sha256.Sum256(svc.CallbackSecret)
	have := sha256.Sum256([]byte(got))
	if svc.CallbackSecret == nil || subtle.ConstantTimeCompare(want[:], have[:]) != 1 {
		return apierr.New(apierr.RunUnauthorized, "the callback secret is wrong")
	}
	return nil
}

// readLimited reads the request body within maxMB: 413 S2R-RUN-0413 over
// it (by Content-Length before reading, else while reading).
func readLimited(r *http.Request, maxMB int) ([]byte, error) {
	limit := int64(maxMB) << 20
	if r.ContentLength > limit {
		return nil, apierr.PayloadTooLarge(apierr.RunPayloadTooLarge, maxMB)
	}
	if r.Body == nil {
		return nil, nil
	}
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(r.Body, limit+1))
	if err != nil {
		return buf.Bytes(), apierr.Wrap(apierr.ValBadRequest, err, "the callback body could not be read")
	}
	if n > limit {
		return buf.Bytes()[:limit], apierr.PayloadTooLarge(apierr.RunPayloadTooLarge, maxMB)
	}
	return buf.Bytes(), nil
}

// convertCallback converts a callback body for op as a publish answer is
// converted (faults by faultDetailExposureMode, the contract, response
// validation, the response mapping): a Fault fails the execution, a
// conversion error fails it with the S2R error, anything else completes
// it with the converted JSON.
func (d *Dispatcher) convertCallback(r *http.Request, svc *routing.Service, op *routing.Operation, id string, body []byte, rec *model.TxRecord) model.AsyncOutcome {
	c := &publishCall{d: d, r: r, svc: svc, op: op, rec: rec, cid: id, maxMB: maxPayloadMB(d.cfg.MaxPayloadMB)}
	out, err := c.convertResponse(&upstream.Response{StatusCode: http.StatusOK, Body: body})
	defer c.release()
	if err != nil {
		e := apierr.Resolve(err, apierr.RunInternal)
		return failedOutcome(e, e.Code == apierr.RunBackendFault)
	}
	return model.AsyncOutcome{Status: model.AsyncCompleted, Result: bytes.Clone(out)}
}

// ConvertCallback converts a callback envelope for the served operation of
// key exactly as the callback endpoint does, and stores nothing (admin
// previews and reprocessing). The outcome's Callback is body without its
// WS-Security headers. Errors: 404 S2R-RUN-0404 when the operation is not
// served; 400 S2R-VAL-0400 when body is not a well-formed envelope.
func (d *Dispatcher) ConvertCallback(r *http.Request, key model.AsyncKey, id string, body []byte) (CallbackInfo, model.AsyncOutcome, error) {
	svc, op, err := d.callbackOperation(key)
	if err != nil {
		return CallbackInfo{}, model.AsyncOutcome{}, err
	}
	lim := xmlstream.Limits{MaxSize: int64(maxPayloadMB(d.cfg.MaxPayloadMB)) << 20}
	info, err := ParseCallback(body, lim)
	if err != nil {
		return info, model.AsyncOutcome{}, apierr.Wrap(apierr.ValBadRequest, err,
			"the callback is not a well-formed SOAP 1.1 or 1.2 envelope: "+err.Error())
	}
	out := d.convertCallback(r, svc, op, id, body, &model.TxRecord{})
	out.Callback = RedactCallback(body, lim)
	return info, out, nil
}
