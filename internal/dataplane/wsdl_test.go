package dataplane

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

func TestWSDLServing(t *testing.T) {
	files := ordersFiles(t)
	root, types := string(files["orders.wsdl"]), string(files["xsd/orders-types.xsd"])
	// rewritten is the stored root WSDL with the three references replaced.
	rewritten := func(base string) string {
		s := strings.Replace(root, `location="http://backend.invalid/orders"`, `location="`+base+`/consume/dev/orders"`, 1)
		s = strings.Replace(s, `location='http://backend.invalid/orders12'`, `location='`+base+`/consume/dev/orders'`, 1)
		return strings.Replace(s, `schemaLocation="xsd/orders-types.xsd"`,
			`schemaLocation="`+base+`/consume/dev/orders/wsdl/xsd/orders-types.xsd"`, 1)
	}
	loopback := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}

	tests := []struct {
		name       string
		cfg        Config
		path       string
		header     []string
		wantStatus int
		wantCT     string
		want       func(base string) string // exact body
		wantCode   string
	}{
		{name: "?wsdl", path: "/consume/dev/orders?wsdl", wantStatus: 200, wantCT: "application/wsdl+xml; charset=utf-8", want: rewritten},
		{name: "/wsdl", path: "/consume/dev/orders/wsdl", wantStatus: 200, want: rewritten},
		{name: "imported XSD", path: "/consume/dev/orders/wsdl/xsd/orders-types.xsd", wantStatus: 200,
			wantCT: "application/xml; charset=utf-8", want: func(string) string { return types }},
		{name: "?xsd=", path: "/consume/dev/orders?xsd=xsd/orders-types.xsd", wantStatus: 200,
			want: func(string) string { return types }},
		{name: "public base URL", cfg: Config{PublicBaseURL: "https://soap.example.com/base/"}, path: "/consume/dev/orders?wsdl",
			wantStatus: 200, want: func(string) string { return rewritten("https://soap.example.com/base") }},
		{name: "forwarded headers from an untrusted peer are ignored", path: "/consume/dev/orders?wsdl",
			header: []string{"X-Forwarded-Host", "evil.example", "X-Forwarded-Proto", "https"}, wantStatus: 200, want: rewritten},
		{name: "forwarded headers from a trusted proxy", cfg: Config{Gateway: GatewayConfig{TrustedProxies: func() []netip.Prefix { return loopback }}},
			path: "/consume/dev/orders?wsdl", header: []string{"X-Forwarded-Host", "soap.example.com", "X-Forwarded-Proto", "https"},
			wantStatus: 200, want: func(string) string { return rewritten("https://soap.example.com") }},
		{name: "a Host that could inject markup is not used", cfg: Config{Gateway: GatewayConfig{TrustedProxies: func() []netip.Prefix { return loopback }}},
			path: "/consume/dev/orders?wsdl", header: []string{"X-Forwarded-Host", `a"><x`}, wantStatus: 200, want: rewritten},
		{name: "unknown document", path: "/consume/dev/orders/wsdl/nope.xsd", wantStatus: 404, wantCode: "S2R-RUN-0404"},
		{name: "path escaping the import", path: "/consume/dev/orders/wsdl/../orders.wsdl", wantStatus: 404, wantCode: "S2R-RUN-0404"},
		// A GET is not a SOAP call: the Fault keeps the code's status, not
		// SOAP 1.1's 500.
		{name: "unknown service", path: "/consume/dev/nope?wsdl", wantStatus: 404, wantCode: "S2R-RUN-0404"},
		{name: "unknown environment", path: "/consume/qa/orders?wsdl", wantStatus: 404, wantCode: "S2R-RUN-0404"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newConsumeEnv(t, tc.cfg, nil)
			req, err := http.NewRequest(http.MethodGet, e.srv.URL+tc.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i+1 < len(tc.header); i += 2 {
				req.Header.Set(tc.header[i], tc.header[i+1])
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var sb bytes.Buffer
			if _, err := sb.ReadFrom(resp.Body); err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.wantStatus {
				t.Fatalf("status = %d, want %d\n%s", resp.StatusCode, tc.wantStatus, sb.String())
			}
			if tc.wantCT != "" && resp.Header.Get("Content-Type") != tc.wantCT {
				t.Errorf("Content-Type = %q, want %q", resp.Header.Get("Content-Type"), tc.wantCT)
			}
			if tc.want != nil {
				if d := cmp.Diff(tc.want(e.srv.URL), sb.String()); d != "" {
					t.Errorf("body (-want +got):\n%s", d)
				}
			}
			if tc.wantCode != "" && !strings.Contains(sb.String(), tc.wantCode) {
				t.Errorf("answer lacks %s:\n%s", tc.wantCode, sb.String())
			}
		})
	}
}

func TestFindAttr(t *testing.T) {
	tests := []struct {
		tag, name, want string
		ok              bool
	}{
		{`<a location="x">`, "location", "x", true},
		{`<soap:address  location = 'y' />`, "location", "y", true},
		{`<xs:import namespace="n" schemaLocation="s.xsd"/>`, "schemaLocation", "s.xsd", true},
		{`<xs:import xlocation="n" location="s"/>`, "location", "s", true},
		{`<xs:import namespace="n"/>`, "schemaLocation", "", false},
		{`<a b="unterminated>`, "b", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.tag, func(t *testing.T) {
			data := []byte("  " + tc.tag)
			s, e, _, ok := findAttr(data, 0, len(data), tc.name)
			if ok != tc.ok || (ok && string(data[s:e]) != tc.want) {
				t.Errorf("findAttr = %q %v, want %q %v", data[s:e], ok, tc.want, tc.ok)
			}
		})
	}
}

// TestWSDLFilesFromURLImport: the files of a URL import are stored under
// their absolute URLs; they are served under ext/{n}/{name} (n: the rank of the key) and the
// references between them (a wsdl:import and a relative schemaLocation)
// point there.
func TestWSDLFilesFromURLImport(t *testing.T) {
	root := `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"><import namespace="urn:a" location="http://h.example/svc/part.wsdl"/></definitions>`
	part := `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:xs="http://www.w3.org/2001/XMLSchema"><types><xs:schema>` +
		`<xs:include schemaLocation="t/types.xsd"/><xs:import namespace="urn:w" schemaLocation="http://www.w3.org/2001/xml.xsd"/>` +
		`</xs:schema></types></definitions>`
	files := map[string][]byte{
		"http://h.example/svc?wsdl":          []byte(root),
		"http://h.example/svc/part.wsdl":     []byte(part),
		"http://h.example/svc/t/types.xsd":   []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"/>`),
		"http://unrelated.example/other.xsd": []byte(`<x/>`),
	}
	set := indexWSDLFiles("http://h.example/svc?wsdl", files)
	url := func(key string) string { return "https://s2r/consume/e/s/wsdl/" + set.byKey[key].name }
	got := string(set.byKey["http://h.example/svc?wsdl"].render("https://s2r/consume/e/s", url))
	want := strings.Replace(root, "http://h.example/svc/part.wsdl", "https://s2r/consume/e/s/wsdl/ext/0/part.wsdl", 1)
	if got != want {
		t.Errorf("root:\n got %s\nwant %s", got, want)
	}
	got = string(set.byKey["http://h.example/svc/part.wsdl"].render("https://s2r/consume/e/s", url))
	want = strings.Replace(part, `"t/types.xsd"`, `"https://s2r/consume/e/s/wsdl/ext/1/types.xsd"`, 1)
	if got != want {
		t.Errorf("part:\n got %s\nwant %s", got, want)
	}
	if f := set.byName["ext/1/types.xsd"]; f == nil || f.key != "http://h.example/svc/t/types.xsd" {
		t.Errorf("ext/1/types.xsd serves %+v", f)
	}
}

// TestWSDLFilesLatin1: an ISO-8859-1 document with bytes above 0x7F
// before its references (the reader reads its UTF-8 form, whose offsets
// run ahead of the stored bytes) gets every reference rewritten in its
// stored bytes and is served with its own charset; a UTF-8 document with
// the same text is unaffected.
func TestWSDLFilesLatin1(t *testing.T) {
	doc := func(decl, text string) string {
		return decl + `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:xs="http://www.w3.org/2001/XMLSchema" ` +
			`xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"><documentation>` + text + `</documentation>` +
			`<types><xs:schema><xs:import namespace="urn:a" schemaLocation="a.xsd"/><xs:import namespace="urn:b" schemaLocation="b.xsd"/>` +
			`</xs:schema></types><service name="S"><port name="P" binding="x"><soap:address location="http://backend.invalid/x"/>` +
			`</port></service></definitions>`
	}
	rewritten := func(s string) string {
		s = strings.Replace(s, `"a.xsd"`, `"https://s2r/consume/e/s/wsdl/a.xsd"`, 1)
		s = strings.Replace(s, `"b.xsd"`, `"https://s2r/consume/e/s/wsdl/b.xsd"`, 1)
		return strings.Replace(s, `"http://backend.invalid/x"`, `"https://s2r/consume/e/s"`, 1)
	}
	tests := []struct{ name, root, wantCT string }{
		{"ISO-8859-1 with accented text", doc(`<?xml version="1.0" encoding="ISO-8859-1"?>`+"\n", "Gr\xfc\xdfe, cr\xe8me br\xfbl\xe9e"),
			"application/wsdl+xml; charset=iso-8859-1"},
		{"latin1 declared, ASCII only", doc(`<?xml version='1.0' encoding='latin1'?>`, "plain"), "application/wsdl+xml; charset=utf-8"},
		{"UTF-8 with accented text", doc(`<?xml version="1.0" encoding="UTF-8"?>`, "Grüße, crème brûlée"), "application/wsdl+xml; charset=utf-8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string][]byte{"root.wsdl": []byte(tc.root), "a.xsd": []byte(`<x/>`), "b.xsd": []byte(`<y/>`)}
			set := indexWSDLFiles("root.wsdl", files)
			f := set.byKey["root.wsdl"]
			got := string(f.render("https://s2r/consume/e/s", func(key string) string { return "https://s2r/consume/e/s/wsdl/" + set.byKey[key].name }))
			if want := rewritten(tc.root); got != want {
				t.Errorf("rendered:\n got %q\nwant %q", got, want)
			}
			if f.contentType != tc.wantCT {
				t.Errorf("Content-Type = %q, want %q", f.contentType, tc.wantCT)
			}
		})
	}
}

// TestConsumeConcurrent runs calls and WSDL fetches for many Host headers
// at once (more bases than the cache keeps), for the race detector and
// the cache bound.
func TestConsumeConcurrent(t *testing.T) {
	e := newConsumeEnv(t, Config{}, nil)
	e.rest.set(jsonAnswer(200, order1))
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				req, _ := http.NewRequest("GET", e.srv.URL+"/consume/dev/orders?wsdl", nil)
				req.Host = fmt.Sprintf("h%d.example:%d", g, i)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					errs <- err.Error()
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if want := fmt.Sprintf(`location="http://h%d.example:%d/consume/dev/orders"`, g, i); resp.StatusCode != 200 || !strings.Contains(string(b), want) {
					errs <- fmt.Sprintf("wsdl for %s: %d lacks %s", req.Host, resp.StatusCode, want)
					return
				}
				req, _ = http.NewRequest("POST", e.srv.URL+"/consume/dev/orders", strings.NewReader(soap11(getOrder)))
				req.Header.Set("Content-Type", "text/xml")
				req.Header.Set("SOAPAction", "urn:example:orders:GetOrder")
				resp, err = http.DefaultClient.Do(req)
				if err != nil {
					errs <- err.Error()
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					errs <- fmt.Sprintf("call: %d", resp.StatusCode)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestWSDLFilesUndeclaredPrefixes: a stored WSDL that uses prefixes it
// never declares (imported by the lenient rule) is served with the
// declarations the import assumed added on its root, so it is
// namespace-well-formed, and its soap:address is rewritten like any
// other; a prefix with no known namespace is declared as its placeholder.
func TestWSDLFilesUndeclaredPrefixes(t *testing.T) {
	root := "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n" + `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:caf` + "\xe9" + `">` +
		`<binding name="B" type="tns:P"><soap:binding/><acme:x/></binding>` +
		`<service name="S"><port name="P" binding="tns:B"><soap:address location="http://backend.invalid/x"/></port></service></definitions>`
	set := indexWSDLFiles("root.wsdl", map[string][]byte{"root.wsdl": []byte(root)})
	f := set.byKey["root.wsdl"]
	got := string(f.render("https://s2r/consume/e/s", func(key string) string { return "" }))
	want := strings.Replace(root, `<definitions `, `<definitions xmlns:tns="urn:caf&#xE9;" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" `+
		`xmlns:acme="urn:s2r:undeclared-prefix:acme" `, 1)
	want = strings.Replace(want, `"http://backend.invalid/x"`, `"https://s2r/consume/e/s"`, 1)
	if got != want {
		t.Errorf("served:\n got %q\nwant %q", got, want)
	}
	if _, err := xmlstream.Parse([]byte(got), xmlstream.Limits{}); err != nil {
		t.Errorf("served document: %v", err)
	}
	if f.contentType != "application/wsdl+xml; charset=iso-8859-1" {
		t.Errorf("Content-Type %q", f.contentType)
	}
}
