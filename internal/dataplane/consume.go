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
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// consumeCall is the state of one consume request (SPEC 4.4): a SOAP
// request answered by a REST backend.
type consumeCall struct {
	d     *Dispatcher
	r     *http.Request
	w     http.ResponseWriter
	svc   *routing.Service
	op    *routing.Operation
	rec   *model.TxRecord
	cid   string
	debug bool
	// version is the SOAP version of the request, hence of the answer and
	// of every Fault; SOAP 1.1 until the Content-Type says otherwise.
	version soap.Version
	conv    time.Duration
	maxMB   int
	// notSOAP is set when the request is refused before it is a SOAP
	// exchange (method, Content-Type): its Fault then carries the code's
	// own status, even in SOAP 1.1.
	notSOAP bool
}

// serveConsume serves a request on a consume service: GET for the WSDL
// and its imports (SPEC 4.7), POST for SOAP calls. Every error is a SOAP
// Fault of the request's version carrying the S2R code.
func (d *Dispatcher) serveConsume(w http.ResponseWriter, r *http.Request, t Target, svc *routing.Service) {
	start := d.cfg.Now()
	c := &consumeCall{d: d, r: r, w: w, svc: svc, cid: correlation.ID(r.Context()), version: soap.V11,
		maxMB: maxPayloadMB(d.cfg.MaxPayloadMB)}
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Type"))), soap.MediaType12) {
		c.version = soap.V12
	}
	c.rec = d.newRecord(r, t, start)
	c.rec.ServiceKey, c.rec.ServiceID = svc.ServiceKey, svc.ID
	c.debug = svc.DebugEnabled
	c.rec.Debug = c.debug
	if c.debug {
		c.rec.Headers = &model.DebugHeaders{Request: r.Header.Clone()}
	}

	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		if doc, ok := wsdlDocument(r, t); ok {
			status, n := d.serveConsumeWSDL(w, r, t, svc, doc)
			c.finish(status, n, nil, start)
			return
		}
	}
	body, status, err := c.run(t)
	if err != nil {
		e := apierr.Resolve(err, apierr.RunInternal)
		apierr.Log(r.Context(), e)
		fv := faultVersion(c.version)
		b := apierr.MarshalFault(fv, e, c.cid)
		h := w.Header()
		h.Set("Content-Type", fv.ContentType())
		h.Set("Content-Length", strconv.Itoa(len(b)))
		if e.Code == apierr.RunPayloadTooLarge {
			h.Set("Connection", "close")
		}
		if e.Code == apierr.RunMethodNotAllowed {
			h.Set("Allow", "POST, GET")
		}
		apierr.SetRetryAfter(h, e)
		st := apierr.FaultStatus(fv, e)
		if c.notSOAP {
			st = e.Status()
		}
		w.WriteHeader(st)
		w.Write(b)
		if c.debug {
			c.rec.ResponsePayload = b
		}
		c.finish(st, len(b), e, start)
		return
	}
	h := w.Header()
	if body == nil { // one-way operation
		w.WriteHeader(status)
		c.finish(status, 0, nil, start)
		return
	}
	h.Set("Content-Type", c.version.ContentType(""))
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
	if c.debug {
		c.rec.ResponsePayload = body
	}
	c.finish(status, len(body), nil, start)
}

// finish completes the record and hands it to the recorder.
func (c *consumeCall) finish(status, n int, e *apierr.Error, start time.Time) {
	c.rec.HTTPStatus = status
	c.rec.ResultCode = model.ResultSuccess
	if e != nil {
		c.rec.ErrorCode, c.rec.ResultCode = e.Code, model.ResultForCode(e.Code)
	}
	c.rec.ResponseBytes = int64(n)
	c.rec.TotalMs = Ms(c.d.cfg.Now().Sub(start))
	c.rec.ConverterMs = Ms(c.conv)
	if c.debug {
		c.rec.Headers.Response = c.w.Header().Clone()
	}
	c.d.nameSpan(c.r.Context(), c.rec)
	c.d.cfg.Recorder.Record(c.rec)
}

func faultVersion(v soap.Version) apierr.SOAPVersion {
	if v == soap.V12 {
		return apierr.SOAP12
	}
	return apierr.SOAP11
}

// run does SPEC 4.4 rules 1-5, with the inbound WS-Security policy checked
// once the envelope's head is read (DESIGN 10.2), and returns the SOAP answer and its status
// (nil body with 202 for a one-way operation).
func (c *consumeCall) run(t Target) ([]byte, int, error) {
	if err := c.d.admitClient(c.r, c.svc, netip.Addr{}); err != nil {
		return nil, 0, err
	}
	if c.r.Method != http.MethodPost {
		c.notSOAP = true
		return nil, 0, apierr.Newf(apierr.RunMethodNotAllowed,
			"method %s not supported: a consume service takes POST (and GET for its WSDL: ?wsdl or /wsdl)", c.r.Method)
	}
	if rest := strings.Trim(t.Rest, "/"); rest != "" {
		return nil, 0, apierr.Newf(apierr.RunNotFound, "no resource %s under consume service %q: SOAP calls go to /consume/%s/%s",
			t.Rest, c.svc.ServiceKey, t.Environment, t.ServiceKey)
	}
	raw, err := c.readBody()
	if err != nil {
		return nil, 0, err
	}
	t0 := time.Now()
	var in []byte
	m, rd, err := c.parseEnvelope(raw)
	if err == nil {
		err = checkWSSecurity(c.r.Context(), c.svc, raw, c.rec)
	}
	if err == nil {
		c.op, rd, err = c.selectOperation(m, rd, raw)
	}
	if err == nil {
		c.rec.OperationKey, c.rec.OperationID = c.op.Key, c.op.ID
		in, err = c.requestJSON(rd)
	}
	var call restCall
	if err == nil {
		call, err = c.restCall(in)
	}
	c.conv += time.Since(t0)
	if err != nil {
		return nil, 0, err
	}
	resp, err := c.send(call)
	if err != nil {
		return nil, 0, err
	}
	t1 := time.Now()
	out, status, err := c.convertResponse(resp)
	c.conv += time.Since(t1)
	return out, status, err
}

// readBody reads the request (bounded by the payload limit), checks the
// Content-Type and inlines an MTOM package.
func (c *consumeCall) readBody() ([]byte, error) {
	var buf bytes.Buffer
	if cl := c.r.ContentLength; cl > 0 && cl <= int64(c.maxMB)<<20 {
		buf.Grow(int(cl))
	}
	if c.r.Body != nil {
		if _, err := buf.ReadFrom(c.r.Body); err != nil {
			c.rec.RequestBytes = int64(buf.Len())
			if e, ok := apierr.As(err); ok {
				return nil, e
			}
			return nil, apierr.Wrap(apierr.ValBadRequest, err, "the request body could not be read")
		}
	}
	raw := buf.Bytes()
	c.rec.RequestBytes = int64(len(raw))
	if c.debug {
		c.rec.RequestPayload = raw
	}
	ct := c.r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		mt = ""
	}
	switch mt {
	case soap.MediaType11:
		c.version = soap.V11
	case soap.MediaType12:
		c.version = soap.V12
	case "multipart/related":
		if !soap.IsMTOM(ct) {
			return nil, c.badContentType(ct)
		}
		if v, err := soap.VersionFromContentType(ct); err == nil {
			c.version = v
		}
		env, v, err := soap.InlineMTOM(ct, raw, int64(c.maxMB)<<20, c.limits())
		if err != nil {
			if err == soap.ErrTooLarge {
				return nil, apierr.PayloadTooLarge(apierr.RunPayloadTooLarge, c.maxMB)
			}
			return nil, apierr.Wrap(apierr.ValBadRequest, err, "the MTOM package could not be read")
		}
		c.version = v
		raw = env
	default:
		return nil, c.badContentType(ct)
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, apierr.New(apierr.ValBadRequest, "the request body is empty: a SOAP envelope is required")
	}
	return raw, nil
}

func (c *consumeCall) badContentType(ct string) *apierr.Error {
	c.notSOAP = true
	return apierr.Newf(apierr.ValBadRequest,
		"the request must be a SOAP envelope: Content-Type text/xml (SOAP 1.1), application/soap+xml (SOAP 1.2) or an MTOM multipart/related package, got %q", ct).
		WithDetail("contentType", ct)
}

func (c *consumeCall) limits() xmlstream.Limits {
	return xmlstream.Limits{MaxSize: int64(c.maxMB) << 20}
}

// parseEnvelope reads the envelope through the Body start tag (the body
// is tokenized once, by the conversion), checks its version against the
// Content-Type and refuses header blocks it must understand but does not
// (WS-Addressing and WS-Security are understood) and a Fault as the
// request.
func (c *consumeCall) parseEnvelope(raw []byte) (*soap.Message, *xmlstream.Reader, error) {
	m, rd, err := soap.ParseHead(raw, c.limits())
	if err != nil {
		return nil, nil, malformed(err)
	}
	if m.Version != c.version {
		return nil, nil, apierr.Newf(apierr.ValBadRequest,
			"the envelope is SOAP %s but the Content-Type announces SOAP %s", m.Version, c.version)
	}
	understood := func(n xmlstream.Name) bool { return soap.IsAddressing(n.Space) || soap.IsWSSecurity(n) }
	if nu := m.NotUnderstood(understood); len(nu) > 0 {
		f := soap.MustUnderstandFault(nu)
		return nil, nil, apierr.New(apierr.ValBadRequest, f.Reason).WithDetail("faultCode", soap.MustUnderstand)
	}
	if m.FaultAhead(rd) {
		return nil, nil, apierr.New(apierr.ValBadRequest, "the request body is a SOAP Fault")
	}
	return m, rd, nil
}

func malformed(err error) *apierr.Error {
	return apierr.Wrap(apierr.ValBadRequest, err, "the request is not a well-formed SOAP envelope").
		WithDetail("reason", err.Error())
}

// selectOperation picks the operation (SPEC 4.4 rule 2): by the SOAP
// action (SOAPAction for 1.1, the action parameter for 1.2, else the
// WS-Addressing Action header block), else by the body element (the rpc wrapper, the doc/literal input element). Only the
// second case parses the whole envelope first (to learn the body element);
// it returns a reader positioned inside the Body either way.
func (c *consumeCall) selectOperation(m *soap.Message, rd *xmlstream.Reader, raw []byte) (*routing.Operation, *xmlstream.Reader, error) {
	action := soap.Action(c.r.Header.Get("Content-Type"), c.r.Header.Get("SOAPAction"))
	if action == "" {
		action = m.Addressing.Action // a WS-Addressing client may send the action only there
	}
	if action != "" {
		if op := c.svc.OperationByAction(action); op != nil {
			return op, rd, nil
		}
	}
	full, err := soap.Parse(raw, c.limits())
	if err != nil {
		return nil, nil, malformed(err)
	}
	if full.First.Local != "" {
		if op := c.svc.OperationByElement(full.First.Space, full.First.Local); op != nil {
			rd, err := full.BodyReader()
			if err != nil {
				return nil, nil, malformed(err)
			}
			return op, rd, nil
		}
	}
	e := apierr.Newf(apierr.RunNotFound, "service %q in environment %q has no operation for SOAP action %q and body element {%s}%s",
		c.svc.ServiceKey, c.svc.Environment, action, full.First.Space, full.First.Local)
	return nil, nil, unknownSOAPOperation(c.svc, e.WithDetail("soapAction", action).WithDetail("bodyElement", full.First.Local))
}
