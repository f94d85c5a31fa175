package dataplane

import (
	"net/http"
	"net/netip"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/correlation"
	"github.com/s2r-project/s2r/internal/limit"
	"github.com/s2r-project/s2r/internal/routing"
)

// Protection on the request path (DESIGN 10.6). Backend limits are taken
// by upstream.Selector.Do for every backend call of every direction; the
// rate limit per client of a service is counted here, by publish and
// consume requests, async initiations and gateway calls, never by async
// callbacks or polls (a client over its limit must still learn the result
// it was promised).

// admitClient counts one request against svc's rate limit per client:
// nil when svc has none or the client is under it, else 429
// S2R-RUN-0429 with retryAfterSeconds. client is the attributed address
// when the caller has it (the gateway), else the zero Addr.
func (d *Dispatcher) admitClient(r *http.Request, svc *routing.Service, client netip.Addr) error {
	p := svc.RateLimit
	if p == nil {
		return nil
	}
	if !client.IsValid() {
		client = d.clientAddr(r)
	}
	err := d.clients.Allow(p, client.String(), r.Header)
	if ref, ok := limit.AsRefusal(err); ok {
		return ref.APIError()
	}
	return err
}

// clientAddr is the client address of a publish or consume request by the
// gateway's trusted-proxy rules (ClientAddr). A forwarded address the
// rules refuse (an X-Forwarded-For from a peer that is not a trusted
// proxy) is ignored: the peer itself is the client, so nobody picks the
// address they are counted under.
func (d *Dispatcher) clientAddr(r *http.Request) netip.Addr {
	var trusted []netip.Prefix
	if f := d.gw.cfg.TrustedProxies; f != nil {
		trusted = f()
	}
	a, err := ClientAddr(r.RemoteAddr, r.Header.Values("X-Forwarded-For"), trusted)
	if err != nil {
		a, _ = parseHost(r.RemoteAddr)
	}
	return a
}

// gatewayRefuse answers a protection refusal of a gateway call as a SOAP
// Fault of the request's version with the refusal's own status and
// Retry-After (the gateway's clients speak SOAP), and records it.
func (d *Dispatcher) gatewayRefuse(w http.ResponseWriter, r *http.Request, e *apierr.Error) {
	w.Header().Set("Connection", "close")
	apierr.WriteFault(w, soapVersionOf(r), e, correlation.ID(r.Context()))
}
