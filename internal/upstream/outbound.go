package upstream

import (
	"net/netip"
	"sync/atomic"

	"github.com/s2r-project/s2r/internal/fetch"
)

// OutboundSettings are the outbound policy settings, parsed:
// outbound_allowed_cidrs and outbound_denied_cidrs.
type OutboundSettings struct {
	Allowed []netip.Prefix
	Denied  []netip.Prefix
}

// Outbound keeps the outbound policies of the current settings in memory:
// the fetch policy of wsdl_fetch health checks, and the backend policy
// (fetch.Policy.ForBackends) of every connection to a backend endpoint,
// which it also hands to the backend Client.
type Outbound struct {
	client  *Client
	fetcher atomic.Pointer[fetch.Fetcher]
	backend atomic.Pointer[fetch.Policy]
}

// NewOutbound returns the policies of the default settings (no CIDR
// allowed or denied beyond the built-in rules), applied to client when
// it is not nil.
func NewOutbound(client *Client) *Outbound {
	o := &Outbound{client: client}
	o.Apply(OutboundSettings{})
	return o
}

// Apply makes s the current settings: a new fetcher replaces the old one
// (whose idle connections are closed) and the client's later connections
// follow the new backend policy.
func (o *Outbound) Apply(s OutboundSettings) {
	policy := fetch.Policy{AllowedCIDRs: s.Allowed, DeniedCIDRs: s.Denied, MaxBytes: 4 << 20, Timeout: MaxCheckTimeout}
	backend := policy.ForBackends()
	o.backend.Store(&backend)
	if o.client != nil {
		o.client.SetPolicy(backend)
	}
	if old := o.fetcher.Swap(fetch.New(policy)); old != nil {
		old.CloseIdleConnections()
	}
}

// Fetcher returns the fetcher of wsdl_fetch health checks.
func (o *Outbound) Fetcher() *fetch.Fetcher { return o.fetcher.Load() }

// BackendPolicy returns the policy of connections to backend endpoints.
func (o *Outbound) BackendPolicy() fetch.Policy { return *o.backend.Load() }
