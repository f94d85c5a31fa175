package access

import (
	"net"
	"net/http/httptest"
	"testing"
)

// FuzzDevRequest checks the development identity never applies to a
// request whose peer is not a loopback address, that carries identity or
// forwarding headers, or that a browser sent from another site.
func FuzzDevRequest(f *testing.F) {
	f.Add("127.0.0.1:5000", "127.0.0.1:8080", "", "", "", "")
	f.Add("[::1]:1", "localhost", "same-origin", "http://localhost", "", "")
	f.Add("10.0.0.1:5", "127.0.0.1:8080", "", "", "", "")
	f.Add("127.0.0.1:5000", "evil.example", "cross-site", "https://evil.example", "1.2.3.4", "x@y.z")
	f.Add("127.0.0.1", "[::1", "none", "null", "", "")
	f.Fuzz(func(t *testing.T, remote, host, site, origin, xff, email string) {
		req := httptest.NewRequest("POST", "/admin/v1/x", nil)
		req.RemoteAddr, req.Host = remote, host
		for k, v := range map[string]string{"Sec-Fetch-Site": site, "Origin": origin, "X-Forwarded-For": xff, HeaderEmail: email} {
			if v != "" {
				req.Header.Set(k, v)
			}
		}
		if !DevRequest(req) {
			return
		}
		peer, _, err := net.SplitHostPort(remote)
		if err != nil || !isLoopbackHost(peer) {
			t.Fatalf("dev identity for peer %q", remote)
		}
		if email != "" || xff != "" {
			t.Fatalf("dev identity despite headers email=%q xff=%q", email, xff)
		}
		if site != "" && site != "same-origin" && site != "none" {
			t.Fatalf("dev identity for Sec-Fetch-Site %q", site)
		}
		if !isLoopbackHost(hostOnly(host)) {
			t.Fatalf("dev identity for Host %q", host)
		}
	})
}
