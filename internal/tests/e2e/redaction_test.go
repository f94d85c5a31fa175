package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/tests/poll"
)

// redactCanary is the secret every credential of these requests carries.
const redactCanary = "Canary-Zx81Qq"

// quoteWSDL is a document/literal service with a soap:header part
// (credentials, carried as "$headers" on publish), bound with SOAP 1.1
// (soapNS "http://schemas.xmlsoap.org/wsdl/soap/") or 1.2.
func quoteWSDL(soapNS string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="` + soapNS + `"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="http://example.com/quote"
  targetNamespace="http://example.com/quote" name="Quote">
  <types><xs:schema targetNamespace="http://example.com/quote" elementFormDefault="qualified">
    <xs:element name="Credentials"><xs:complexType><xs:sequence>
      <xs:element name="user" type="xs:string"/><xs:element name="apiKey" type="xs:string"/>
    </xs:sequence></xs:complexType></xs:element>
    <xs:element name="GetQuote"><xs:complexType><xs:sequence><xs:element name="symbol" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="GetQuoteResponse"><xs:complexType><xs:sequence><xs:element name="price" type="xs:decimal"/></xs:sequence></xs:complexType></xs:element>
  </xs:schema></types>
  <message name="In"><part name="parameters" element="tns:GetQuote"/><part name="auth" element="tns:Credentials"/></message>
  <message name="Out"><part name="parameters" element="tns:GetQuoteResponse"/></message>
  <portType name="QuotePort"><operation name="GetQuote"><input message="tns:In"/><output message="tns:Out"/></operation></portType>
  <binding name="QuoteBinding" type="tns:QuotePort">
    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="GetQuote"><soap:operation soapAction="urn:GetQuote"/>
      <input><soap:body use="literal" parts="parameters"/><soap:header message="tns:In" part="auth" use="literal"/></input>
      <output><soap:body use="literal"/></output>
    </operation>
  </binding>
  <service name="QuoteService"><port name="QuotePort" binding="tns:QuoteBinding"><soap:address location="http://127.0.0.1:9/quote"/></port></service>
</definitions>`
}

// wsseHeader is a WS-Security header full of the canary.
const wsseHeader = `<wsse:Security xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd">` +
	`<wsse:UsernameToken><wsse:Username>alice</wsse:Username><wsse:Password>` + redactCanary + `</wsse:Password>` +
	`<wsse:Nonce>` + redactCanary + `</wsse:Nonce></wsse:UsernameToken>` +
	`<wsse:BinarySecurityToken>` + redactCanary + `</wsse:BinarySecurityToken></wsse:Security>`

// soapWithHeader is an envelope of version 1.1 or 1.2 with a header and a
// body.
func soapWithHeader(v12 bool, header, body string) string {
	ns := soap11NS
	if v12 {
		ns = soap12NS
	}
	return `<e:Envelope xmlns:e="` + ns + `"><e:Header>` + header + `</e:Header><e:Body>` + body + `</e:Body></e:Envelope>`
}

// TestDebugCaptureRedacted sends traffic full of one canary value through
// publish, consume and gateway services, in SOAP 1.1 and 1.2, with debug
// on, and checks that no endpoint showing payloads (debug traces, their
// replay metadata, runtime logs) shows the canary to an admin, while the
// masked payloads are there.
func TestDebugCaptureRedacted(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *server) {
		backend := newCanaryBackend(t)
		for _, v := range []struct {
			name   string
			v12    bool
			soapNS string
		}{{"11", false, "http://schemas.xmlsoap.org/wsdl/soap/"}, {"12", true, "http://schemas.xmlsoap.org/wsdl/soap12/"}} {
			t.Run("soap"+v.name, func(t *testing.T) {
				var cids []string
				for _, dir := range []string{"publish", "consume", "gateway"} {
					o := s.onboard(t, quoteWSDL(v.soapNS), nil, "q"+dir+v.name, dir, backend.srv.URL+"/"+dir)
					s.admin(t, "PATCH", "/services/"+o.serviceID, map[string]any{"debugEnabled": true}).WantStatus(t, 200)
					if dir == "gateway" {
						s.admin(t, "PUT", "/services/"+o.serviceID+"/consumer-grants", map[string]any{"cidrs": []string{"127.0.0.1/32"}}).WantStatus(t, 200)
					}
					patch := map[string]any{"authType": "api_key_header",
						"apiKeyHeaderName": "X-Quote-Key", "credentials": map[string]any{"apiKey": redactCanary}}
					if dir == "publish" { // outbound WS-Security: the canary as the UsernameToken password
						patch["wsSecurity"] = map[string]any{"usernameToken": map[string]any{"username": "alice"}}
						patch["credentials"] = map[string]any{"apiKey": redactCanary, "wssPassword": redactCanary}
					}
					s.admin(t, "PATCH", "/backend-profiles/"+o.profileID, patch).WantStatus(t, 200)
					cid := "redact-" + dir + v.name
					// Debug and the API key reach the route table
					// asynchronously: call until a debug record is stored.
					poll.UntilOK(t, settle, dir+" debug call", func() string {
						if r := sendCanary(t, s, dir, v.v12, o, cid); r.Status != 200 {
							return string(r.Body)
						}
						for range 20 {
							tr := s.admin(t, "GET", "/debug-traces/"+cid, nil)
							if strings.Contains(string(tr.Body), `"debug":true`) && strings.Contains(string(tr.Body), "X-Quote-Key") {
								return ""
							}
							time.Sleep(50 * time.Millisecond)
						}
						return "no debug record with the backend API key yet"
					})
					cids = append(cids, cid)
				}
				for _, cid := range cids {
					checkNoCanary(t, s, cid)
				}
				if backend.signed.Load() == 0 {
					t.Error("no publish call carried the profile's WS-Security header")
				}
			})
		}
	})
}

// sendCanary calls the service o in direction dir with the canary in
// headers, cookies, WS-Security and "$headers".
func sendCanary(t *testing.T, s *server, dir string, v12 bool, o onboarded, cid string) resp {
	t.Helper()
	path := "/" + dir + "/dev/" + o.serviceKey
	hdr := []string{"X-Correlation-Id", cid, "Authorization", "Bearer " + redactCanary, "Cookie", "sid=" + redactCanary,
		"X-S2R-Callback-Secret", redactCanary}
	if dir == "publish" {
		body := `{"$headers":{"auth":{"user":"alice","apiKey":"` + redactCanary + `"}},"symbol":"ACME"}`
		var key string
		for k := range o.operations {
			key = k
		}
		return s.do(t, "POST", path+"/"+key, "", body, hdr...)
	}
	ctype, action := "text/xml; charset=utf-8", "SOAPAction"
	if v12 {
		ctype, action = `application/soap+xml; charset=utf-8; action="urn:GetQuote"`, "X-Unused"
	}
	creds := `<q:Credentials xmlns:q="http://example.com/quote"><q:user>alice</q:user><q:apiKey>` + redactCanary + `</q:apiKey></q:Credentials>`
	env := soapWithHeader(v12, wsseHeader+creds, `<q:GetQuote xmlns:q="http://example.com/quote"><q:symbol>ACME</q:symbol></q:GetQuote>`)
	hdr = append(hdr, action, `"urn:GetQuote"`)
	return s.api.For(t).Send("POST", path, "", ctype, []byte(env), hdr...)
}

// checkNoCanary reads every endpoint that shows the record of cid, as an
// admin, and fails on the canary; the debug trace must show masked values.
func checkNoCanary(t *testing.T, s *server, cid string) {
	t.Helper()
	var trace resp
	poll.UntilOK(t, settle, cid+" recorded", func() string {
		trace = s.admin(t, "GET", "/debug-traces/"+cid, nil)
		if trace.Status == 200 {
			return ""
		}
		return string(trace.Body)
	})
	answers := map[string]resp{
		"trace":  trace,
		"replay": s.admin(t, "GET", "/debug-traces/"+cid+"/replay-metadata", nil).WantStatus(t, 200),
		"list":   s.admin(t, "GET", "/runtime-logs?correlationId="+cid, nil).WantStatus(t, 200),
	}
	for name, r := range answers {
		if strings.Contains(string(r.Body), redactCanary) {
			t.Errorf("%s %s shows the canary: %.3000s", cid, name, r.Body)
		}
	}
	body := string(trace.Body)
	for _, want := range []string{"***redacted***", "ACME", `"payloads"`, `"headers"`} {
		if !strings.Contains(body, want) {
			t.Errorf("%s trace lacks %q: %.3000s", cid, want, body)
		}
	}
}

// canaryBackend answers every direction: SOAP with a WS-Security header
// and a Set-Cookie (publish and gateway), JSON (consume's REST calls).
type canaryBackend struct {
	srv *httptest.Server
	// signed counts publish calls that carried the profile's WS-Security
	// UsernameToken (the canary as its PasswordText).
	signed atomic.Int32
}

func newCanaryBackend(t *testing.T) *canaryBackend {
	b := &canaryBackend{}
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), `#PasswordText">`+redactCanary+`</wsse:Password>`) {
			b.signed.Add(1)
		}
		w.Header().Set("Set-Cookie", "backend="+redactCanary)
		if strings.HasPrefix(r.URL.Path, "/consume") {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"price":1.5}`)
			return
		}
		v12 := strings.Contains(string(body), soap12NS)
		ctype := "text/xml; charset=utf-8"
		if v12 {
			ctype = "application/soap+xml; charset=utf-8"
		}
		w.Header().Set("Content-Type", ctype)
		io.WriteString(w, soapWithHeader(v12, wsseHeader,
			`<q:GetQuoteResponse xmlns:q="http://example.com/quote"><q:price>1.5</q:price></q:GetQuoteResponse>`))
	}))
	t.Cleanup(b.srv.Close)
	return b
}
