package dataplane

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/s2r-project/s2r/internal/correlation"
)

// The gateway relays a request without net/http/httputil.ReverseProxy:
// it builds the outbound request itself, sends it through the gateway
// transport (selection, failover, limiter, breaker) and copies the answer
// back with a pooled buffer. ReverseProxy's generic machinery (a deep
// clone of the request, hop-by-hop removal by repeated deletes, a fresh
// trace per request, flush timers) cost about a tenth of s2r's CPU per
// 1 KB passthrough (docs/PERFORMANCE.md, issue 27).

// hopByHop reports whether the canonical header name k is a hop-by-hop
// field of HTTP/1.1 (RFC 9110 7.6.1), which a proxy never relays: it
// describes one connection, not the message.
func hopByHop(k string) bool {
	switch k {
	case "Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization",
		"Te", "Trailer", "Transfer-Encoding", "Upgrade":
		return true
	}
	return false
}

// addressHeader reports whether k is a header that states the client's
// address or the original host and scheme: a client could forge it, so
// the gateway drops it and rebuilds its own (outboundHeader).
func addressHeader(k string) bool {
	switch k {
	case "Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto",
		"X-Real-Ip", "X-Client-Ip", "True-Client-Ip":
		return true
	}
	return false
}

// namedInConnection reports whether the Connection values conn name the
// header k (RFC 9110 7.6.1: those fields are hop-by-hop too).
func namedInConnection(conn []string, k string) bool {
	for _, v := range conn {
		for v != "" {
			var tok string
			tok, v, _ = strings.Cut(v, ",")
			if strings.EqualFold(strings.TrimSpace(tok), k) {
				return true
			}
		}
	}
	return false
}

// endToEnd copies the end-to-end fields of src into dst: everything but
// the hop-by-hop ones and those the Connection field names. Values are
// shared with src, which neither side changes in place.
func endToEnd(dst, src http.Header) {
	conn := src["Connection"]
	for k, vv := range src {
		if hopByHop(k) || (conn != nil && namedInConnection(conn, k)) {
			continue
		}
		if old, ok := dst[k]; ok {
			dst[k] = append(old[:len(old):len(old)], vv...)
			continue
		}
		dst[k] = vv[:len(vv):len(vv)] // an append to dst never writes into src
	}
}

// outboundRequest builds the request sent to the backends: the method,
// end-to-end headers and body of r; the address headers rebuilt from the
// guard's attributed client address (never the client's own); the
// correlation id; no Host (the backend URL's, set per attempt with the
// URL by the transport).
func outboundRequest(r *http.Request, call *gwCall) *http.Request {
	h := make(http.Header, len(r.Header)+6)
	conn := r.Header["Connection"]
	for k, vv := range r.Header {
		if hopByHop(k) || addressHeader(k) || (conn != nil && namedInConnection(conn, k)) {
			continue
		}
		h[k] = vv[:len(vv):len(vv)]
	}
	// The values the gateway sets share one backing array (one
	// allocation); each is capped so an Add never overwrites the next.
	vals := make([]string, 0, 8)
	set := func(k, v string) {
		vals = append(vals, v)
		h[k] = vals[len(vals)-1 : len(vals) : len(vals)]
	}
	if te := r.Header["Te"]; te != nil && namedInConnection(te, "trailers") {
		set("Te", "trailers") // the client accepts trailers, and so does the relay
	}
	if _, ok := h["User-Agent"]; !ok {
		set("User-Agent", "") // not Go's default agent
	}
	client := call.client.String()
	forFor := client
	if call.client.Is6() {
		forFor = `"[` + client + `]"`
	}
	set("X-Forwarded-For", client)
	set("X-Real-Ip", client)
	set("X-Forwarded-Host", call.inHost)
	set("X-Forwarded-Proto", call.inProto)
	set("Forwarded", "for="+forFor+";host=\""+call.inHost+"\";proto="+call.inProto)
	if id := correlation.ID(r.Context()); id != "" {
		set("X-Correlation-Id", id)
	}
	out := r.WithContext(r.Context())
	out.Header, out.Host, out.Close, out.RequestURI, out.RemoteAddr = h, "", false, "", ""
	out.TransferEncoding, out.GetBody, out.TLS, out.Response = nil, nil, nil, nil
	out.Form, out.PostForm, out.MultipartForm = nil, nil, nil
	out.Proto, out.ProtoMajor, out.ProtoMinor = "HTTP/1.1", 1, 1
	switch {
	case r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody:
		out.Body, out.ContentLength = nil, 0
	case call.small != nil:
		// An in-memory body whose Close does nothing (readSmallBody).
	default:
		// The transport closes a request body when it is done with it;
		// the client's body stays open for the server, which closes it
		// after the handler (closing it early may hang on a client that
		// waits for 100 Continue).
		out.Body = noCloseBody{r.Body}
	}
	return out
}

// noCloseBody is a request body whose Close does nothing.
type noCloseBody struct{ io.Reader }

func (noCloseBody) Close() error { return nil }

// relayBufSize is the copy buffer of an answer: large enough that a big
// answer moves in few reads, pooled so a small one costs no allocation.
const relayBufSize = 32 << 10

var relayBufs = sync.Pool{New: func() any { b := make([]byte, relayBufSize); return &b }}

// relayAnswer sends the backend's answer to the client: its status and
// end-to-end headers, then its body as it arrives. An answer declared
// larger than the payload limit is refused (413); one that grows over it
// while streaming, or whose copy fails once the status is sent, aborts
// the handler so the client sees a cut connection, never a truncated
// success.
func (d *Dispatcher) relayAnswer(sw *statusWriter, r *http.Request, call *gwCall, resp *http.Response) {
	if resp.ContentLength > call.respLimit {
		call.tooLarge.Store(true)
		resp.Body.Close()
		d.gatewayProxyError(sw, r, call, errResponseTooLarge)
		return
	}
	// The answer is closed through countedBody, whichever way the relay
	// ends (a panic included): that notes backendMs and frees the
	// backend's connection and limiter place.
	call.answer = countedBody{src: resp.Body, call: call}
	closed := false
	defer func() {
		if !closed {
			call.answer.Close()
		}
	}()
	call.sniffFault = resp.StatusCode == http.StatusOK
	if call.debug {
		call.respHeader = make(http.Header, len(resp.Header))
		endToEnd(call.respHeader, resp.Header)
	}
	h := sw.Header()
	endToEnd(h, resp.Header)
	if len(resp.Trailer) > 0 {
		keys := make([]string, 0, len(resp.Trailer))
		for k := range resp.Trailer {
			keys = append(keys, k)
		}
		h.Add("Trailer", strings.Join(keys, ", "))
	}
	announced := len(resp.Trailer)
	sw.WriteHeader(resp.StatusCode)
	if backend, err := copyAnswer(sw, &call.answer, resp.ContentLength < 0); err != nil {
		// A client that went away is not worth a log line; a backend
		// that broke off is (ReverseProxy logged it too).
		if backend && !errors.Is(err, errResponseTooLarge) && !errors.Is(err, context.Canceled) {
			d.cfg.Logger.Warn("gateway: the answer broke off while relayed", slog.String("error", err.Error()),
				slog.String("correlationId", correlation.ID(r.Context())))
		}
		panic(http.ErrAbortHandler)
	}
	closed = true
	call.answer.Close() // now: it fills resp.Trailer
	relayTrailers(sw, resp.Trailer, announced)
}

// copyAnswer copies the answer's body to the client. An answer of
// unknown length (streamed by the backend) is flushed whenever a read
// came back short, that is when the backend had nothing more buffered:
// its pieces reach the client as they arrive, yet a burst of small chunks
// leaves in one write. An answer of known length is not flushed: the
// server sends it as its buffer fills and ends it when the handler
// returns, so a small answer leaves in one write with its head. A failure
// says whether reading the backend (rather than writing the client)
// failed.
func copyAnswer(sw *statusWriter, body io.Reader, stream bool) (backend bool, err error) {
	bp := relayBufs.Get().(*[]byte)
	defer relayBufs.Put(bp)
	buf := *bp
	for {
		n, rerr := body.Read(buf)
		if n > 0 {
			if _, werr := sw.Write(buf[:n]); werr != nil {
				return false, werr
			}
		}
		if rerr == io.EOF {
			return false, nil
		}
		if rerr != nil {
			return true, rerr
		}
		if stream && n < len(buf) {
			if err := sw.FlushError(); err != nil {
				return false, err
			}
		}
	}
}

// relayTrailers sends the answer's trailers: those announced in the head
// as they are, any other with http.TrailerPrefix (net/http's rule for
// trailers not declared before the body).
func relayTrailers(sw *statusWriter, trailer http.Header, announced int) {
	if len(trailer) == 0 {
		return
	}
	// Chunked framing carries trailers: the head must not get a
	// Content-Length computed from a short body.
	sw.FlushError()
	h := sw.Header()
	for k, vv := range trailer {
		if len(trailer) != announced {
			k = http.TrailerPrefix + k
		}
		h[k] = append(h[k], vv...)
	}
}
