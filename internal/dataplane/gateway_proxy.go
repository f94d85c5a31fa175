package dataplane

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/upstream"
)

// gateway is the passthrough machinery shared by every gateway request:
// the transport that selects the backend per request and sends the
// outbound request built by outboundRequest (gateway_relay.go).
type gateway struct {
	cfg       GatewayConfig
	transport gatewayTransport
}

// gwCall is the per-request state of one passthrough.
type gwCall struct {
	svc       *routing.Service
	pool      upstream.Pool
	client    netip.Addr
	inHost    string
	inProto   string
	body      *limitedBody // nil for a request without a body
	small     []byte       // the whole body when read before the call (readSmallBody)
	respLimit int64
	tooLarge  atomic.Bool // the response went over respLimit
	backend   *routing.Backend
	sentAt    time.Time
	backendMs atomic.Int64 // microseconds, set when the response body ends
	respBytes atomic.Int64
	answer    countedBody // the backend's answer body as relayed
	// sniffFault: the answer is a 200 whose first bytes are still looked
	// at for a SOAP Fault (inBodyFault, recorded).
	sniffFault  bool
	inBodyFault atomic.Bool
	errCode     string // S2R code when the gateway answered an error itself
	// debug captures the exchange for the record (service debug on):
	// the inbound headers, the request and answer bodies as relayed, and
	// the backend request headers as sent (auth included) and answer
	// headers. Only the handler goroutine touches them.
	debug       bool
	inHeader    http.Header
	sentHeader  http.Header
	respHeader  http.Header
	reqCapture  []byte
	respCapture []byte
}

func (d *Dispatcher) initGateway() {
	g := &d.gw
	g.cfg = d.cfg.Gateway
	if g.cfg.Client == nil {
		g.cfg.Client = upstream.NewClient()
	}
	if g.cfg.Selector == nil {
		g.cfg.Selector = upstream.NewSelector(nil, nil)
	}
	g.transport.g = g
}

// proxyGateway streams the request to the selected backend and the answer
// back, and records the transaction.
func (d *Dispatcher) proxyGateway(w http.ResponseWriter, r *http.Request, rec *model.TxRecord, svc *routing.Service, client netip.Addr, limit int64) {
	call := &gwCall{svc: svc, pool: poolOf(svc), client: client, inHost: r.Host, inProto: "http", respLimit: limit}
	if r.TLS != nil {
		call.inProto = "https"
	}
	if svc.DebugEnabled {
		call.debug, call.inHeader = true, r.Header.Clone()
	}
	if r.Body != nil && r.Body != http.NoBody {
		call.body = &limitedBody{src: r.Body, limit: limit}
		r.Body = call.body
		if r.ContentLength > 0 && r.ContentLength <= smallBody {
			r.Body, call.small = readSmallBody(call.body, r.ContentLength)
		}
		if call.debug && call.small == nil {
			r.Body = &captureBody{ReadCloser: r.Body, dst: &call.reqCapture}
		}
	}
	sw := &statusWriter{ResponseWriter: w}
	// Deferred: a response cut mid-stream aborts the handler with
	// http.ErrAbortHandler, and that transaction is recorded too.
	defer d.recordGateway(rec, call, sw)
	resp, err := d.gw.transport.send(outboundRequest(r, call), call)
	if err != nil {
		d.gatewayProxyError(sw, r, call, err)
		return
	}
	d.relayAnswer(sw, r, call, resp)
}

// recordGateway completes the record of a proxied request.
func (d *Dispatcher) recordGateway(rec *model.TxRecord, call *gwCall, sw *statusWriter) {
	if call.body != nil {
		rec.RequestBytes = call.body.n.Load()
	}
	rec.ResponseBytes = sw.n
	if call.backend != nil {
		rec.BackendTarget = redactedTarget(call.backend.Profile.EndpointURL)
	}
	rec.BackendMs = float64(call.backendMs.Load()) / 1000
	rec.InBodyFault = call.inBodyFault.Load()
	if call.debug {
		call.capture(rec, sw)
	}
	switch {
	case call.tooLarge.Load():
		// Over the limit on the response side: the backend's fault
		// (docs/decisions-gateway.md), even when the status was sent.
		rec.ErrorCode, rec.HTTPStatus = apierr.RunPayloadTooLarge, sw.status
		rec.ResultCode = model.ResultBackendFailure
		rec.TotalMs = Ms(time.Since(rec.OccurredAt))
		d.cfg.Recorder.Record(rec)
	case call.errCode != "":
		d.finishGatewayRecord(rec, sw.status, call.errCode)
	default:
		d.finishGatewayRecord(rec, sw.status, "")
	}
}

// faultSniffBytes is how far into a 200 answer the gateway looks for a
// SOAP Fault: an envelope's Body starts within its first kilobytes.
const faultSniffBytes = 8 << 10

var faultName = []byte("Fault")

// sniffFault notes a SOAP Fault element among the first bytes of a 200
// answer, without copying them (an element split across two reads is
// missed: the record's InBodyFault is a best effort on the gateway, where
// the answer is relayed untouched either way).
func sniffFault(call *gwCall, p []byte, before int64) {
	if !call.sniffFault || before >= faultSniffBytes || call.inBodyFault.Load() {
		return
	}
	if hasFaultElement(p) {
		call.inBodyFault.Store(true)
	}
}

// hasFaultElement reports whether p holds ":Fault" or "<Fault", in one
// pass over p.
func hasFaultElement(p []byte) bool {
	for off := 0; ; {
		i := bytes.Index(p[off:], faultName)
		if i < 0 {
			return false
		}
		if i += off; i > 0 && (p[i-1] == ':' || p[i-1] == '<') {
			return true
		}
		off = i + len(faultName)
	}
}

var (
	errResponseTooLarge = errors.New("backend response over the payload limit")
	errRequestTooLarge  = errors.New("request body over the payload limit")
	errRequestBody      = errors.New("the request body could not be read")
)

// gatewayProxyError maps a failed passthrough to its S2R answer: the
// request body over the limit 413 S2R-RUN-0413, a response over it 413,
// the selector's 503s as they are, a connect failure 502 S2R-RUN-0502, a
// timeout 504 S2R-RUN-0424.
func (d *Dispatcher) gatewayProxyError(w http.ResponseWriter, r *http.Request, call *gwCall, err error) {
	mb := maxPayloadMB(d.cfg.MaxPayloadMB)
	var e *apierr.Error
	switch {
	case call != nil && call.body != nil && call.body.over.Load(), errors.Is(err, errRequestTooLarge):
		e = apierr.PayloadTooLarge(apierr.RunPayloadTooLarge, mb)
		w.Header().Set("Connection", "close")
	case call != nil && call.tooLarge.Load():
		e = apierr.PayloadTooLarge(apierr.RunPayloadTooLarge, mb)
	case errors.Is(err, errRequestBody):
		// The client's body broke off or was malformed (a bad chunk): the
		// client's mistake, never the backend's.
		e = apierr.New(apierr.ValBadRequest, "the request body could not be read: malformed chunked encoding or the client went away")
		w.Header().Set("Connection", "close")
	case errors.As(err, &e):
	default:
		var ue *upstream.Error
		if !errors.As(err, &ue) {
			ue = &upstream.Error{Kind: upstream.KindUnreachable, Err: err}
		}
		e = ue.APIError()
	}
	if call != nil {
		call.errCode = e.Code
	}
	if apierr.IsRefusal(e.Code) { // every backend at its limit: 503 S2R-RUN-0509
		d.gatewayRefuse(w, r, e)
		return
	}
	apierr.Render(w, r, e, apierr.RunInternal)
}

// smallBody is the largest declared request body read before the
// backend is called: it is (nearly always) already in the server's 4 KB
// read buffer, and sent from memory the transport writes the headers and
// the body in one system call instead of flushing the headers first.
const smallBody = 4 << 10

// readSmallBody reads the n declared bytes of body and returns them as an
// in-memory body. A read that fails returns a body yielding the bytes read
// and then the error, so the backend call fails as it does when streamed;
// the bytes are returned too when the whole body was read.
func readSmallBody(body *limitedBody, n int64) (io.ReadCloser, []byte) {
	buf := make([]byte, n)
	k, err := io.ReadFull(body, buf)
	if err == nil {
		return io.NopCloser(bytes.NewReader(buf)), buf
	}
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(buf[:k]), errReader{err}), body}, nil
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// limitedBody is the client's request body read through the payload
// limit while it streams to the backend. failed notes that reading it
// failed (a malformed chunk, the client gone): the call's failure is then
// the client's.
type limitedBody struct {
	src    io.ReadCloser
	limit  int64
	n      atomic.Int64
	over   atomic.Bool
	failed atomic.Bool
}

func (b *limitedBody) Read(p []byte) (int, error) {
	n, err := b.src.Read(p)
	if b.n.Add(int64(n)) > b.limit {
		b.over.Store(true)
		return 0, errRequestTooLarge
	}
	if err != nil && err != io.EOF {
		b.failed.Store(true)
	}
	return n, err
}

func (b *limitedBody) Close() error { return b.src.Close() }

// countedBody counts the relayed response bytes, stops the stream over the
// payload limit and notes when the backend's answer ended.
type countedBody struct {
	src  io.ReadCloser
	call *gwCall
	done atomic.Bool
}

func (b *countedBody) Read(p []byte) (int, error) {
	n, err := b.src.Read(p)
	total := b.call.respBytes.Add(int64(n))
	sniffFault(b.call, p[:n], total-int64(n))
	if b.call.debug {
		b.call.respCapture = append(b.call.respCapture, p[:n]...)
	}
	if total > b.call.respLimit {
		b.call.tooLarge.Store(true)
		return 0, errResponseTooLarge
	}
	if err != nil {
		b.end()
	}
	return n, err
}

func (b *countedBody) end() {
	if b.done.CompareAndSwap(false, true) {
		b.call.backendMs.Store(time.Since(b.call.sentAt).Microseconds())
	}
}

func (b *countedBody) Close() error {
	b.end()
	return b.src.Close()
}

// capture puts the debug capture of the exchange in rec. The gateway
// relays bodies unchanged, so the backend request and answer bodies are
// the request and answer payloads and are not stored twice.
func (call *gwCall) capture(rec *model.TxRecord, sw *statusWriter) {
	rec.Debug = true
	rec.RequestPayload, rec.ResponsePayload = call.reqCapture, call.respCapture
	if call.small != nil {
		rec.RequestPayload = call.small
	}
	rec.Headers = &model.DebugHeaders{Request: call.inHeader, Response: sw.Header().Clone(),
		BackendRequest: call.sentHeader, BackendResponse: call.respHeader}
}

// captureBody copies what is read through it to *dst (debug captures;
// the payload limit bounds the request body before it).
type captureBody struct {
	io.ReadCloser
	dst *[]byte
}

func (b *captureBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	*b.dst = append(*b.dst, p[:n]...)
	return n, err
}

// statusWriter notes the status and size of the answer for the record.
// Unwrap keeps http.ResponseController (flushes) working through it.
type statusWriter struct {
	http.ResponseWriter
	status int
	n      int64
}

func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(p)
	w.n += int64(n)
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// FlushError flushes the writer it wraps (through the wrappers below it):
// the head and what is held leave at once.
func (w *statusWriter) FlushError() error {
	return http.NewResponseController(w.ResponseWriter).Flush()
}

// redactedTargets caches RedactTarget of backend endpoints, bounded like
// endpointURLs.
var redactedTargets sync.Map

func redactedTarget(raw string) string {
	if t, ok := redactedTargets.Load(raw); ok {
		return t.(string)
	}
	t := model.RedactTarget(raw)
	redactedTargets.Store(raw, t)
	return t
}

// endpointURLs caches parsed backend endpoints; a changed endpoint is a
// new key, and the set is bounded by the configured profiles.
var endpointURLs sync.Map

// backendURL returns a copy of the parsed profile endpoint.
func backendURL(raw string) (*url.URL, error) {
	if u, ok := endpointURLs.Load(raw); ok {
		c := *u.(*url.URL)
		return &c, nil
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, &upstream.Error{Kind: upstream.KindUnreachable, Err: errors.New("backend endpoint URL is not absolute")}
	}
	endpointURLs.Store(raw, u)
	c := *u
	return &c, nil
}
