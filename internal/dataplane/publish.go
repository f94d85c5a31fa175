package dataplane

import (
	"bytes"
	"mime"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/correlation"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/upstream"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// publishCall is the state of one publish request (SPEC 4.2).
type publishCall struct {
	d     *Dispatcher
	r     *http.Request
	svc   *routing.Service
	op    *routing.Operation
	rec   *model.TxRecord
	cid   string
	debug bool
	// conv accumulates the time spent in s2r's own work on the request
	// and the response (validation, transforms, conversion).
	conv  time.Duration
	maxMB int
	// body and out are pooled buffers, released once the answer is written.
	body, out *[]byte
	// called is set once the backend call was made.
	called bool
	// wsa holds the WS-Addressing headers of the request (async, or sync
	// when declared or asked for: syncAddressing); nil for none.
	wsa *soap.Addressing
	// accepted is set when an async request was accepted (202).
	accepted *model.AsyncExecution
	// pollToken is the first poll token of an accepted request.
	pollToken string
}

// release returns the pooled buffers unless a debug record holds them.
func (c *publishCall) release() {
	if c.debug {
		return
	}
	putBuf(c.body)
	putBuf(c.out)
}

// servePublish serves a publish request for svc and hands its record to
// the recorder.
func (d *Dispatcher) servePublish(w http.ResponseWriter, r *http.Request, t Target, svc *routing.Service) {
	start := d.cfg.Now()
	c := &publishCall{d: d, r: r, svc: svc, cid: correlation.ID(r.Context()),
		maxMB: maxPayloadMB(d.cfg.MaxPayloadMB)}
	c.rec = d.newRecord(r, t, start)
	c.rec.ServiceKey, c.rec.ServiceID = svc.ServiceKey, svc.ID
	c.debug = svc.DebugEnabled || strings.EqualFold(strings.TrimSpace(r.Header.Get("X-Debug-Enabled")), "true")
	c.rec.Debug = c.debug
	if c.debug {
		c.rec.Headers = &model.DebugHeaders{Request: r.Header.Clone()}
	}

	body, err := c.run(t)
	n := 0
	if err != nil {
		e := apierr.Resolve(err, apierr.RunInternal)
		apierr.Log(r.Context(), e)
		setAllow(w.Header(), e)
		n = writeShapedError(w, svc.ErrorShape, e, c.cid)
		c.rec.HTTPStatus, c.rec.ErrorCode = e.Status(), e.Code
		c.rec.ResultCode = model.ResultForCode(e.Code)
		if e.Code == apierr.RunPayloadTooLarge && c.called {
			c.rec.ResultCode = model.ResultBackendFailure // the backend's answer was too large
		}
	} else if c.accepted != nil {
		n = c.writeAccepted(w, body)
	} else {
		out := wrapSuccess(svc.EnvelopeWrap, body, c.cid, svc.ServiceKey, c.rec.OperationKey, start)
		h := w.Header()
		h.Set("Content-Type", "application/json; charset=utf-8")
		h.Set("Content-Length", strconv.Itoa(len(out)))
		w.WriteHeader(http.StatusOK)
		w.Write(out)
		n = len(out)
		c.rec.HTTPStatus, c.rec.ResultCode = http.StatusOK, model.ResultSuccess
		if c.debug {
			c.rec.ResponsePayload = out
		}
	}
	c.rec.ResponseBytes = int64(n)
	c.rec.TotalMs = Ms(d.cfg.Now().Sub(start))
	c.rec.ConverterMs = Ms(c.conv)
	if c.debug {
		c.rec.Headers.Response = w.Header().Clone()
	}
	d.nameSpan(r.Context(), c.rec)
	d.cfg.Recorder.Record(c.rec)
	c.release()
}

// run does the work of SPEC 4.2 rules 1-9 and returns the converted JSON.
func (c *publishCall) run(t Target) ([]byte, error) {
	if err := c.d.admitClient(c.r, c.svc, netip.Addr{}); err != nil {
		return nil, err
	}
	op, params, err := resolveOperation(c.svc, c.r.Method, t)
	if err != nil {
		return nil, err
	}
	c.op = op
	c.rec.OperationKey, c.rec.OperationID = op.Key, op.ID
	if op.Request == nil {
		return nil, apierr.Newf(apierr.RunInternal, "operation %q has no compiled contract", op.Key)
	}
	raw, err := c.readBody()
	if err != nil {
		return nil, err
	}
	if op.ExecutionMode == model.ExecutionAsyncCallback {
		return c.runAsync(raw, params)
	}
	c.wsa = syncAddressing(c.svc, op)
	t0 := time.Now()
	envelope, err := c.buildRequest(raw, params)
	c.conv += time.Since(t0)
	if err != nil {
		return nil, err
	}
	resp, err := c.call(envelope)
	if err != nil {
		return nil, err
	}
	t1 := time.Now()
	out, err := c.convertResponse(resp)
	c.conv += time.Since(t1)
	return out, err
}

// resolveOperation finds the operation named by the rest of the path
// (rule 1): POST /{operationKey}, else the operation whose restMethod and
// restPath match. A duplicated /{environment}/{serviceKey} prefix is
// dropped first (DESIGN 6.11).
func resolveOperation(svc *routing.Service, method string, t Target) (*routing.Operation, []routing.PathParam, error) {
	rest := stripDuplicatePrefix(t.Rest, t.Environment, t.ServiceKey)
	if method == http.MethodPost {
		if key := strings.Trim(rest, "/"); key != "" && !strings.Contains(key, "/") {
			if op := svc.Operation(key); op != nil {
				return op, nil, nil
			}
		}
	}
	op, params, mismatch := svc.MatchREST(method, rest)
	if op != nil {
		return op, params, nil
	}
	if mismatch {
		allow := svc.MethodsFor(rest)
		return nil, nil, apierr.Newf(apierr.RunMethodNotAllowed, "%s is not supported on %s of service %q: use %s",
			method, rest, svc.ServiceKey, strings.Join(allow, " or ")).WithDetail(allowDetail, allow)
	}
	if strings.Trim(rest, "/") == "" {
		return nil, nil, unknownOperation(svc, apierr.Newf(apierr.RunNotFound,
			"no operation in the path: want /publish/%s/%s/{operationKey}", t.Environment, t.ServiceKey))
	}
	return nil, nil, unknownOperation(svc, apierr.Newf(apierr.RunNotFound,
		"service %q in environment %q has no operation for %s %s", svc.ServiceKey, svc.Environment, method, rest))
}

// stripDuplicatePrefix turns /dev/calc/add into /add for environment dev
// and service calc, as often as the prefix repeats.
func stripDuplicatePrefix(rest, env, key string) string {
	prefix := "/" + env + "/" + key
	for rest == prefix || strings.HasPrefix(rest, prefix+"/") {
		rest = rest[len(prefix):]
	}
	return rest
}

// readBody reads the request body (bounded by the payload limit) and
// checks that a non-empty body is JSON.
func (c *publishCall) readBody() ([]byte, error) {
	n := 512
	if cl := c.r.ContentLength; cl > 0 && cl <= int64(c.maxMB)<<20 {
		n = int(cl) + 1 // room to see EOF without growing
	}
	c.body = getBuf(n)
	if c.r.Body != nil {
		if err := readAll(c.body, c.r.Body); err != nil {
			c.rec.RequestBytes = int64(len(*c.body))
			if e, ok := apierr.As(err); ok {
				return nil, e
			}
			return nil, apierr.Wrap(apierr.ValBadRequest, err, "the request body could not be read")
		}
	}
	raw := *c.body
	c.rec.RequestBytes = int64(len(raw))
	if c.debug {
		c.rec.RequestPayload = raw
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	ct := c.r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || !(mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))) {
		return nil, apierr.Newf(apierr.ValBadRequest, "the request body must be JSON (Content-Type application/json), got %q", ct).
			WithDetail("contentType", ct)
	}
	return raw, nil
}

// limits are the XML limits of a backend response.
func (c *publishCall) limits() xmlstream.Limits {
	return xmlstream.Limits{MaxSize: int64(c.maxMB) << 20}
}

// call sends the envelope to the backend (rule 6).
func (c *publishCall) call(envelope []byte) (*upstream.Response, error) {
	op := c.op
	h := http.Header{"Content-Type": {op.SOAPVersion.ContentType(op.SOAPAction)}, "Accept": {acceptSOAP(op.SOAPVersion)}}
	if op.SOAPVersion == soap.V11 {
		h.Set("SOAPAction", strconv.Quote(op.SOAPAction))
	}
	retries := op.Retries
	c.called = true
	return backendCall{d: c.d, r: c.r, rec: c.rec, debug: c.debug, maxMB: c.maxMB}.do(c.svc,
		upstream.Request{Method: http.MethodPost, Header: h, Body: envelope, Timeout: op.Timeout, Retries: &retries,
			SOAP: true, ForBackend: c.addressTo()})
}

// acceptSOAP is the Accept header of a publish call: the version's
// envelope type and MTOM/XOP and SwA answers, which publish reads (JAX-WS
// RI answers MTOM only to a request that is MTOM or accepts
// application/xop+xml).
func acceptSOAP(v soap.Version) string {
	if v == soap.V12 {
		return "application/soap+xml, multipart/related, application/xop+xml"
	}
	return "text/xml, multipart/related, application/xop+xml"
}
