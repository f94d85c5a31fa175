package engine

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// holdBytes is how much of an answer is held before its head is sent:
// an answer that ends within it gets a Content-Length (and a sniffed
// Content-Type when it has none), a longer one is chunked, as net/http
// does with its smaller 2 KB.
const holdBytes = 4 << 10

var holdBufs = sync.Pool{New: func() any { b := make([]byte, 0, holdBytes); return &b }}

// response is the http.ResponseWriter of the engine.
type response struct {
	c        *conn
	req      *http.Request
	header   http.Header
	status   int
	wrote    bool // the status is decided
	headSent bool
	held     *[]byte // body bytes before the head is sent
	// length is the declared Content-Length, -1 when none.
	length     int64
	written    int64
	chunked    bool
	bodyOK     bool // the status allows a body
	isHead     bool
	closeAfter bool
	// wants10 (HTTP/1.0 asking for keep-alive) and wantsClose are read
	// from the request before the handler runs (it may change them).
	wants10, wantsClose bool
	// declared are the Trailer header's values when the head was sent.
	declared []string
}

// trailers returns the trailer fields to send after a chunked body: those
// the head declared in Trailer, with the values the handler set after
// writing the head, and any set with http.TrailerPrefix (net/http's two
// ways). nil when there are none.
func (w *response) trailers() http.Header {
	var t http.Header
	add := func(k string, vv []string) {
		if t == nil {
			t = http.Header{}
		}
		t[k] = append(t[k], vv...)
	}
	for _, v := range w.declared {
		for _, k := range strings.Split(v, ",") {
			k = http.CanonicalHeaderKey(strings.TrimSpace(k))
			if vv := w.header[k]; len(vv) > 0 && k != "" {
				add(k, vv)
			}
		}
	}
	for k, vv := range w.header {
		if name, ok := strings.CutPrefix(k, http.TrailerPrefix); ok && name != "" {
			add(name, vv)
		}
	}
	return t
}

func (w *response) reset(c *conn, r *http.Request) {
	conn := r.Header.Get("Connection")
	*w = response{c: c, req: r, header: make(http.Header, 4), length: -1, isHead: r.Method == http.MethodHead,
		wants10:    r.ProtoMajor == 1 && r.ProtoMinor == 0 && hasToken(conn, "keep-alive"),
		wantsClose: r.Close || hasToken(conn, "close")}
}

// Header implements http.ResponseWriter.
func (w *response) Header() http.Header { return w.header }

// WriteHeader implements http.ResponseWriter.
func (w *response) WriteHeader(code int) {
	if code < 100 || code > 999 {
		panic(fmt.Sprintf("invalid WriteHeader code %v", code))
	}
	if w.wrote {
		return
	}
	if code >= 100 && code < 200 && code != http.StatusSwitchingProtocols {
		w.interim(code)
		return
	}
	w.wrote, w.status = true, code
	w.bodyOK = code != http.StatusNoContent && code != http.StatusNotModified && code >= 200
	if v := w.header.Get("Content-Length"); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
			w.length = n
		} else {
			w.header.Del("Content-Length")
		}
	}
}

// interim sends a 1xx answer with the headers set so far.
func (w *response) interim(code int) {
	if code == http.StatusContinue {
		return // sent by the body when read (Expect: 100-continue)
	}
	out := &w.c.out
	out.appendString("HTTP/1.1 " + strconv.Itoa(code) + " " + http.StatusText(code) + "\r\n")
	writeHeaders(out, w.header)
	out.appendString("\r\n")
	out.flush()
}

// Write implements http.ResponseWriter.
func (w *response) Write(p []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if !w.bodyOK {
		return 0, http.ErrBodyNotAllowed
	}
	if w.length >= 0 && w.written+int64(len(p)) > w.length {
		return 0, http.ErrContentLength
	}
	w.written += int64(len(p))
	if !w.headSent {
		if w.held == nil {
			w.held = holdBufs.Get().(*[]byte)
		}
		if len(*w.held)+len(p) <= holdBytes {
			*w.held = append(*w.held, p...)
			return len(p), nil
		}
		w.sendHead(false)
	}
	w.body(p)
	return len(p), w.c.out.err
}

// body sends body bytes after the head.
func (w *response) body(p []byte) {
	if w.isHead || len(p) == 0 {
		return
	}
	out := &w.c.out
	if w.chunked {
		out.appendString(strconv.FormatInt(int64(len(p)), 16))
		out.appendString("\r\n")
		out.write(p)
		out.appendString("\r\n")
		return
	}
	out.write(p)
}

// Flush implements http.Flusher: the head and what is held leave now.
func (w *response) Flush() { w.FlushError() }

// FlushError is Flush reporting a failed write (http.ResponseController).
func (w *response) FlushError() error {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if !w.headSent {
		w.sendHead(false)
	}
	w.c.out.flush()
	return w.c.out.err
}

// finish completes the answer after the handler returned.
func (w *response) finish() {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if !w.headSent {
		w.sendHead(true)
	}
	if w.chunked && !w.isHead {
		w.c.out.appendString("0\r\n")
		writeHeaders(&w.c.out, w.trailers())
		w.c.out.appendString("\r\n")
	}
	if w.length >= 0 && w.written != w.length && w.bodyOK && !w.isHead {
		w.closeAfter = true // the client cannot find the next answer
	}
	w.c.out.flush()
	w.c.out.release()
}

// sendHead decides the framing of the answer and writes its head followed
// by the held bytes; final says the handler has returned.
func (w *response) sendHead(final bool) {
	w.headSent = true
	var held []byte
	if w.held != nil {
		held = *w.held
	}
	h := w.header
	_, hasTE := h["Transfer-Encoding"]
	_, hasTrailer := h["Trailer"]
	switch {
	case !w.bodyOK:
		h.Del("Transfer-Encoding")
		if w.status == http.StatusNoContent {
			h.Del("Content-Length")
		}
	case w.length >= 0:
	case final && !hasTE && !hasTrailer && (!w.isHead || len(held) > 0):
		w.length = int64(len(held))
		h["Content-Length"] = []string{strconv.Itoa(len(held))}
	case w.req.ProtoAtLeast(1, 1):
		w.chunked = true
		h["Transfer-Encoding"] = []string{"chunked"}
	default:
		w.closeAfter = true // HTTP/1.0: the end of the connection ends it
	}
	if _, ok := h["Content-Type"]; !ok && w.bodyOK && !hasTE && len(held) > 0 {
		h["Content-Type"] = []string{http.DetectContentType(held)}
	}
	if _, ok := h["Date"]; !ok {
		h["Date"] = []string{httpDate()}
	}
	w.connectionHeader()
	w.declared = h["Trailer"]
	out := &w.c.out
	proto := "HTTP/1.1 "
	if !w.req.ProtoAtLeast(1, 1) {
		proto = "HTTP/1.0 "
	}
	out.appendString(proto)
	out.appendString(statusLine(w.status))
	writeHeaders(out, h)
	out.appendString("\r\n")
	if held != nil {
		w.body(held)
		*w.held = held[:0]
		holdBufs.Put(w.held)
		w.held = nil
	}
}

// connectionHeader settles keep-alive by net/http's rules: an HTTP/1.0
// client asking for keep-alive keeps it when the answer has a length; an
// HTTP/1.0 client otherwise, Connection: close from either side, or a
// shutdown end the connection after the answer.
func (w *response) connectionHeader() {
	h := w.header
	if w.wants10 && (w.isHead || w.length >= 0 || !w.bodyOK) {
		if _, set := h["Connection"]; !set {
			h["Connection"] = []string{"keep-alive"}
		}
	} else if !w.req.ProtoAtLeast(1, 1) || w.wantsClose {
		w.closeAfter = true
	}
	if h.Get("Connection") == "close" || w.c.srv.shutdown.Load() {
		w.closeAfter = true
	}
	if w.closeAfter && !hasToken(h.Get("Connection"), "close") {
		delete(h, "Connection")
		if w.req.ProtoAtLeast(1, 1) {
			h["Connection"] = []string{"close"}
		}
	}
}

// hasToken reports whether v holds token between token boundaries (space,
// comma, tab), ignoring case: net/http's reading of Connection and Expect.
func hasToken(v, token string) bool {
	for sp := 0; sp+len(token) <= len(v); sp++ {
		if sp > 0 && !tokenBoundary(v[sp-1]) {
			continue
		}
		if end := sp + len(token); end != len(v) && !tokenBoundary(v[end]) {
			continue
		}
		if strings.EqualFold(v[sp:sp+len(token)], token) {
			return true
		}
	}
	return false
}

func tokenBoundary(b byte) bool { return b == ' ' || b == ',' || b == '\t' }

// statusLines caches "200 OK\r\n" and the like.
var statusLines sync.Map

func statusLine(code int) string {
	if s, ok := statusLines.Load(code); ok {
		return s.(string)
	}
	text := http.StatusText(code)
	if text == "" {
		text = "status code " + strconv.Itoa(code)
	}
	s := strconv.Itoa(code) + " " + text + "\r\n"
	statusLines.Store(code, s)
	return s
}
