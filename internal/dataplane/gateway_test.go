package dataplane_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/upstream"
)

// TestGatewayByteIdentity sends bodies an XML stack would normalize and
// checks the backend receives exactly the same bytes.
func TestGatewayByteIdentity(t *testing.T) {
	backend := hashBackend(t)
	gw := newGW(t, gwService(upstream.RoutingSingle, backend.URL+"/soap"), 10, dataplane.GatewayConfig{})
	iso := append([]byte(`<?xml version="1.0" encoding="ISO-8859-1"?><e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body><n>`),
		0xC9, 0x6C, 0xE8, 0x76, 0x65, 0x20, 0xE0, 0x20, 0x4D, 0xFC, 0x6E, 0x63, 0x68, 0x65, 0x6E)
	iso = append(iso, []byte(`</n></e:Body></e:Envelope>`)...)
	tests := []struct {
		name, contentType string
		body              []byte
	}{
		{"odd whitespace", "text/xml", []byte("<?xml version=\"1.0\"?>\r\n<soap:Envelope   xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"\t>\n\n  <soap:Body  ><a  x = 'y' >  1 </a\n></soap:Body></soap:Envelope >\n\n")},
		{"comments and CDATA", "text/xml", []byte(`<!-- head --><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><!--c--><q><![CDATA[<not> & "xml" ]]></q>&amp;&#x41;</soap:Body></soap:Envelope><!-- tail -->`)},
		{"BOM", "text/xml; charset=utf-8", append([]byte{0xEF, 0xBB, 0xBF}, []byte(`<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body/></soap:Envelope>`)...)},
		{"ISO-8859-1", "text/xml; charset=ISO-8859-1", iso},
		{"SOAP 1.2 not even XML", `application/soap+xml; action="urn:x"`, []byte("not xml at all \x00\x01\xff")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := gw.recs.count()
			req, _ := http.NewRequest("POST", gw.front.URL+"/gateway/dev/calc", bytes.NewReader(tt.body))
			req.Header.Set("Content-Type", tt.contentType)
			req.Header.Set("SOAPAction", `"urn:whatever"`)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var a hashAnswer
			if err := json.NewDecoder(resp.Body).Decode(&a); err != nil || resp.StatusCode != 200 {
				t.Fatalf("status %d, %v", resp.StatusCode, err)
			}
			if a.SHA256 != sum(tt.body) || a.ContentType != tt.contentType || a.SOAPAction != `"urn:whatever"` {
				t.Fatalf("backend got sha %s (want %s), content type %q, SOAPAction %q", a.SHA256, sum(tt.body), a.ContentType, a.SOAPAction)
			}
			rec := gw.recs.after(t, n)
			if rec.HTTPStatus != 200 || rec.ResultCode != model.ResultSuccess || rec.RequestBytes != int64(len(tt.body)) ||
				rec.Direction != model.DirectionGateway || rec.ServiceKey != "calc" || rec.BackendTarget == "" {
				t.Fatalf("record %+v", rec)
			}
		})
	}
}

// patternReader yields n deterministic bytes and hashes them as it goes.
type patternReader struct {
	left int64
	i    byte
	h    interface {
		Write([]byte) (int, error)
	}
}

func (p *patternReader) Read(b []byte) (int, error) {
	if p.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(b)) > p.left {
		b = b[:p.left]
	}
	for k := range b {
		b[k] = p.i
		p.i = p.i*31 + 7
	}
	p.left -= int64(len(b))
	p.h.Write(b)
	return len(b), nil
}

// TestGatewayStreams50MB sends a 50 MB body of unknown length through the
// gateway and checks its hash at the backend and that the heap never grew
// by more than a fraction of it.
func TestGatewayStreams50MB(t *testing.T) {
	if testing.Short() {
		t.Skip("50 MB stream")
	}
	const size = 50 << 20
	backend := hashBackend(t)
	gw := newGW(t, gwService(upstream.RoutingSingle, backend.URL), 64, dataplane.GatewayConfig{})
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
		}
	}()
	h := sha256.New()
	pr := &patternReader{left: size, h: h}
	req, _ := http.NewRequest("POST", gw.front.URL+"/gateway/dev/calc", io.NopCloser(pr)) // unknown length: chunked
	req.Header.Set("Content-Type", "text/xml")
	resp, err := http.DefaultClient.Do(req)
	close(stop)
	<-sampled
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var a hashAnswer
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil || resp.StatusCode != 200 {
		t.Fatalf("status %d, %v", resp.StatusCode, err)
	}
	if want := hex.EncodeToString(h.Sum(nil)); a.SHA256 != want || a.N != size {
		t.Fatalf("backend got %d bytes sha %s, want %d sha %s", a.N, a.SHA256, size, want)
	}
	growth := int64(peak.Load()) - int64(base.HeapInuse)
	t.Logf("heap in use grew by at most %d KB during a %d MB request", growth>>10, size>>20)
	if growth > 8<<20 {
		t.Fatalf("heap grew by %d MB during the request: the body is buffered", growth>>20)
	}
}

// TestGatewayRebuildsAddressHeaders checks that the client's address
// headers are never relayed and that hop-by-hop headers are dropped.
func TestGatewayRebuildsAddressHeaders(t *testing.T) {
	backend := hashBackend(t)
	trusted := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	gw := newGW(t, gwService(upstream.RoutingSingle, backend.URL), 10, dataplane.GatewayConfig{TrustedProxies: func() []netip.Prefix { return trusted }})
	req, _ := http.NewRequest("POST", gw.front.URL+"/gateway/dev/calc", strings.NewReader("<x/>"))
	req.Header.Set("X-Forwarded-For", "198.51.100.9, 127.0.0.5")
	req.Header.Set("Forwarded", "for=6.6.6.6")
	req.Header.Set("X-Real-Ip", "6.6.6.6")
	req.Header.Set("X-Forwarded-Proto", "https")
	req.Header.Set("X-Forwarded-Host", "evil.example")
	req.Header.Set("Connection", "X-Secret-Hop, keep-alive")
	req.Header.Set("X-Secret-Hop", "1")
	req.Header.Set("Keep-Alive", "timeout=5")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var a hashAnswer
	json.NewDecoder(resp.Body).Decode(&a)
	host := strings.TrimPrefix(gw.front.URL, "http://")
	want := hashAnswer{SHA256: sum([]byte("<x/>")), N: 4, XFF: []string{"198.51.100.9"}, RealIP: []string{"198.51.100.9"},
		Forwarded: []string{`for=198.51.100.9;host="` + host + `";proto=http`}, Proto: "http", Host: host}
	if diff := cmp.Diff(want, a); diff != "" {
		t.Fatalf("backend saw (-want +got):\n%s", diff)
	}
	if rec := gw.recs.after(t, 0); rec.ClientIP != "198.51.100.9" {
		t.Fatalf("recorded client %q", rec.ClientIP)
	}
}

// untouchable is a request body that fails the test when read.
type untouchable struct{ t *testing.T }

func (u untouchable) Read([]byte) (int, error) {
	u.t.Error("the body was read although a guard refused the request")
	return 0, io.ErrUnexpectedEOF
}

func TestGatewayGuardsRefuseBeforeReadingTheBody(t *testing.T) {
	backend := hashBackend(t)
	svc := gwService(upstream.RoutingSingle, backend.URL)
	svc.Grants = []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	gw := newGW(t, svc, 10, dataplane.GatewayConfig{TrustedProxies: func() []netip.Prefix { return trusted }})
	tests := []struct {
		name, method, path, peer, xff string
		status                        int
		code                          string
	}{
		{name: "spoofed XFF from an untrusted peer", method: "POST", path: "/gateway/dev/calc", peer: "192.0.2.10:5000", xff: "192.0.2.11", status: 403, code: apierr.GWIngressDenied},
		{name: "malformed XFF from a trusted proxy", method: "POST", path: "/gateway/dev/calc", peer: "10.1.1.1:5000", xff: "192.0.2.11, bogus", status: 403, code: apierr.GWIngressDenied},
		{name: "peer not granted", method: "POST", path: "/gateway/dev/calc", peer: "198.51.100.1:5000", status: 403, code: apierr.GWGrantDenied},
		{name: "client behind proxies not granted", method: "POST", path: "/gateway/dev/calc", peer: "10.1.1.1:5000", xff: "192.0.2.1, 198.51.100.1, 10.2.2.2", status: 403, code: apierr.GWGrantDenied},
		{name: "grant check on the WSDL", method: "GET", path: "/gateway/dev/calc?wsdl", peer: "198.51.100.1:5000", status: 403, code: apierr.GWGrantDenied},
		{name: "ingress check on other methods", method: "PUT", path: "/gateway/dev/calc", peer: "192.0.2.10:5000", xff: "192.0.2.11", status: 403, code: apierr.GWIngressDenied},
		{name: "other method", method: "PUT", path: "/gateway/dev/calc", peer: "192.0.2.10:5000", status: 405, code: apierr.RunMethodNotAllowed},
		{name: "DELETE", method: "DELETE", path: "/gateway/dev/calc", peer: "192.0.2.10:5000", status: 405, code: apierr.RunMethodNotAllowed},
		{name: "unknown service", method: "POST", path: "/gateway/dev/nope", peer: "192.0.2.10:5000", status: 404, code: apierr.RunNotFound},
		{name: "routing ignores the payload's operation", method: "POST", path: "/gateway/prod/calc", peer: "192.0.2.10:5000", status: 404, code: apierr.RunNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, tt.path, untouchable{t})
			r.ContentLength = 100
			r.RemoteAddr = tt.peer
			if tt.xff != "" {
				r.Header.Set("X-Forwarded-For", tt.xff)
			}
			w := httptest.NewRecorder()
			gw.d.ServeHTTP(w, r)
			if w.Code != tt.status || errorCode(t, w.Body.Bytes()) != tt.code {
				t.Fatalf("got %d %s, want %d %s", w.Code, w.Body, tt.status, tt.code)
			}
			rec := gw.recs.last(t)
			if rec.HTTPStatus != tt.status || rec.ErrorCode != tt.code || rec.ResultCode != model.ResultFailed {
				t.Fatalf("record %+v", rec)
			}
		})
	}
	t.Run("granted client through trusted proxies passes", func(t *testing.T) {
		r := httptest.NewRequest("POST", "/gateway/dev/calc", strings.NewReader("<ok/>"))
		r.RemoteAddr = "10.1.1.1:5000"
		r.Header.Set("X-Forwarded-For", "203.0.113.50, 192.0.2.77, 10.9.9.9")
		w := httptest.NewRecorder()
		gw.d.ServeHTTP(w, r)
		var a hashAnswer
		json.Unmarshal(w.Body.Bytes(), &a)
		if w.Code != 200 || len(a.XFF) != 1 || a.XFF[0] != "192.0.2.77" {
			t.Fatalf("got %d, backend saw XFF %v", w.Code, a.XFF)
		}
	})
}

func TestClientAddr(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	tests := []struct {
		name, peer string
		xff        []string
		want       string // "" = refused
	}{
		{"no XFF, untrusted peer", "198.51.100.1:1", nil, "198.51.100.1"},
		{"no XFF, trusted peer", "10.0.0.1:1", nil, "10.0.0.1"},
		{"XFF from untrusted peer", "198.51.100.1:1", []string{"1.2.3.4"}, ""},
		{"one hop", "10.0.0.1:1", []string{"1.2.3.4"}, "1.2.3.4"},
		{"spoofed left entries ignored", "10.0.0.1:1", []string{"6.6.6.6, 1.2.3.4"}, "1.2.3.4"},
		{"trusted hops skipped", "10.0.0.1:1", []string{"1.2.3.4, 10.0.0.2", "10.0.0.3"}, "1.2.3.4"},
		{"all trusted", "10.0.0.1:1", []string{"10.0.0.9, 10.0.0.2"}, "10.0.0.9"},
		{"ports and v6", "[fd00::1]:1", []string{"[2001:db8::5]:443, 10.0.0.2:80"}, "2001:db8::5"},
		{"mapped v4", "[::ffff:10.0.0.1]:1", []string{"::ffff:1.2.3.4"}, "1.2.3.4"},
		{"garbage examined", "10.0.0.1:1", []string{"1.2.3.4, nope"}, ""},
		{"garbage past the client not examined", "10.0.0.1:1", []string{"nope, 1.2.3.4"}, "1.2.3.4"},
		{"empty entry", "10.0.0.1:1", []string{""}, ""},
		{"bad peer", "nope", nil, ""},
		{"too many hops", "10.0.0.1:1", []string{strings.Repeat("10.0.0.2,", 40) + "1.2.3.4"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := dataplane.ClientAddr(tt.peer, tt.xff, trusted)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("got %v, want refusal", got)
				}
				return
			}
			if err != nil || got.String() != tt.want {
				t.Fatalf("got %v, %v; want %s", got, err, tt.want)
			}
		})
	}
}

func TestGranted(t *testing.T) {
	grants := []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24"), netip.MustParsePrefix("2001:db8::/32")}
	for addr, want := range map[string]bool{"192.0.2.9": true, "192.0.3.9": false, "2001:db8::1": true, "2001:db9::1": false} {
		if got := dataplane.Granted(netip.MustParseAddr(addr), grants); got != want {
			t.Errorf("Granted(%s) = %v", addr, got)
		}
	}
	if dataplane.Granted(netip.MustParseAddr("192.0.2.9"), nil) {
		t.Error("no grants must grant nobody")
	}
}

func FuzzClientAddr(f *testing.F) {
	f.Add("10.0.0.1:1", "1.2.3.4, 10.0.0.2")
	f.Add("[fd00::1]:1", "[2001:db8::5]:443")
	f.Add("1.1.1.1:1", "")
	f.Add("10.0.0.1:1", ",,,")
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	f.Fuzz(func(t *testing.T, peer, xff string) {
		var vals []string
		if xff != "" {
			vals = []string{xff}
		}
		a, err := dataplane.ClientAddr(peer, vals, trusted)
		if err == nil && !a.IsValid() {
			t.Fatal("accepted with an invalid address")
		}
	})
}
