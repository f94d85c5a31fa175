package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/tests/loopback"
)

// allowLoopback is the allow list tests that talk to httptest servers need.
var allowLoopback = prefixes("127.0.0.1/32")

func newServer(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// wantFetchError checks err is an *Error with the reason and exact message.
func wantFetchError(t *testing.T, err error, reason Reason, msg string) *Error {
	t.Helper()
	var fe *Error
	if !errors.As(err, &fe) {
		t.Fatalf("error = %v (%T), want *fetch.Error", err, err)
	}
	if fe.Reason != reason {
		t.Errorf("reason = %q, want %q (error %q)", fe.Reason, reason, err)
	}
	if msg != "" && err.Error() != msg {
		t.Errorf("error = %q\nwant    %q", err, msg)
	}
	return fe
}

func TestGetSuccess(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/xml")
		fmt.Fprint(w, "<definitions/>")
	})
	f := New(Policy{AllowedCIDRs: allowLoopback})
	res, err := f.Get(context.Background(), srv.URL+"/calc?wsdl&token=abc#frag")
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Body) != "<definitions/>" || res.ContentType != "text/xml" || res.StatusCode != 200 {
		t.Errorf("result = %+v", res)
	}
	if res.FinalURL != srv.URL+"/calc?wsdl&token=abc" {
		t.Errorf("FinalURL = %q", res.FinalURL)
	}
	if got, want := RedactString(res.FinalURL), srv.URL+"/calc?wsdl&token=REDACTED"; got != want {
		t.Errorf("RedactString = %q, want %q", got, want)
	}
}

func TestGetBlockedByDefault(t *testing.T) {
	hit := false
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) { hit = true })
	_, err := New(Policy{}).Get(context.Background(), srv.URL+"/x?token=abc")
	wantFetchError(t, err, ReasonBlockedAddress,
		"fetch "+srv.URL+"/x?token=REDACTED: address 127.0.0.1 is not allowed (loopback)")
	if hit {
		t.Error("the blocked server was reached")
	}
}

func TestGetRefusedAddresses(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {})
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	p := strconv.Itoa(port)
	tests := []struct{ name, url, msg string }{
		{"metadata", "http://169.254.169.254/latest/meta-data/", "fetch http://169.254.169.254/latest/meta-data/: address 169.254.169.254 is not allowed (link-local)"},
		{"ipv6 loopback", "http://[::1]:" + p + "/", "fetch http://[::1]:" + p + "/: address ::1 is not allowed (loopback)"},
		{"mapped loopback", "http://[::ffff:127.0.0.1]:" + p + "/", "fetch http://[::ffff:127.0.0.1]:" + p + "/: address 127.0.0.1 is not allowed (loopback)"},
		{"localhost", "http://localhost:" + p + "/", "fetch http://localhost:" + p + "/: host localhost resolves to 127.0.0.1 is not allowed (loopback)"},
		{"unspecified", "http://0.0.0.0:" + p + "/", "fetch http://0.0.0.0:" + p + "/: address 0.0.0.0 is not allowed (unspecified)"},
		{"decimal loopback", "http://2130706433:" + p + "/", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := New(Policy{Timeout: 300 * time.Millisecond})
			start := time.Now()
			_, err := f.Get(context.Background(), tt.url)
			if time.Since(start) > 250*time.Millisecond {
				t.Errorf("refusal took %v: something was dialed or waited for", time.Since(start))
			}
			if tt.name == "decimal loopback" {
				// Go's resolver does not read "2130706433" as an address;
				// whatever happens, it must not reach the server.
				if err == nil {
					t.Fatal("decimal loopback fetched")
				}
				return
			}
			if tt.name == "localhost" && strings.Contains(err.Error(), "::1") {
				tt.msg = strings.Replace(tt.msg, "127.0.0.1", "::1", 1)
			}
			wantFetchError(t, err, ReasonBlockedAddress, tt.msg)
		})
	}
}

func TestGetIPv6LoopbackAllowed(t *testing.T) {
	ln, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback here: %v", err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "v6")
	})}}
	srv.Start()
	defer srv.Close()
	res, err := New(Policy{AllowedCIDRs: prefixes("::1/128")}).Get(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Body) != "v6" {
		t.Errorf("body = %q", res.Body)
	}
}

func TestGetDeniedPrivateWins(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {})
	f := New(Policy{AllowedCIDRs: prefixes("127.0.0.0/8"), DeniedCIDRs: prefixes("127.0.0.1/32")})
	_, err := f.Get(context.Background(), srv.URL)
	wantFetchError(t, err, ReasonBlockedAddress, "fetch "+srv.URL+": address 127.0.0.1 is not allowed (inside a denied CIDR)")
}

func TestGetCredentialsNeverEchoed(t *testing.T) {
	_, err := New(Policy{}).Get(context.Background(), "http://admin:hunter2secret@example.com/a.wsdl")
	wantFetchError(t, err, ReasonBadURL, "fetch: URL must not contain a user name or password")
	if strings.Contains(err.Error(), "hunter2secret") || strings.Contains(fmt.Sprintf("%+v", err), "hunter2secret") {
		t.Errorf("error leaks the password: %v", err)
	}
}

func TestGetIgnoresProxyEnvironment(t *testing.T) {
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
	t.Setenv("http_proxy", "http://127.0.0.1:1")
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "direct") })
	res, err := New(Policy{AllowedCIDRs: allowLoopback}).Get(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Body) != "direct" {
		t.Errorf("body = %q", res.Body)
	}
}

func TestGetStatus(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	_, err := New(Policy{AllowedCIDRs: allowLoopback}).Get(context.Background(), srv.URL+"/missing.wsdl")
	fe := wantFetchError(t, err, ReasonHTTPStatus, "fetch "+srv.URL+"/missing.wsdl: server answered 404 Not Found")
	if fe.StatusCode != 404 {
		t.Errorf("StatusCode = %d", fe.StatusCode)
	}
}

func TestGetStatusTextNotEchoed(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		conn, buf, _ := w.(http.Hijacker).Hijack()
		defer conn.Close()
		buf.WriteString("HTTP/1.1 599 <script>alert(1)</script>\r\nContent-Length: 0\r\n\r\n")
		buf.Flush()
	})
	_, err := New(Policy{AllowedCIDRs: allowLoopback}).Get(context.Background(), srv.URL)
	wantFetchError(t, err, ReasonHTTPStatus, "fetch "+srv.URL+": server answered 599")
}

func TestGetConnectRefused(t *testing.T) {
	_, err := New(Policy{AllowedCIDRs: allowLoopback}).Get(context.Background(), "http://"+loopback.FreeAddr(t)+"/")
	wantFetchError(t, err, ReasonConnect, "")
	if !strings.Contains(err.Error(), "cannot connect to 127.0.0.1") {
		t.Errorf("error = %q", err)
	}
}

func TestGetCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := New(Policy{AllowedCIDRs: allowLoopback}).Get(ctx, "http://127.0.0.1:9/")
	wantFetchError(t, err, ReasonCanceled, "")
}

// staticResolver answers every lookup with fixed addresses or an error.
type staticResolver struct {
	addrs []netip.Addr
	err   error
}

func (r staticResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return r.addrs, r.err
}

func TestGetHostileDNS(t *testing.T) {
	tests := []struct {
		name     string
		resolver staticResolver
		reason   Reason
		msg      string
	}{
		{"metadata", staticResolver{addrs: []netip.Addr{netip.MustParseAddr("169.254.169.254")}}, ReasonBlockedAddress,
			"fetch http://evil.example/: host evil.example resolves to 169.254.169.254 is not allowed (link-local)"},
		{"mixed answer", staticResolver{addrs: []netip.Addr{netip.MustParseAddr("93.184.216.34"), netip.MustParseAddr("127.0.0.1")}}, ReasonBlockedAddress,
			"fetch http://evil.example/: host evil.example resolves to 127.0.0.1 is not allowed (loopback)"},
		{"mapped answer", staticResolver{addrs: []netip.Addr{netip.MustParseAddr("::ffff:127.0.0.1")}}, ReasonBlockedAddress,
			"fetch http://evil.example/: host evil.example resolves to 127.0.0.1 is not allowed (loopback)"},
		{"no such host", staticResolver{err: &net.DNSError{Err: "no such host", Name: "evil.example", IsNotFound: true}}, ReasonDNS,
			"fetch http://evil.example/: cannot resolve host evil.example"},
		{"empty answer", staticResolver{}, ReasonDNS, "fetch http://evil.example/: host evil.example has no addresses"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := New(Policy{Resolver: tt.resolver, Timeout: time.Second})
			_, err := f.Get(context.Background(), "http://evil.example/")
			wantFetchError(t, err, tt.reason, tt.msg)
		})
	}
}

func TestGetResolvedNameAllowed(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, r.Host) })
	port := strconv.Itoa(srv.Listener.Addr().(*net.TCPAddr).Port)
	f := New(Policy{AllowedCIDRs: allowLoopback, Resolver: staticResolver{addrs: []netip.Addr{netip.MustParseAddr("127.0.0.1")}}})
	res, err := f.Get(context.Background(), "http://wsdl.internal:"+port+"/")
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Body) != "wsdl.internal:"+port {
		t.Errorf("Host seen by the server = %q", res.Body)
	}
}

func TestGetUntrustedTLS(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	srv.StartTLS()
	defer srv.Close()
	f := New(Policy{AllowedCIDRs: allowLoopback})
	defer f.CloseIdleConnections()
	_, err := f.Get(context.Background(), srv.URL+"/a.wsdl")
	wantFetchError(t, err, ReasonConnect, "fetch "+srv.URL+"/a.wsdl: request failed: TLS certificate not trusted")
}

func TestGetPlainHTTPOnTLSPort(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {})
	httpsURL := "https://" + strings.TrimPrefix(srv.URL, "http://")
	_, err := New(Policy{AllowedCIDRs: allowLoopback}).Get(context.Background(), httpsURL)
	wantFetchError(t, err, ReasonConnect, "fetch "+httpsURL+": request failed: server did not answer with TLS")
}
