package limit

import (
	"net/http"
	"time"
)

// Policy is a service's ClientSettings compiled for the hot path. Scope
// keeps the buckets of different services apart in a shared Clients table.
type Policy struct {
	scope  string
	kind   byte   // 'i' ip, 'h' header
	header string // canonical header name when kind is 'h'
	rule   gcra
}

// Compile returns the Policy of s for the service scope (its id). s must
// be valid.
func (s ClientSettings) Compile(scope string) (*Policy, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	kind, header, _ := parseClientKey(s.ClientKey)
	n := s.Normalized()
	perSecond := float64(n.RequestsPerMinute) / float64(time.Minute/time.Second)
	return &Policy{scope: scope, kind: kind, header: header, rule: newGCRA(perSecond, n.Burst)}, nil
}

// clientValue returns what tells the request's client apart: the header's
// first value, or the IP address when the policy keys on the IP or the
// header is absent (so a client cannot escape its limit by leaving the
// header out, nor take the limit of every header-less client).
func (p *Policy) clientValue(ip string, h http.Header) (kind byte, value string) {
	if p.kind == 'h' {
		if v := h[p.header]; len(v) > 0 && v[0] != "" {
			return 'h', v[0]
		}
	}
	return 'i', ip
}
