package access

import (
	"net"
	"net/http"
	"net/url"
	"strings"
)

// SetDevIdentity makes requests that carry no identity headers act as
// email when they come straight from this machine (S2R_DEV_IDENTITY, for
// trying s2r on a laptop; configuration refuses it unless every listener is
// on a loopback address). "" turns it off. Call it before serving.
func (r *Resolver) SetDevIdentity(email string) { r.dev = NormalizeEmail(email) }

// DevRequest reports whether req may act as the development identity: it
// has no identity headers, its peer is a loopback address, nothing
// forwarded it (no X-Forwarded-For, Forwarded or X-Real-Ip: a local
// reverse proxy relays other machines), its Host names a loopback address
// (a DNS-rebinding page names its own host), and a browser did not send it
// from another site (Sec-Fetch-Site, else Origin), so a web page the
// developer visits cannot use the identity.
func DevRequest(req *http.Request) bool {
	h := req.Header
	if h.Get(HeaderEmail) != "" || h.Get(HeaderGroups) != "" {
		return false
	}
	if h.Get("X-Forwarded-For") != "" || h.Get("Forwarded") != "" || h.Get("X-Real-Ip") != "" {
		return false
	}
	peer, _, err := net.SplitHostPort(req.RemoteAddr)
	if err != nil || !isLoopbackHost(peer) || !isLoopbackHost(hostOnly(req.Host)) {
		return false
	}
	switch h.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return false
	}
	if origin := h.Get("Origin"); origin != "" {
		u, err := url.Parse(origin)
		if err != nil || !strings.EqualFold(u.Host, req.Host) {
			return false
		}
	}
	return true
}

// hostOnly strips an optional port from a Host header value.
func hostOnly(hostport string) string {
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		return host
	}
	return strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]")
}

// isLoopbackHost reports whether host is a loopback IP or localhost.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
