package upstream

import (
	"bufio"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/http/httpguts"
)

// defaultUserAgent is the User-Agent net/http sends when a request sets
// none (the direct client writes the same bytes).
const defaultUserAgent = "Go-http-client/1.1"

// writeRequest writes req's head and in-memory body to w as
// http.Request.Write does, byte for byte, for the requests the direct
// client takes (accepts: no Transfer-Encoding, trailers or upgrade, a
// body of known length); anything else falls back to req.Write. It saves
// net/http's transfer writer and sorted header copy per request.
func writeRequest(w *bufio.Writer, req *http.Request) error {
	if !plainWritable(req) {
		return req.Write(w)
	}
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	uri := req.URL.RequestURI()
	w.WriteString(req.Method)
	w.WriteByte(' ')
	w.WriteString(uri)
	w.WriteString(" HTTP/1.1\r\nHost: ")
	w.WriteString(host)
	w.WriteString("\r\n")
	ua := defaultUserAgent
	if vv, ok := req.Header["User-Agent"]; ok {
		ua = ""
		if len(vv) > 0 {
			ua = vv[0]
		}
	}
	if ua != "" { // checked before cleaning, as net/http does
		w.WriteString("User-Agent: ")
		w.WriteString(cleanValue(ua))
		w.WriteString("\r\n")
	}
	if req.Close && !hasCloseToken(req.Header) {
		w.WriteString("Connection: close\r\n")
	}
	if req.ContentLength > 0 || req.ContentLength == 0 && sendsZeroLength(req.Method) {
		w.WriteString("Content-Length: ")
		w.WriteString(strconv.FormatInt(req.ContentLength, 10))
		w.WriteString("\r\n")
	}
	writeSortedHeader(w, req.Header)
	w.WriteString("\r\n")
	if req.Body == nil || req.Body == http.NoBody {
		return nil
	}
	n, err := io.Copy(w, io.LimitReader(req.Body, req.ContentLength))
	if err == nil {
		var extra int64
		extra, err = io.Copy(io.Discard, req.Body)
		n += extra
	}
	req.Body.Close()
	if err == nil && n != req.ContentLength {
		err = errors.New("http: ContentLength=" + strconv.FormatInt(req.ContentLength, 10) +
			" with Body length " + strconv.FormatInt(n, 10))
	}
	return err
}

// plainWritable reports whether writeRequest writes req itself: an
// absolute http(s) URL, a valid host and target, a known length, no
// trailer, transfer coding or close negotiation in the header.
func plainWritable(req *http.Request) bool {
	if req.URL == nil || req.URL.Opaque != "" || req.Trailer != nil || len(req.TransferEncoding) > 0 ||
		req.ContentLength < 0 || !httpguts.ValidHeaderFieldName(req.Method) ||
		(req.Body == nil || req.Body == http.NoBody) != (req.ContentLength == 0) {
		return false
	}
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	if host == "" || !asciiHost(host) || !httpguts.ValidHostHeader(host) || strings.Contains(host, "%") {
		return false
	}
	uri := req.URL.RequestURI()
	return !strings.ContainsAny(uri, " \r\n\x00\x7f") && !ctl(uri)
}

func asciiHost(h string) bool {
	for i := 0; i < len(h); i++ {
		if h[i] >= 0x80 {
			return false // punycode: net/http's writer converts it
		}
	}
	return true
}

func ctl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// sendsZeroLength: net/http sends "Content-Length: 0" for an empty body
// on the methods that usually carry one.
func sendsZeroLength(method string) bool {
	return method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch
}

// hasCloseToken is net/http's check before it adds Connection: close:
// "close" between token boundaries in the first Connection value.
func hasCloseToken(h http.Header) bool {
	v := h.Get("Connection")
	for i := 0; i+5 <= len(v); i++ {
		if (i == 0 || boundary(v[i-1])) && (i+5 == len(v) || boundary(v[i+5])) && strings.EqualFold(v[i:i+5], "close") {
			return true
		}
	}
	return false
}

func boundary(b byte) bool { return b == ' ' || b == ',' || b == '\t' }

// excludedHeader are the fields writeRequest writes itself (net/http's
// reqWriteExcludeHeader).
func excludedHeader(k string) bool {
	switch k {
	case "Host", "User-Agent", "Content-Length", "Transfer-Encoding", "Trailer":
		return true
	}
	return false
}

// writeSortedHeader writes h sorted by key, as http.Header.Write does:
// CR and LF in values become spaces, values are trimmed.
func writeSortedHeader(w *bufio.Writer, h http.Header) {
	var stack [24]string
	keys := stack[:0]
	for k := range h {
		if !excludedHeader(k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !httpguts.ValidHeaderFieldName(k) {
			continue
		}
		for _, v := range h[k] {
			w.WriteString(k)
			w.WriteString(": ")
			w.WriteString(cleanValue(v))
			w.WriteString("\r\n")
		}
	}
}

var newlineToSpace = strings.NewReplacer("\n", " ", "\r", " ")

// cleanValue is a header value as net/http writes it: CR and LF become
// spaces, leading and trailing spaces and tabs are trimmed.
func cleanValue(v string) string {
	if strings.ContainsAny(v, "\r\n") {
		v = newlineToSpace.Replace(v)
	}
	return strings.Trim(v, " \t")
}
