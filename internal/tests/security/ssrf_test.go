package security

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/tests/poll"
)

// ssrfHost is one spelling of an address the control plane must not
// reach by default, as written in a URL's host.
type ssrfHost struct {
	name, host string
	// never marks the addresses no backend lives at (link-local and the
	// metadata address, unspecified, IPv4-compatible): refused by the
	// backend policy too, which allows loopback (docs/security.md).
	never bool
}

var ssrfHosts = []ssrfHost{
	{"loopback", "127.0.0.1", false},
	{"loopback 127.1.2.3", "127.1.2.3", false},
	{"localhost", "localhost", false},
	{"localhost.", "localhost.", false},
	{"name under localhost", "sec.localhost", false},
	{"ipv6 loopback", "[::1]", false},
	{"ipv4-mapped", "[::ffff:127.0.0.1]", false},
	{"ipv4-mapped hex", "[::ffff:7f00:1]", false},
	{"ipv4-compatible", "[::127.0.0.1]", true},
	{"nat64", "[64:ff9b::7f00:1]", false},
	{"6to4", "[2002:7f00:1::1]", false},
	{"decimal", "2130706433", false},
	{"octal", "0177.0.0.1", false},
	{"hex", "0x7f000001", false},
	{"hex dotted", "0x7f.0.0.1", false},
	{"short form", "127.1", false},
	{"unspecified", "0.0.0.0", true},
	{"ipv6 unspecified", "[::]", true},
	{"metadata", "169.254.169.254", true},
	{"metadata decimal", "2852039166", true},
	{"metadata mapped", "[::ffff:169.254.169.254]", true},
	{"link-local v6", "[fe80::1]", true},
	{"link-local v6 with zone", "[fe80::1%25lo]", true},
}

// ssrfSetup is a server with canaries listening on 127.0.0.1 and ::1 on
// one port, and an allowed server on 127.0.0.2 that redirects and serves
// a WSDL importing a hostile location.
type ssrfSetup struct {
	s       *server
	canary4 *canary
	canary6 *canary
	port    string
	allowed *httptest.Server // on 127.0.0.2, listed in outbound_allowed_cidrs
}

func newSSRFSetup(t *testing.T) *ssrfSetup {
	x := &ssrfSetup{s: startServer(t)}
	for i := 0; ; i++ {
		x.canary4 = newCanary(t, "tcp4", "127.0.0.1:0")
		if ln, err := net.Listen("tcp6", "[::1]:"+x.canary4.port); err == nil {
			ln.Close()
			x.canary6 = newCanary(t, "tcp6", "[::1]:"+x.canary4.port)
			break
		}
		if i == 20 {
			t.Skip("no port free on both 127.0.0.1 and ::1")
		}
	}
	x.port = x.canary4.port
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("cannot listen on 127.0.0.2: %v", err)
	}
	x.allowed = &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		to := r.URL.Query().Get("to")
		switch r.URL.Path {
		case "/redirect":
			http.Redirect(w, r, to, http.StatusFound)
		case "/ref.wsdl":
			w.Header().Set("Content-Type", "text/xml")
			fmt.Fprint(w, wsdlImporting(to))
		default:
			http.NotFound(w, r)
		}
	})}}
	x.allowed.Start()
	t.Cleanup(x.allowed.Close)
	x.setPolicy(t, []string{"127.0.0.2/32"}, nil)
	return x
}

// setPolicy sets outbound_allowed_cidrs and outbound_denied_cidrs.
func (x *ssrfSetup) setPolicy(t *testing.T, allowed, denied []string) {
	t.Helper()
	if allowed == nil {
		allowed = []string{}
	}
	if denied == nil {
		denied = []string{}
	}
	x.s.admin(t, "PATCH", "/settings", map[string]any{"outbound_allowed_cidrs": allowed, "outbound_denied_cidrs": denied}).WantStatus(t, 200)
}

// hits returns and resets the connections both canaries got.
func (x *ssrfSetup) hits() int64 { return x.canary4.hits.Swap(0) + x.canary6.hits.Swap(0) }

// target is the URL of host on the canaries' port.
func (x *ssrfSetup) target(h ssrfHost) string { return "http://" + h.host + ":" + x.port + "/sec.wsdl" }

// wsdlImporting is a WSDL whose schema imports location.
func wsdlImporting(location string) string {
	return `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:sec">` +
		`<types><xs:schema targetNamespace="urn:sec"><xs:import namespace="urn:sec-remote" schemaLocation="` +
		strings.ReplaceAll(location, "&", "&amp;") + `"/></xs:schema></types></definitions>`
}

// ssrfVector is one way to make the control plane fetch or dial a URL.
// It returns "" when the attempt was refused, else what happened.
type ssrfVector struct {
	name string
	try  func(t *testing.T, x *ssrfSetup, h ssrfHost) string
}

// importRefused reports "" when r is a 400 refusing the fetch for its
// address (or, for a host that is not an address, its name).
func importRefused(r resp) string {
	status, code := verdict(r)
	b := string(r.Body)
	if status == 400 && code == "S2R-VAL-0400" && (strings.Contains(b, "blocked_address") || strings.Contains(b, "bad_url")) {
		return ""
	}
	return fmt.Sprintf("%d %s %.300s", status, code, b)
}

var ssrfVectors = []ssrfVector{
	{"import-url", func(t *testing.T, x *ssrfSetup, h ssrfHost) string {
		return importRefused(x.s.admin(t, "POST", "/wsdl/import-url", map[string]any{"url": x.target(h)}))
	}},
	{"import-url:autopilot", func(t *testing.T, x *ssrfSetup, h ssrfHost) string {
		return importRefused(x.s.admin(t, "POST", "/wsdl/import-url:autopilot", map[string]any{"url": x.target(h), "environment": "dev"}))
	}},
	{"import-urls:autopilot", func(t *testing.T, x *ssrfSetup, h ssrfHost) string {
		return importRefused(x.s.admin(t, "POST", "/wsdl/import-urls:autopilot",
			map[string]any{"items": []any{map[string]any{"url": x.target(h), "environment": "dev"}}}))
	}},
	{"redirect", func(t *testing.T, x *ssrfSetup, h ssrfHost) string {
		return importRefused(x.s.admin(t, "POST", "/wsdl/import-url", map[string]any{"url": x.allowed.URL + "/redirect?to=" + url.QueryEscape(x.target(h))}))
	}},
	{"remote reference", func(t *testing.T, x *ssrfSetup, h ssrfHost) string {
		return importRefused(x.s.admin(t, "POST", "/wsdl/import-url", map[string]any{"url": x.allowed.URL + "/ref.wsdl?to=" + url.QueryEscape(x.target(h))}))
	}},
	{"external-reference-preview", func(t *testing.T, x *ssrfSetup, h ssrfHost) string {
		r := x.s.admin(t, "POST", "/wsdl/external-reference-preview", map[string]any{"xml": wsdlImporting(x.target(h)), "checkRemote": true})
		if r.Status == 200 && strings.Contains(string(r.Body), "is not allowed") {
			return ""
		}
		return fmt.Sprintf("%d %.300s", r.Status, r.Body)
	}},
}

// TestSSRF aims every URL the control plane fetches at every spelling of
// a refused address: each attempt is refused, and no canary is reached.
func TestSSRF(t *testing.T) {
	x := newSSRFSetup(t)
	for _, v := range ssrfVectors {
		for _, h := range ssrfHosts {
			start := time.Now()
			got := v.try(t, x, h)
			if got != "" {
				t.Errorf("%s via %s (%s): not refused: %s", v.name, h.name, h.host, got)
			}
			if n := x.hits(); n > 0 {
				t.Errorf("%s via %s (%s): the canary got %d connections", v.name, h.name, h.host, n)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("%s via %s: took %v (a refusal must not wait for a connect timeout)", v.name, h.name, d)
			}
		}
	}
}

// TestSSRFPolicySettings: outbound_allowed_cidrs lifts a refusal (the
// canary is then reached, which shows the refusals above are the
// policy's), outbound_denied_cidrs wins over it, and a denied private
// range is refused although private ranges are allowed by default; the
// backend policy honours both.
func TestSSRFPolicySettings(t *testing.T) {
	x := newSSRFSetup(t)
	local := x.target(ssrfHosts[0])
	x.setPolicy(t, []string{"127.0.0.1/32"}, nil)
	r := x.s.admin(t, "POST", "/wsdl/import-url", map[string]any{"url": local})
	if x.hits() == 0 || strings.Contains(string(r.Body), "blocked_address") {
		t.Errorf("allowed loopback: the canary was not reached: %d %.300s", r.Status, r.Body)
	}
	x.setPolicy(t, []string{"127.0.0.0/8"}, []string{"127.0.0.1/32"})
	if got := importRefused(x.s.admin(t, "POST", "/wsdl/import-url", map[string]any{"url": local})); got != "" || x.hits() > 0 {
		t.Errorf("denied wins over allowed: %s", got)
	}
	x.setPolicy(t, nil, []string{"10.0.0.0/8"})
	if got := importRefused(x.s.admin(t, "POST", "/wsdl/import-url", map[string]any{"url": "http://10.255.255.1/x.wsdl"})); got != "" {
		t.Errorf("denied private range: %s", got)
	}

	// Backends: loopback is allowed by default, denied when listed.
	svc := x.s.onboard(t, "ssrfpol", "publish", local)
	test := func() resp {
		return x.s.admin(t, "POST", "/backend-profiles/"+svc.profileID+":test-application",
			map[string]any{"operationId": svc.operationIDs["add"], "payload": map[string]any{"a": 1, "b": 2}}).WantStatus(t, 200)
	}
	x.setPolicy(t, nil, nil)
	poll.UntilOK(t, settle, "loopback backend called", func() string {
		if r := test(); x.hits() == 0 {
			return "canary not reached: " + string(r.Body)
		}
		return ""
	})
	x.setPolicy(t, nil, []string{"127.0.0.0/8"})
	poll.UntilOK(t, settle, "denied loopback backend refused", func() string {
		r := test()
		if n := x.hits(); n > 0 || !strings.Contains(string(r.Body), "outbound policy") {
			return fmt.Sprintf("canary hits %d: %.300s", n, r.Body)
		}
		return ""
	})
}
