package upstream

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestWriteRequestLikeNetHTTP: the direct writer writes every request the
// direct client sends byte for byte as http.Request.Write does.
func TestWriteRequestLikeNetHTTP(t *testing.T) {
	body := func(s string) (io.ReadCloser, int64) { return io.NopCloser(strings.NewReader(s)), int64(len(s)) }
	type build func() *http.Request
	mk := func(method, url, payload string, h http.Header, tweak func(*http.Request)) build {
		return func() *http.Request {
			var rd io.Reader
			if payload != "" {
				rd = strings.NewReader(payload)
			}
			r, err := http.NewRequest(method, url, rd)
			if err != nil {
				t.Fatal(err)
			}
			for k, vv := range h {
				r.Header[k] = vv
			}
			if tweak != nil {
				tweak(r)
			}
			return r
		}
	}
	cases := map[string]build{
		"soap post": mk("POST", "http://backend:8080/calc?wsdl=x", "<e/>", http.Header{
			"Content-Type": {"text/xml; charset=utf-8"}, "Soapaction": {`"urn:add"`}, "X-Forwarded-For": {"10.0.0.1"}}, nil),
		"get":                  mk("GET", "http://backend/a%20b/c?q=1&r=%41", "", nil, nil),
		"empty post":           mk("POST", "http://backend/", "", nil, nil),
		"delete":               mk("DELETE", "http://backend/x", "", nil, nil),
		"blank user agent":     mk("POST", "http://backend/", "x", http.Header{"User-Agent": {""}}, nil),
		"own user agent":       mk("POST", "http://backend/", "x", http.Header{"User-Agent": {" agent/1 \r\n"}}, nil),
		"newline in value":     mk("POST", "http://backend/", "x", http.Header{"X-A": {"a\r\nb", " c "}, "Bad Name": {"v"}}, nil),
		"close":                mk("POST", "http://backend/", "x", nil, func(r *http.Request) { r.Close = true }),
		"close already named":  mk("POST", "http://backend/", "x", http.Header{"Connection": {"keep-alive, close"}}, func(r *http.Request) { r.Close = true }),
		"host override":        mk("POST", "http://backend:81/", "x", nil, func(r *http.Request) { r.Host = "other.example:82" }),
		"ipv6":                 mk("PUT", "http://[::1]:8080/p", "x", nil, nil),
		"excluded set by hand": mk("POST", "http://backend/", "x", http.Header{"Content-Length": {"99"}, "Host": {"h"}, "Trailer": {"t"}}, nil),
		"many headers": mk("POST", "http://backend/", "x", func() http.Header {
			h := http.Header{}
			for _, k := range strings.Fields("A B C D E F G H I J K L M N O P Q R S T U V W X Y Z Aa Bb") {
				h["X-"+k] = []string{k}
			}
			return h
		}(), nil),
		"body longer than length":  mk("POST", "http://backend/", "", nil, func(r *http.Request) { r.Body, r.ContentLength = body("abcdef"); r.ContentLength = 3 }),
		"body shorter than length": mk("POST", "http://backend/", "", nil, func(r *http.Request) { r.Body, _ = body("ab"); r.ContentLength = 5 }),
		"body with zero length":    mk("POST", "http://backend/", "", nil, func(r *http.Request) { r.Body, _ = body("ab"); r.ContentLength = 0 }),
		"control in path":          mk("GET", "http://backend/", "", nil, func(r *http.Request) { r.URL.Path = "/a\x01b" }),
		"empty method":             mk("GET", "http://backend/", "", nil, func(r *http.Request) { r.Method = "" }),
	}
	for name, b := range cases {
		if diff := compareWrites(b); diff != "" {
			t.Errorf("%s:\n%s", name, diff)
		}
	}
}

// compareWrites writes two requests from build, one by net/http and one
// by the direct writer, and describes how they differ ("" when alike).
func compareWrites(build func() *http.Request) string {
	var want, got bytes.Buffer
	ww, gw := bufio.NewWriter(&want), bufio.NewWriter(&got)
	werr := build().Write(ww)
	gerr := writeRequest(gw, build())
	ww.Flush()
	gw.Flush()
	if (werr == nil) != (gerr == nil) || (werr == nil && want.String() != got.String()) {
		return fmt.Sprintf("net/http (%v):\n%q\ndirect (%v):\n%q", werr, want.String(), gerr, got.String())
	}
	return ""
}

// FuzzWriteRequest: for any method, target, header field and body, the
// direct writer writes what http.Request.Write writes, or fails where it
// fails.
func FuzzWriteRequest(f *testing.F) {
	f.Add("POST", "/calc?x=1", "Soapaction", `"urn:a"`, "<e/>", false)
	f.Add("GET", "/a%20b", "Connection", "close", "", true)
	f.Add("PUT", "/", "User-Agent", "", "x", false)
	f.Fuzz(func(t *testing.T, method, path, key, value, payload string, close bool) {
		build := func() *http.Request {
			r, err := http.NewRequest(method, "http://backend:8080/", nil)
			if err != nil {
				t.Skip()
			}
			r.URL.Path = path
			r.Header[key] = []string{value}
			if payload != "" {
				r.Body, r.ContentLength = io.NopCloser(strings.NewReader(payload)), int64(len(payload))
			}
			r.Close = close
			return r
		}
		if diff := compareWrites(build); diff != "" {
			t.Fatal(diff)
		}
	})
}
