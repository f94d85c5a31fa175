package engine

import (
	"errors"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"syscall"

	"golang.org/x/net/http/httpguts"
)

var errTooManyFiles = syscall.EMFILE

// headSlack is what a head may exceed MaxHeaderBytes by (net/http's).
const headSlack = 4096

// errHeadTooLarge: the head is over MaxHeaderBytes (refused).
var errHeadTooLarge = errors.New("the request head is over the limit")

// readHead returns the next request head (up to and including its empty
// line). After a POST, up to four CR or LF bytes before it are skipped
// (the CRLF old clients send after a body); elsewhere an empty line is a
// malformed request line, as net/http has it. The bytes stay valid until
// the next read from the connection; the caller discards them from br.
func (c *conn) readHead() ([]byte, error) {
	if c.lastMethod == http.MethodPost {
		peek, _ := c.br.Peek(4)
		n := 0
		for n < len(peek) && (peek[n] == '\r' || peek[n] == '\n') {
			n++
		}
		c.br.Discard(n)
	}
	from := 0
	for {
		buf, _ := c.br.Peek(c.br.Buffered())
		if end := HeadEnd(buf, from); end >= 0 {
			return buf[:end], nil
		}
		if len(buf) == c.br.Size() {
			return c.readLongHead()
		}
		from = len(buf)
		if _, err := c.br.Peek(len(buf) + 1); err != nil {
			return nil, err
		}
	}
}

// readLongHead collects a head longer than the read buffer into c.long.
func (c *conn) readLongHead() ([]byte, error) {
	limit := c.srv.MaxHeaderBytes + headSlack
	c.long = c.long[:0]
	for {
		buf, _ := c.br.Peek(c.br.Buffered())
		from := len(c.long)
		c.long = append(c.long, buf...)
		if end := HeadEnd(c.long, from); end >= 0 {
			c.br.Discard(end - from)
			c.longHead = true
			return c.long[:end], nil
		}
		c.br.Discard(len(buf))
		if len(c.long) > limit {
			return nil, errHeadTooLarge
		}
		if _, err := c.br.Peek(1); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
}

// parsed is a request head as the engine reads it.
type parsed struct {
	req     *http.Request
	framing Framing
	expect  bool // Expect: 100-continue
}

// badRequest is a head the engine refuses, with the reason.
type badRequest struct{ reason string }

func (b badRequest) Error() string { return b.reason }

// parseHead builds the request of a head that CheckHead accepted. Every
// string of the request (method, path, header names and values) is a
// substring of one copy of the head.
func parseHead(head []byte, f Framing) (parsed, error) {
	s := string(head[:len(head)-4]) // without the final CRLFCRLF
	line, rest, _ := strings.Cut(s, "\r\n")
	method, target, ok1 := strings.Cut(line, " ")
	target, proto, ok2 := strings.Cut(target, " ")
	if !ok1 || !ok2 || !httpguts.ValidHeaderFieldName(method) || target == "" {
		return parsed{}, badRequest{"the request line is malformed"}
	}
	major, minor, ok := http.ParseHTTPVersion(proto)
	if !ok || major != 1 {
		return parsed{}, badRequest{"the request line does not end with HTTP/1.1 or HTTP/1.0"}
	}
	u, err := parseTarget(method, target)
	if err != nil {
		return parsed{}, badRequest{"the request target is malformed"}
	}
	n := strings.Count(rest, "\r\n") + 1
	h := make(http.Header, n)
	vals := make([]string, n) // one backing array for single values
	hosts := 0
	for rest != "" {
		line, rest, _ = strings.Cut(rest, "\r\n")
		name, value, _ := strings.Cut(line, ":")
		if !httpguts.ValidHeaderFieldName(name) {
			return parsed{}, badRequest{"a header name of the request is malformed"}
		}
		value = strings.Trim(value, " \t")
		if !httpguts.ValidHeaderFieldValue(value) {
			return parsed{}, badRequest{"a header value of the request holds a control character"}
		}
		key := textproto.CanonicalMIMEHeaderKey(name)
		if key == "Host" {
			hosts++
		}
		if old := h[key]; old != nil {
			h[key] = append(old, value)
			continue
		}
		vals[0] = value
		h[key], vals = vals[:1:1], vals[1:]
	}
	r := &http.Request{Method: method, URL: u, Proto: proto, ProtoMajor: major, ProtoMinor: minor,
		Header: h, RequestURI: target, ContentLength: f.Length, Body: http.NoBody}
	if err := fixHost(r, hosts); err != nil {
		return parsed{}, err
	}
	if f.Chunked {
		r.ContentLength, r.TransferEncoding = -1, []string{"chunked"}
		delete(h, "Transfer-Encoding")
	}
	r.Close = shouldClose(r)
	p := parsed{req: r, framing: f}
	// net/http's rule: 100-continue waits for the first read on HTTP/1.1
	// with a body (and is ignored otherwise); any other non-empty Expect
	// is refused (417).
	if e := h.Get("Expect"); e != "" {
		if !hasToken(e, "100-continue") {
			return p, errExpectation
		}
		p.expect = minor >= 1 && r.ContentLength != 0
	}
	return p, nil
}

// errExpectation: an Expect other than 100-continue (417).
var errExpectation = errors.New("unsupported Expect")

// fixHost sets r.Host from the absolute target or the one Host header,
// which HTTP/1.1 requires (net/http's rules), and drops the header.
func fixHost(r *http.Request, hosts int) error {
	if hosts > 1 {
		return badRequest{"the request has more than one Host header"}
	}
	host := r.Header.Get("Host")
	delete(r.Header, "Host")
	if hosts == 0 && r.ProtoMinor >= 1 {
		return badRequest{"the request has no Host header"}
	}
	if !httpguts.ValidHostHeader(host) {
		return badRequest{"the request's Host header is malformed"}
	}
	r.Host = host
	if r.URL.Host != "" {
		r.Host = r.URL.Host
	}
	return nil
}

// shouldClose reports whether the connection ends after r: HTTP/1.0
// without keep-alive, or Connection: close.
func shouldClose(r *http.Request) bool {
	conn := r.Header["Connection"]
	if r.ProtoMinor == 0 {
		return !httpguts.HeaderValuesContainsToken(conn, "keep-alive")
	}
	return httpguts.HeaderValuesContainsToken(conn, "close")
}

// parseTarget parses the request target: an origin-form path without
// escapes takes the fast path, the rest (escapes, absolute form,
// authority form of CONNECT, "*") url.ParseRequestURI.
func parseTarget(method, target string) (*url.URL, error) {
	if method == http.MethodConnect && !strings.HasPrefix(target, "/") {
		u, err := url.ParseRequestURI("http://" + target)
		if err != nil {
			return nil, err
		}
		u.Scheme = ""
		return u, nil
	}
	if target[0] == '/' && plainTarget(target) {
		path, query, _ := strings.Cut(target, "?")
		return &url.URL{Path: path, RawQuery: query}, nil
	}
	return url.ParseRequestURI(target)
}

// plainTarget reports whether url.ParseRequestURI would keep target as
// it is: a path of bytes that need no escaping in a path (so RawPath
// stays empty), then an optional query of printable bytes; no escape,
// fragment, space, control or non-ASCII byte anywhere.
func plainTarget(target string) bool {
	query := false
	for i := 0; i < len(target); i++ {
		c := target[i]
		switch {
		case c <= ' ' || c >= 0x7f || c == '%' || c == '#':
			return false
		case query:
		case c == '?':
			query = true
		case !pathByte(c):
			return false
		}
	}
	return true
}

// pathByte reports whether c stays unescaped in a URL path.
func pathByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-_.~$&+,/:;=@", c) >= 0
}
