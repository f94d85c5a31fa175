package discovery

import (
	"math"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/uuid"

	"github.com/s2r-project/s2r/internal/httpx"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/redact"
)

// Field limits of ingested events (docs/discovery.md, "Ingest API").
const (
	MaxPayloadBytes = 64 << 10 // payloads are cut to 64 KB, not refused
	maxURIBytes     = 8192
	maxNameBytes    = 256 // virtual servers, host, backend
	maxCodeBytes    = 64  // resultCode, vendor
	maxMethodBytes  = 16
	maxHeaders      = 100
	maxHeaderValue  = 8192
	maxHeadersBytes = 64 << 10
	maxDurationMs   = 24 * 60 * 60 * 1000 // one day
	maxByteCount    = 1 << 50
	maxFutureSkew   = 24 * time.Hour
)

// earliestEvent is the oldest timestamp accepted.
var earliestEvent = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// LBEventIn is one load-balancer event as sent to /ingest/v1/lb-events
// (DESIGN 9). The instance and vendor come from the token.
type LBEventIn struct {
	EventID             string            `json:"eventId"`
	GlobalTransactionID string            `json:"globalTransactionId"`
	Stage               string            `json:"stage"`
	Timestamp           string            `json:"timestamp"`
	FrontVirtualServer  string            `json:"frontVirtualServer"`
	BackVirtualServer   string            `json:"backVirtualServer"`
	ClientIP            string            `json:"clientIp"`
	Method              string            `json:"method"`
	Host                string            `json:"host"`
	URI                 string            `json:"uri"`
	Backend             string            `json:"backend"`
	StatusCode          int               `json:"statusCode"`
	DurationMs          float64           `json:"durationMs"`
	BytesIn             int64             `json:"bytesIn"`
	BytesOut            int64             `json:"bytesOut"`
	ResultCode          string            `json:"resultCode"`
	SoapFault           bool              `json:"soapFault"`
	Headers             map[string]string `json:"headers"`
	Payload             string            `json:"payload"`
}

// GenericLogIn is one access-log record as sent to
// /ingest/v1/generic-logs (DESIGN 9).
type GenericLogIn struct {
	EventID         string  `json:"eventId"`
	Timestamp       string  `json:"timestamp"`
	Vendor          string  `json:"vendor"`
	ServiceURI      string  `json:"serviceUri"`
	Method          string  `json:"method"`
	StatusCode      int     `json:"statusCode"`
	LatencyMs       float64 `json:"latencyMs"`
	ConsumerIP      string  `json:"consumerIp"`
	Backend         string  `json:"backend"`
	ResultCode      string  `json:"resultCode"`
	SoapFault       bool    `json:"soapFault"`
	RequestPayload  string  `json:"requestPayload"`
	ResponsePayload string  `json:"responsePayload"`
}

// fieldError is a validation failure of one field of an event.
type fieldError struct{ field, reason string }

var stages = []string{model.StageClientRequest, model.StageServerRequest, model.StageServerResponse, model.StageClientResponse}

// okResults are the result codes of a successful call.
var okResults = []string{"ok", "success"}

// IsFailure reports whether a call failed: a SOAP fault in the answer, an
// HTTP status of 500 or more, or a result code other than "", "ok" and
// "success" (reset, timeout, no_backend, tls_error, error, …). A 4xx is the
// client's mistake, not the service's failure.
func IsFailure(statusCode int, resultCode string, soapFault bool) bool {
	return soapFault || statusCode >= 500 || resultCode != "" && !slices.Contains(okResults, resultCode)
}

// toStore validates e and returns it as stored (without its row), its
// headers and payload masked by red.
func (e *LBEventIn) toStore(now time.Time, red *redact.Redactor) (model.LBEvent, *fieldError) {
	var out model.LBEvent
	var fe *fieldError
	if out.EventID, fe = parseUUID("eventId", e.EventID); fe != nil {
		return out, fe
	}
	if out.GlobalTransactionID, fe = parseUUID("globalTransactionId", e.GlobalTransactionID); fe != nil {
		return out, fe
	}
	if !slices.Contains(stages, e.Stage) {
		return out, &fieldError{"stage", "must be one of " + strings.Join(stages, ", ")}
	}
	out.Stage = e.Stage
	if out.OccurredAt, fe = parseTimestamp("timestamp", e.Timestamp, now); fe != nil {
		return out, fe
	}
	if fe = checkURI("uri", e.URI); fe != nil {
		return out, fe
	}
	out.URI = e.URI
	for _, f := range []struct {
		name, v string
		dst     *string
	}{{"frontVirtualServer", e.FrontVirtualServer, &out.FrontVirtualServer}, {"backVirtualServer", e.BackVirtualServer, &out.BackVirtualServer},
		{"host", e.Host, &out.Host}, {"backend", e.Backend, &out.Backend}} {
		if fe = checkName(f.name, f.v, maxNameBytes); fe != nil {
			return out, fe
		}
		*f.dst = f.v
	}
	if out.ClientIP, fe = parseIP("clientIp", e.ClientIP); fe != nil {
		return out, fe
	}
	if out.Method, fe = checkMethod(e.Method); fe != nil {
		return out, fe
	}
	if out.ResultCode, fe = checkCode("resultCode", e.ResultCode); fe != nil {
		return out, fe
	}
	if fe = checkNumbers(e.StatusCode, "durationMs", e.DurationMs, e.BytesIn, e.BytesOut); fe != nil {
		return out, fe
	}
	out.StatusCode, out.DurationMs, out.BytesIn, out.BytesOut, out.SoapFault = e.StatusCode, e.DurationMs, e.BytesIn, e.BytesOut, e.SoapFault
	if out.Headers, fe = encodeHeaders(e.Headers, red); fe != nil {
		return out, fe
	}
	if out.Payload, out.PayloadBytes, fe = payload("payload", e.Payload, red); fe != nil {
		return out, fe
	}
	out.Failure = out.Counted() && IsFailure(out.StatusCode, out.ResultCode, out.SoapFault)
	return out, nil
}

// toStore validates g and returns it as stored (without its row), its
// payloads masked by red; an empty vendor is the instance's.
func (g *GenericLogIn) toStore(now time.Time, instanceVendor string, red *redact.Redactor) (model.GenericLog, *fieldError) {
	var out model.GenericLog
	var fe *fieldError
	if out.EventID, fe = parseUUID("eventId", g.EventID); fe != nil {
		return out, fe
	}
	if out.OccurredAt, fe = parseTimestamp("timestamp", g.Timestamp, now); fe != nil {
		return out, fe
	}
	out.Vendor = instanceVendor
	if g.Vendor != "" {
		if !vendorPattern(g.Vendor) {
			return out, &fieldError{"vendor", "must be 1 to 64 characters: letters, digits, '.', '_' or '-'"}
		}
		out.Vendor = strings.ToLower(g.Vendor)
	}
	if fe = checkURI("serviceUri", g.ServiceURI); fe != nil {
		return out, fe
	}
	out.RawURI = g.ServiceURI
	if out.Method, fe = checkMethod(g.Method); fe != nil {
		return out, fe
	}
	if out.ConsumerIP, fe = parseIP("consumerIp", g.ConsumerIP); fe != nil {
		return out, fe
	}
	if fe = checkName("backend", g.Backend, maxNameBytes); fe != nil {
		return out, fe
	}
	out.Backend = g.Backend
	if out.ResultCode, fe = checkCode("resultCode", g.ResultCode); fe != nil {
		return out, fe
	}
	if fe = checkNumbers(g.StatusCode, "latencyMs", g.LatencyMs, 0, 0); fe != nil {
		return out, fe
	}
	out.StatusCode, out.LatencyMs, out.SoapFault = g.StatusCode, g.LatencyMs, g.SoapFault
	if out.RequestPayload, out.RequestPayloadBytes, fe = payload("requestPayload", g.RequestPayload, red); fe != nil {
		return out, fe
	}
	if out.ResponsePayload, out.ResponsePayloadBytes, fe = payload("responsePayload", g.ResponsePayload, red); fe != nil {
		return out, fe
	}
	out.Failure = IsFailure(out.StatusCode, out.ResultCode, out.SoapFault)
	return out, nil
}

func parseUUID(field, v string) ([16]byte, *fieldError) {
	if v == "" {
		return [16]byte{}, &fieldError{field, "is required"}
	}
	if len(v) != 36 {
		return [16]byte{}, &fieldError{field, "must be a UUID such as 0b6c3e52-8d2f-4f0e-9a51-3c1d2e4f5a6b"}
	}
	u, err := uuid.Parse(v)
	if err != nil {
		return [16]byte{}, &fieldError{field, "must be a UUID such as 0b6c3e52-8d2f-4f0e-9a51-3c1d2e4f5a6b"}
	}
	return u, nil
}

func parseTimestamp(field, v string, now time.Time) (time.Time, *fieldError) {
	if v == "" {
		return time.Time{}, &fieldError{field, "is required"}
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil || len(v) < len("2006-01-02T15:04:05Z") || (v[10] != 'T' && v[10] != 't') {
		return time.Time{}, &fieldError{field, "must be an RFC 3339 date-time such as 2026-01-02T15:04:05.123Z"}
	}
	t = t.UTC()
	if t.Before(earliestEvent) || t.After(now.Add(maxFutureSkew)) {
		return time.Time{}, &fieldError{field, "must be between 2000-01-01 and 24 hours from now"}
	}
	return t, nil
}

func checkURI(field, v string) *fieldError {
	switch {
	case v == "":
		return &fieldError{field, "is required"}
	case len(v) > maxURIBytes:
		return &fieldError{field, "must be at most 8192 bytes"}
	case hasControl(v):
		return &fieldError{field, "must not contain control characters"}
	case !strings.HasPrefix(v, "/") && !isHTTPURL(v):
		return &fieldError{field, "must be a path starting with / or an http(s) URL"}
	}
	return nil
}

func isHTTPURL(v string) bool {
	l := strings.ToLower(v[:min(len(v), 8)])
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// checkName checks an optional name: bounded, printable, no spaces.
func checkName(field, v string, max int) *fieldError {
	switch {
	case len(v) > max:
		return &fieldError{field, "must be at most " + strconv.Itoa(max) + " bytes"}
	case hasControl(v) || strings.ContainsRune(v, ' '):
		return &fieldError{field, "must not contain spaces or control characters"}
	}
	return nil
}

func parseIP(field, v string) (string, *fieldError) {
	if v == "" {
		return "", nil
	}
	ip, err := netip.ParseAddr(v)
	if err != nil || ip.Zone() != "" {
		return "", &fieldError{field, "must be an IPv4 or IPv6 address"}
	}
	return ip.Unmap().String(), nil
}

func checkMethod(v string) (string, *fieldError) {
	if v == "" {
		return "", nil
	}
	if len(v) > maxMethodBytes {
		return "", &fieldError{"method", "must be an HTTP method of at most 16 characters"}
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '-' || c == '_') {
			return "", &fieldError{"method", "must be an HTTP method such as GET or POST"}
		}
	}
	return strings.ToUpper(v), nil
}

// checkCode checks an optional code (resultCode) and lower-cases it.
func checkCode(field, v string) (string, *fieldError) {
	if v == "" {
		return "", nil
	}
	if !vendorPattern(v) {
		return "", &fieldError{field, "must be 1 to 64 characters: letters, digits, '.', '_' or '-'"}
	}
	return strings.ToLower(v), nil
}

// vendorPattern reports 1..64 of [A-Za-z0-9._-].
func vendorPattern(v string) bool {
	if v == "" || len(v) > maxCodeBytes {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func checkNumbers(status int, durField string, dur float64, in, out int64) *fieldError {
	switch {
	case status < 0 || status > 999:
		return &fieldError{"statusCode", "must be between 0 and 999"}
	case math.IsNaN(dur) || dur < 0 || dur > maxDurationMs:
		return &fieldError{durField, "must be between 0 and 86400000"}
	case in < 0 || in > maxByteCount:
		return &fieldError{"bytesIn", "must be a non-negative byte count"}
	case out < 0 || out > maxByteCount:
		return &fieldError{"bytesOut", "must be a non-negative byte count"}
	}
	return nil
}

// encodeHeaders checks headers and returns them as a JSON object with
// secret values replaced by redact.Mask: by the access log's rule
// (httpx.Sensitive: Authorization, cookies, names with token, secret,
// password, …) and by debug capture's (red: credential and API-key
// headers, debug_redact_names).
func encodeHeaders(h map[string]string, red *redact.Redactor) (string, *fieldError) {
	if len(h) == 0 {
		return "{}", nil
	}
	if len(h) > maxHeaders {
		return "", &fieldError{"headers", "must hold at most 100 headers"}
	}
	total := 0
	names := make([]string, 0, len(h))
	for name, v := range h {
		if name == "" || len(name) > maxNameBytes || !isToken(name) {
			return "", &fieldError{"headers", "header names must be HTTP tokens of at most 256 bytes"}
		}
		if len(v) > maxHeaderValue || strings.IndexByte(v, 0) >= 0 {
			return "", &fieldError{"headers." + name, "must be at most 8192 bytes without NUL characters"}
		}
		total += len(name) + len(v)
		names = append(names, name)
	}
	if total > maxHeadersBytes {
		return "", &fieldError{"headers", "must be at most 64 KB in all"}
	}
	slices.Sort(names)
	b := make([]byte, 0, total+8*len(names)+2)
	b = append(b, '{')
	for i, name := range names {
		v := h[name]
		if httpx.Sensitive(name) || red.SensitiveHeader(name) {
			v = redact.Mask
		}
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = jsontext.AppendQuote(b, name); err == nil {
			b = append(b, ':')
			b, err = jsontext.AppendQuote(b, v)
		}
		if err != nil {
			return "", &fieldError{"headers", "could not be encoded"}
		}
	}
	return string(append(b, '}')), nil
}

// isToken reports an RFC 9110 token.
func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// payload cuts v to MaxPayloadBytes on a character boundary, masks its
// credentials with red (after the cut, which bounds the work: an element
// the cut leaves open is masked to the end) and returns its size as sent.
// NUL characters are refused: PostgreSQL text cannot hold them.
func payload(field, v string, red *redact.Redactor) (string, int64, *fieldError) {
	if strings.IndexByte(v, 0) >= 0 {
		return "", 0, &fieldError{field, "must not contain NUL characters (send binary content base64-encoded)"}
	}
	cut, _ := cutPayload(v, MaxPayloadBytes)
	if masked := red.Payload([]byte(cut)); string(masked) != cut {
		// A mask may be longer than what it hides: cut again (a cut
		// through a mask reveals nothing).
		cut, _ = cutPayload(string(masked), MaxPayloadBytes)
	}
	return cut, int64(len(v)), nil
}

// cutPayload cuts v to at most n bytes on a character boundary and
// reports whether it cut.
func cutPayload(v string, n int) (string, bool) {
	if len(v) <= n {
		return v, false
	}
	for n > 0 && !utf8.RuneStart(v[n]) {
		n--
	}
	return v[:n], true
}

// hasControl reports ASCII control characters (NUL included) or DEL.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}
