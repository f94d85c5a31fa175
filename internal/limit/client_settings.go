package limit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/textproto"
	"strings"

	"github.com/s2r-project/s2r/internal/model"
)

// Client key kinds of a rate limit.
const (
	ClientKeyIP           = "ip"      // the client's IP address
	ClientKeyHeaderPrefix = "header:" // followed by a header name: that header's value
)

// Bounds of the client rate-limit settings.
const (
	MaxRequestsPerMinute = 60_000_000 // one million a second
	MaxBurst             = 60_000_000
	maxHeaderNameLen     = 256
)

// ClientSettings are a service's rate limit per client (DESIGN 10.6):
// each client, told apart by ClientKey, may make RequestsPerMinute requests
// a minute and at most Burst at once. Burst 0 (absent) means
// RequestsPerMinute: a client may spend its minute at once.
type ClientSettings struct {
	ClientKey         string `json:"clientKey"`
	RequestsPerMinute int64  `json:"requestsPerMinute"`
	Burst             int64  `json:"burst,omitempty"`
}

// ParseClientSettings reads the body of PUT .../rate-limits: null or {}
// means no limit (nil, nil); anything it refuses is a *model.FieldError
// naming the member.
func ParseClientSettings(body []byte) (*ClientSettings, error) {
	body = bytes.TrimSpace(body)
	if string(body) == "null" {
		return nil, nil
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil || members == nil {
		return nil, &model.FieldError{Field: "rateLimits", Index: -1, Reason: "must be a JSON object or null"}
	}
	if len(members) == 0 {
		return nil, nil
	}
	var s ClientSettings
	for name, raw := range members {
		if err := s.setMember(name, raw); err != nil {
			return nil, err
		}
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

func (s *ClientSettings) setMember(name string, raw json.RawMessage) error {
	switch name {
	case "clientKey":
		if json.Unmarshal(raw, &s.ClientKey) != nil {
			return fieldErr(name, "must be a string")
		}
	case "requestsPerMinute":
		return parseCount(name, raw, &s.RequestsPerMinute)
	case "burst":
		if string(raw) == "null" {
			return nil
		}
		return parseCount(name, raw, &s.Burst)
	default:
		return fieldErr(name, "unknown field")
	}
	return nil
}

// parseCount reads a JSON integer (1e3 counts; 1.5 does not) into dst.
func parseCount(name string, raw json.RawMessage, dst *int64) error {
	var f float64
	if json.Unmarshal(raw, &f) != nil || f != math.Trunc(f) || math.Abs(f) > 1e15 {
		return fieldErr(name, "must be an integer")
	}
	*dst = int64(f)
	return nil
}

// Validate returns a *model.FieldError naming the first bad field.
func (s ClientSettings) Validate() error {
	if _, _, err := parseClientKey(s.ClientKey); err != nil {
		return err
	}
	if s.RequestsPerMinute < 1 || s.RequestsPerMinute > MaxRequestsPerMinute {
		return fieldErr("requestsPerMinute", fmt.Sprintf("must be an integer between 1 and %d", MaxRequestsPerMinute))
	}
	if s.Burst < 0 || s.Burst > MaxBurst {
		return fieldErr("burst", fmt.Sprintf("must be an integer between 1 and %d, or absent", MaxBurst))
	}
	return nil
}

// parseClientKey splits "ip" or "header:NAME"; header is the canonical
// header name.
func parseClientKey(k string) (kind byte, header string, err error) {
	switch {
	case k == ClientKeyIP:
		return 'i', "", nil
	case strings.HasPrefix(k, ClientKeyHeaderPrefix):
		name := k[len(ClientKeyHeaderPrefix):]
		if name == "" || len(name) > maxHeaderNameLen || !isToken(name) {
			return 0, "", fieldErr("clientKey", "the header name must be an HTTP token of at most 256 characters")
		}
		return 'h', textproto.CanonicalMIMEHeaderKey(name), nil
	default:
		return 0, "", fieldErr("clientKey", `must be "ip" or "header:NAME"`)
	}
}

// isToken reports an RFC 9110 token: visible ASCII but separators.
func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return s != ""
}

func fieldErr(field, reason string) *model.FieldError {
	return &model.FieldError{Field: field, Index: -1, Reason: reason}
}

// Normalized returns s with Burst set (RequestsPerMinute when 0): the form
// GET answers.
func (s ClientSettings) Normalized() ClientSettings {
	if s.Burst == 0 {
		s.Burst = s.RequestsPerMinute
	}
	return s
}
