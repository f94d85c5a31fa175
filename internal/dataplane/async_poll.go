package dataplane

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/correlation"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
)

// pollTarget recognizes a poll path, GET
// /publish/{env}/{svc}/{operationKey}/async/{correlationId} (SPEC 4.1),
// unless a GET operation of the service claims the path for itself.
func pollTarget(svc *routing.Service, t Target) (opKey, id string, ok bool) {
	rest := stripDuplicatePrefix(t.Rest, t.Environment, t.ServiceKey)
	if !strings.Contains(rest, "/async/") {
		return "", "", false
	}
	segs := strings.Split(strings.TrimPrefix(rest, "/"), "/")
	if len(segs) != 3 || segs[1] != "async" || segs[0] == "" || segs[2] == "" {
		return "", "", false
	}
	if op, _, _ := svc.MatchREST(http.MethodGet, rest); op != nil {
		return "", "", false
	}
	return segs[0], segs[2], true
}

// pollAnswer is the poll answer of DESIGN 9. Error is s2r's addition: the
// S2R error of an execution that failed without a SOAP Fault.
type pollAnswer struct {
	CorrelationID string          `json:"correlationId"`
	Status        string          `json:"status"`
	PollToken     string          `json:"pollToken"`
	ExpiresAt     time.Time       `json:"expiresAt"`
	Result        json.RawMessage `json:"result,omitempty"`
	Fault         json.RawMessage `json:"fault,omitempty"`
	Error         json.RawMessage `json:"error,omitempty"`
}

// servePoll answers a poll (SPEC 4.5 rule 1; DESIGN 6.5): the token is
// single use, so a successful poll answers a fresh one in the body and
// in X-S2R-Poll-Token. Errors take the service's error shape.
func (d *Dispatcher) servePoll(w http.ResponseWriter, r *http.Request, t Target, svc *routing.Service, opKey, id string) {
	start := d.cfg.Now()
	rec := d.newRecord(r, t, start)
	rec.ServiceKey, rec.ServiceID, rec.OperationKey = svc.ServiceKey, svc.ID, opKey
	if op := svc.Operation(opKey); op != nil {
		rec.OperationID = op.ID
	}
	if asyncIDUsable(id) {
		rec.CorrelationID = id // the join key of the execution's records
	}
	body, token, err := d.poll(r, svc, opKey, id)
	n := 0
	if err != nil {
		e := apierr.Resolve(err, apierr.RunInternal)
		apierr.Log(r.Context(), e)
		n = writeShapedError(w, svc.ErrorShape, e, correlation.ID(r.Context()))
		rec.HTTPStatus, rec.ErrorCode, rec.ResultCode = e.Status(), e.Code, model.ResultForCode(e.Code)
	} else {
		h := w.Header()
		h.Set("Content-Type", "application/json; charset=utf-8")
		h.Set("Content-Length", strconv.Itoa(len(body)))
		h.Set("Cache-Control", "no-store")
		h.Set(PollTokenHeader, token)
		w.WriteHeader(http.StatusOK)
		w.Write(body)
		n = len(body)
		rec.HTTPStatus, rec.ResultCode = http.StatusOK, model.ResultSuccess
	}
	rec.ResponseBytes = int64(n)
	rec.TotalMs = Ms(d.cfg.Now().Sub(start))
	d.nameSpan(r.Context(), rec)
	d.cfg.Recorder.Record(rec)
}

func (d *Dispatcher) poll(r *http.Request, svc *routing.Service, opKey, id string) ([]byte, string, error) {
	if d.cfg.Async == nil {
		return nil, "", apierr.New(apierr.RunInternal, "async executions are not configured on this instance")
	}
	token := r.Header.Get(PollTokenHeader)
	if token == "" || len(token) > 256 {
		return nil, "", asyncError(model.ErrAsyncToken, id)
	}
	if !asyncIDUsable(id) {
		return nil, "", asyncError(model.ErrAsyncNotFound, id)
	}
	key := model.AsyncKey{Direction: string(Publish), Environment: svc.Environment, ServiceKey: svc.ServiceKey, OperationKey: opKey}
	next, nextHash := newPollToken()
	e, err := d.cfg.Async.Poll(r.Context(), key, id, pollTokenHash(token), nextHash)
	if err != nil {
		return nil, "", asyncError(err, id)
	}
	body, err := marshalJSON(pollAnswer{CorrelationID: e.CorrelationID, Status: e.Status, PollToken: next,
		ExpiresAt: e.ExpiresAt, Result: e.Result, Fault: e.Fault, Error: e.Error})
	return body, next, err
}
