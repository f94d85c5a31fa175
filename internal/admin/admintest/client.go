package admintest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/access"
)

// Client sends requests to a server under test. Transport failures fail
// the test it was made for.
type Client struct {
	// URL is the server's base URL, http://127.0.0.1:port; request paths
	// are appended to it.
	URL string
	// HTTP is the client that sends the requests.
	HTTP *http.Client

	t testing.TB
}

// NewClient returns a client of the server at url.
func NewClient(t testing.TB, url string) *Client {
	return &Client{URL: url, HTTP: &http.Client{Timeout: 60 * time.Second}, t: t}
}

// Serve serves h on 127.0.0.1 until the end of the test and returns a
// client of it.
func Serve(t testing.TB, h http.Handler) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c := srv.Client()
	c.Timeout = 60 * time.Second
	return &Client{URL: srv.URL, HTTP: c, t: t}
}

// For returns a copy of c whose transport failures fail t (a subtest or
// sub-benchmark) instead.
func (c *Client) For(t testing.TB) *Client {
	d := *c
	d.t = t
	return &d
}

// Do sends a request as email (no identity when ""), in groups (the
// groups header, when any), with body as JSON (no body when "").
func (c *Client) Do(method, path, email, body string, groups ...string) Response {
	c.t.Helper()
	var b []byte
	ct := ""
	if body != "" {
		b, ct = []byte(body), "application/json"
	}
	var hdr []string
	if len(groups) > 0 {
		hdr = []string{access.HeaderGroups, strings.Join(groups, ",")}
	}
	return c.Send(method, path, email, ct, b, hdr...)
}

// DoJSON sends body as JSON (see JSONBody) as email (no identity when
// ""), with further headers as name, value pairs.
func (c *Client) DoJSON(method, path, email string, body any, header ...string) Response {
	c.t.Helper()
	b, err := JSONBody(body)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	ct := ""
	if body != nil {
		ct = "application/json"
	}
	return c.Send(method, path, email, ct, b, header...)
}

// JSONBody encodes a request body: nil is none, a string or []byte is
// sent as it is (JSON the test wrote), any other value is marshalled.
func JSONBody(body any) ([]byte, error) {
	switch b := body.(type) {
	case nil:
		return nil, nil
	case string:
		return []byte(b), nil
	case []byte:
		return b, nil
	}
	return json.Marshal(body)
}

// Send sends body (none when nil) of contentType (no header when "") as
// email (no identity when ""), with further headers as name, value pairs.
func (c *Client) Send(method, path, email, contentType string, body []byte, header ...string) Response {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, c.URL+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if email != "" {
		req.Header.Set(access.HeaderEmail, email)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("%s %s: read body: %v", method, path, err)
	}
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// Response is one answer, read whole.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// WantStatus fails the test unless r has status, and returns r.
func (r Response) WantStatus(t testing.TB, status int) Response {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %.2000s", r.Status, status, r.Body)
	}
	return r
}

// Decode decodes the JSON body into v, failing the test when it cannot.
func (r Response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("body %.2000s: %v", r.Body, err)
	}
}

// JSON returns the body decoded as a JSON object.
func (r Response) JSON(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("answer is not a JSON object (%v): %.500s", err, r.Body)
	}
	return m
}

// Code returns error.code of a SPEC 7.1 error answer, "" for any other.
func (r Response) Code() string {
	var e ErrorBody
	_ = json.Unmarshal(r.Body, &e)
	return e.Error.Code
}

// Dig returns the string at keys in a decoded JSON value ("" when there
// is none).
func Dig(v any, keys ...string) string {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		v = m[k]
	}
	s, _ := v.(string)
	return s
}

// ErrorBody is the SPEC 7.1 error shape.
type ErrorBody struct {
	Error struct {
		Code          string         `json:"code"`
		Message       string         `json:"message"`
		Details       map[string]any `json:"details"`
		CorrelationID string         `json:"correlationId"`
	} `json:"error"`
}

// ErrorOf decodes r as an error answer, failing the test unless it is one.
func (r Response) ErrorOf(t testing.TB) ErrorBody {
	t.Helper()
	var e ErrorBody
	if err := json.Unmarshal(r.Body, &e); err != nil || e.Error.Code == "" {
		t.Fatalf("not an error body (status %d, %v): %.2000s", r.Status, err, r.Body)
	}
	return e
}

// WantError checks that r is an error answer with status and code, a
// message and a correlation id, and returns it.
func (r Response) WantError(t testing.TB, status int, code string) ErrorBody {
	t.Helper()
	r.WantStatus(t, status)
	e := r.ErrorOf(t)
	if e.Error.Code != code {
		t.Errorf("code %s, want %s: %s", e.Error.Code, code, r.Body)
	}
	if e.Error.Message == "" || e.Error.CorrelationID == "" {
		t.Errorf("no message or correlationId: %s", r.Body)
	}
	return e
}

// WantFieldError is WantError for an error that names field in
// details.field (an empty field checks nothing more, for tables whose
// cases name a field or not).
func (r Response) WantFieldError(t testing.TB, status int, code, field string) ErrorBody {
	t.Helper()
	e := r.WantError(t, status, code)
	if field != "" && e.Error.Details["field"] != field {
		t.Errorf("details.field = %v, want %s: %s", e.Error.Details["field"], field, r.Body)
	}
	return e
}
