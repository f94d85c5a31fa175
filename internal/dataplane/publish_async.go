package dataplane

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/correlation"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/upstream"
)

// CallbackPrefix is the path prefix of the async callback endpoint:
// POST /_s2r/callback/{environment}/{serviceKey}/{operationKey}.
const CallbackPrefix = "/_s2r/callback/"

// runAsync serves an async_callback operation (SPEC 4.2 rule 7; DESIGN 9):
// the request is validated and converted as a sync one, with WS-Addressing
// headers; the execution is stored (committed) before the backend is
// called; a backend that refuses the request before acknowledging it
// fails the execution and the client gets the usual error. Otherwise
// c.accepted is set and the answer is the 202 body.
func (c *publishCall) runAsync(raw []byte, params []routing.PathParam) ([]byte, error) {
	ctx := c.r.Context()
	if correlation.OriginOf(ctx) == correlation.Replaced || !asyncIDUsable(c.cid) {
		return nil, apierr.New(apierr.ValBadRequest, "the X-Correlation-Id cannot name an async execution: "+
			"send 1 to 128 characters of A-Z, a-z, 0-9, '-', '.', '_', '~' or ':', or no header to get a generated id").
			WithDetail("header", correlation.Header)
	}
	async := c.d.cfg.Async
	if async == nil {
		return nil, apierr.New(apierr.RunInternal, "async executions are not configured on this instance")
	}
	op, svc := c.op, c.svc
	target := ""
	if svc.DefaultBackend != nil {
		target = model.RedactTarget(svc.DefaultBackend.Profile.EndpointURL)
	}
	c.wsa = &soap.Addressing{
		MessageID: "urn:uuid:" + c.cid,
		ReplyTo:   c.d.publicBase(c.r) + CallbackPrefix + svc.Environment + "/" + svc.ServiceKey + "/" + op.Key,
		To:        target,
		Action:    wsaAction(op),
	}
	t0 := time.Now()
	envelope, err := c.buildRequest(raw, params)
	c.conv += time.Since(t0)
	if err != nil {
		return nil, err
	}
	token, hash := newPollToken()
	e := &model.AsyncExecution{CorrelationID: c.cid, Status: model.AsyncWaiting, Direction: string(Publish),
		Environment: svc.Environment, ServiceKey: svc.ServiceKey, ServiceID: svc.ID, OperationKey: op.Key,
		OperationID: op.ID, BackendTarget: target}
	if err := async.Start(ctx, e, hash); err != nil {
		if errors.Is(err, model.ErrAsyncDuplicate) {
			return nil, apierr.Newf(apierr.ValBadRequest, "the X-Correlation-Id %q already names an async execution: send a new one", c.cid).
				WithDetail("header", correlation.Header)
		}
		return nil, asyncError(err, c.cid)
	}
	resp, err := c.call(envelope)
	fault := false
	if err == nil {
		fault, err = c.acknowledged(resp)
	}
	if err != nil {
		ae := apierr.Resolve(err, apierr.RunInternal)
		_, ferr := async.Finish(context.WithoutCancel(ctx), c.key(), c.cid, failedOutcome(ae, fault))
		if ferr == nil || !errors.Is(ferr, model.ErrAsyncFinished) {
			if ferr != nil {
				c.d.cfg.Logger.WarnContext(ctx, "async: the failure of an execution could not be recorded",
					"correlationId", c.cid, "error", ferr.Error())
			}
			return nil, err
		}
		// A callback finished the execution before the backend's answer
		// arrived: the request was accepted after all.
	}
	c.accepted, c.pollToken = e, token
	e.SetPollPath()
	return marshalJSON(struct {
		CorrelationID string    `json:"correlationId"`
		Status        string    `json:"status"`
		PollPath      string    `json:"pollPath"`
		PollToken     string    `json:"pollToken"`
		ExpiresAt     time.Time `json:"expiresAt"`
	}{c.cid, model.AsyncWaiting, e.PollPath, token, e.ExpiresAt})
}

// key is the async key of the call's operation.
func (c *publishCall) key() model.AsyncKey {
	return model.AsyncKey{Direction: string(Publish), Environment: c.svc.Environment, ServiceKey: c.svc.ServiceKey,
		OperationKey: c.op.Key}
}

// acknowledged checks the backend's immediate answer to an async request:
// any 2xx is an acknowledgement (its body is not the result, DESIGN 9)
// unless it holds a SOAP Fault; a Fault in any status is 502 S2R-RUN-0502
// (fault reports it), another non-2xx answer 502 S2R-RUN-0502 too.
func (c *publishCall) acknowledged(resp *upstream.Response) (fault bool, err error) {
	ok2xx := resp.StatusCode >= 200 && resp.StatusCode < 300
	if len(bytes.TrimSpace(resp.Body)) > 0 {
		if m, rd, perr := soap.ParseHead(resp.Body, c.limits()); perr == nil && m.FaultAhead(rd) {
			if f, ferr := m.ReadFault(rd); ferr == nil {
				c.rec.InBodyFault = ok2xx
				return true, c.faultError(f, resp.StatusCode)
			}
		}
	}
	if !ok2xx {
		return false, backendStatusError(resp)
	}
	return false, nil
}

// writeAccepted writes the 202 answer of an accepted async request.
func (c *publishCall) writeAccepted(w http.ResponseWriter, body []byte) int {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Cache-Control", "no-store")
	h.Set(PollTokenHeader, c.pollToken)
	h.Set("Location", c.accepted.PollPath)
	w.WriteHeader(http.StatusAccepted)
	w.Write(body)
	c.rec.HTTPStatus, c.rec.ResultCode = http.StatusAccepted, model.ResultSuccess
	if c.debug {
		c.rec.ResponsePayload = body
	}
	return len(body)
}
