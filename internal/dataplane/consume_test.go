package dataplane

import (
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/tests/loopback"
	"github.com/s2r-project/s2r/internal/upstream"
	"github.com/s2r-project/s2r/internal/wsdl"
)

const (
	getOrder = `<o:GetOrder xmlns:o="urn:example:orders"><o:id>9007199254740993</o:id><o:lang>fr</o:lang></o:GetOrder>`
	order1   = `{"order":{"id":9223372036854775807,"name":"Ünïcode <&> \"q\" 'a' ✓","total":12345678901234567890.000000001,` +
		`"paid":false,"tags":["one"],"note":null}}`
	createOrder = `<CreateOrder xmlns="urn:example:orders"><order><id>-42</id><name>a &lt;b&gt; &amp; ✓</name>` +
		`<total>0.10</total><paid>true</paid><tags>x</tags><tags>y</tags>` +
		`<note xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true"/></order></CreateOrder>`
)

// mtomGetOrder is a SOAP 1.1 MTOM package whose lang is an xop:Include
// of a part holding "fr" (inlined as its base64, ZnI=).
var mtomGetOrder = "--b1\r\nContent-Type: application/xop+xml; charset=UTF-8; type=\"text/xml\"\r\nContent-ID: <root>\r\n\r\n" +
	soap11(`<o:GetOrder xmlns:o="urn:example:orders"><o:id>7</o:id><o:lang><xop:Include xmlns:xop="http://www.w3.org/2004/08/xop/include" href="cid:p1"/></o:lang></o:GetOrder>`) +
	"\r\n--b1\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <p1>\r\n\r\nfr\r\n--b1--\r\n"

func TestConsume(t *testing.T) {
	refused := "http://" + loopback.FreeAddr(t)

	tests := []struct {
		name       string
		edit       func(*routing.Source)
		backend    http.HandlerFunc
		method     string
		path       string
		ct, action string
		body       string
		wantStatus int
		wantCT     string
		wantCode   string   // S2R code in the Fault
		wantBody   []string // substrings of the answer
		wantREST   *restSeen
		wantResult string
		refused    bool // refused by the dispatcher before the route lookup
	}{
		{name: "get by SOAPAction: GET with path parameter and query", backend: jsonAnswer(200, order1),
			ct: "text/xml; charset=utf-8", action: `"urn:example:orders:GetOrder"`, body: soap11(getOrder),
			wantStatus: 200, wantCT: "text/xml; charset=utf-8",
			wantBody: []string{`<ns1:id>9223372036854775807</ns1:id>`, `<ns1:name>Ünïcode &lt;&amp;&gt; "q" 'a' ✓</ns1:name>`,
				`<ns1:total>12345678901234567890.000000001</ns1:total>`, `<ns1:paid>false</ns1:paid>`, `<ns1:tags>one</ns1:tags>`,
				`xsi:nil="true"`, `GetOrderResponse`},
			wantREST:   &restSeen{method: "GET", uri: "/api/orders/9007199254740993?lang=fr"},
			wantResult: model.ResultSuccess},
		{name: "create by body element: POST JSON body, SOAP 1.2", backend: jsonAnswer(201, order1),
			ct: `application/soap+xml; charset=utf-8`, body: soap12(createOrder),
			wantStatus: 200, wantCT: "application/soap+xml; charset=utf-8",
			wantBody: []string{`http://www.w3.org/2003/05/soap-envelope`, `CreateOrderResponse`},
			wantREST: &restSeen{method: "POST", uri: "/api/orders", ct: "application/json",
				body: `{"order":{"id":-42,"name":"a <b> & ✓","total":0.10,"paid":true,"tags":["x","y"],"note":null}}`},
			wantResult: model.ResultSuccess},
		{name: "1.2 action parameter", backend: jsonAnswer(200, order1),
			ct: `application/soap+xml; charset=utf-8; action="urn:example:orders:GetOrder"`, body: soap12(getOrder),
			wantStatus: 200, wantREST: &restSeen{method: "GET", uri: "/api/orders/9007199254740993?lang=fr"}},
		{name: "MTOM package inlined", backend: jsonAnswer(200, order1),
			ct:     `multipart/related; type="application/xop+xml"; start="<root>"; start-info="text/xml"; boundary="b1"`,
			action: `"urn:example:orders:GetOrder"`, body: mtomGetOrder, wantStatus: 200, wantCT: "text/xml; charset=utf-8",
			wantREST: &restSeen{method: "GET", uri: "/api/orders/7?lang=ZnI%3D"}},
		{name: "WS-Addressing action", backend: jsonAnswer(200, order1), ct: "application/soap+xml",
			body: `<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope" xmlns:a="http://www.w3.org/2005/08/addressing"><e:Header>` +
				`<a:Action e:mustUnderstand="true">urn:example:orders:GetOrder</a:Action></e:Header><e:Body>` + getOrder + `</e:Body></e:Envelope>`,
			wantStatus: 200, wantREST: &restSeen{method: "GET", uri: "/api/orders/9007199254740993?lang=fr"}},
		{name: "rename and body pointer", backend: jsonAnswer(200, `{"order":{"id":1,"title":"n","total":1,"paid":true,"note":"x"}}`),
			edit: func(s *routing.Source) {
				s.Mappings["op-create"] = model.Mapping{
					RequestMapping:  []byte(`{"mode":"identity","restMethod":"PUT","restPath":"/orders","rename":{"order/name":"title"},"body":"/order"}`),
					ResponseMapping: []byte(`{"mode":"identity","rename":{"order/name":"title"}}`)}
			},
			ct: "text/xml", body: soap11(createOrder), wantStatus: 200,
			wantBody: []string{`<ns1:name>n</ns1:name>`, `<ns1:note>x</ns1:note>`},
			wantREST: &restSeen{method: "PUT", uri: "/api/orders",
				body: `{"id":-42,"note":null,"paid":true,"tags":["x","y"],"title":"a <b> & ✓","total":0.10}`}},
		{name: "backend 404 safe: no body in the fault", backend: jsonAnswer(404, `{"error":"no such order","secret":"s3"}`),
			ct: "text/xml", body: soap11(getOrder), wantStatus: 500, wantCT: "text/xml; charset=utf-8",
			wantCode: "S2R-RUN-0502", wantBody: []string{`<faultcode>soap:Server</faultcode>`, `backendStatus">404<`},
			wantResult: model.ResultBackendFailure},
		{name: "backend 404 full: JSON body in the fault detail", backend: jsonAnswer(404, `{"error": "no such order"}`),
			edit: func(s *routing.Source) { s.Service.FaultDetailExposureMode = model.FaultDetailFull },
			ct:   "application/soap+xml", body: soap12(getOrder), wantStatus: 500, wantCT: "application/soap+xml; charset=utf-8",
			wantCode: "S2R-RUN-0502", wantBody: []string{`{"error":"no such order"}`, `env:Receiver`}},
		{name: "answer that is not JSON", backend: func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>")) },
			ct: "text/xml", body: soap11(getOrder), wantStatus: 500, wantCode: "S2R-RUN-0504"},
		{name: "answer that breaks the contract", backend: jsonAnswer(200, `{"order":{"id":"x"}}`),
			ct: "text/xml", body: soap11(getOrder), wantStatus: 500, wantCode: "S2R-RUN-0506"},
		{name: "backend refusing connections", edit: func(s *routing.Source) { s.Backends[0].Profile.EndpointURL = refused },
			ct: "text/xml", body: soap11(getOrder), wantStatus: 500, wantCode: "S2R-RUN-0502"},
		{name: "backend hanging: timeout", backend: func(w http.ResponseWriter, r *http.Request) { time.Sleep(time.Second) },
			edit: func(s *routing.Source) { ms := 100; s.Operations[0].TimeoutMs = &ms },
			ct:   "application/soap+xml", body: soap12(getOrder), wantStatus: 500, wantCode: "S2R-RUN-0424", wantResult: model.ResultTimeout,
			wantBody: []string{`<env:Value>env:Receiver</env:Value>`}},
		{name: "oversized request", ct: "application/soap+xml", body: soap12(strings.Repeat(" ", 1<<20) + getOrder),
			wantStatus: 400, wantCode: "S2R-RUN-0413", refused: true, wantBody: []string{`<env:Value>env:Sender</env:Value>`}},
		{name: "oversized answer", backend: jsonAnswer(200, `{"order":{"name":"`+strings.Repeat("x", 1<<20)+`"}}`),
			ct: "application/soap+xml", body: soap12(getOrder), wantStatus: 400, wantCode: "S2R-RUN-0413"},
		{name: "answer with an error status and HTML", backend: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(500)
			io.WriteString(w, "<html>oops</html>")
		}, edit: func(s *routing.Source) { s.Service.FaultDetailExposureMode = model.FaultDetailFull },
			ct: "application/soap+xml", body: soap12(getOrder), wantStatus: 500, wantCode: "S2R-RUN-0502",
			wantBody: []string{`&lt;html&gt;oops&lt;/html&gt;`}},
		{name: "wrong content type", ct: "application/json", body: `{}`, wantStatus: 400, wantCode: "S2R-VAL-0400",
			wantResult: model.ResultFailed},
		{name: "wrong method, SOAP 1.1", method: "GET", ct: "text/xml", wantStatus: 405, wantCT: "text/xml; charset=utf-8",
			wantCode: "S2R-RUN-0411"},
		{name: "wrong method", method: "PUT", ct: "application/soap+xml", body: soap12(getOrder), wantStatus: 405,
			wantCT: "application/soap+xml; charset=utf-8", wantCode: "S2R-RUN-0411"},
		{name: "malformed envelope", ct: "text/xml", body: `<s:Envelope`, wantStatus: 500, wantCode: "S2R-VAL-0400"},
		{name: "malformed body after a known action", ct: "text/xml", action: "urn:example:orders:GetOrder",
			body: soap11(`<o:GetOrder xmlns:o="urn:example:orders"><o:id>1</o:id></o:Get>`), wantStatus: 500, wantCode: "S2R-VAL-0400"},
		// Import reads undeclared prefixes leniently (docs/wsdl-support.md);
		// messages never are: an unbound prefix is malformed XML.
		{name: "unbound prefix on the operation element, SOAP 1.2", ct: "application/soap+xml",
			body: soap12(`<o:GetOrder><o:id>1</o:id></o:GetOrder>`), wantStatus: 400, wantCode: "S2R-VAL-0400",
			wantBody: []string{`malformed XML`, `undeclared namespace prefix "o"`, `<env:Value>env:Sender</env:Value>`}},
		{name: "unbound prefix on an attribute, SOAP 1.1", ct: "text/xml", action: "urn:example:orders:GetOrder",
			body: soap11(`<o:GetOrder xmlns:o="urn:example:orders"><o:id xsi:nil="false">1</o:id></o:GetOrder>`), wantStatus: 500,
			wantCode: "S2R-VAL-0400", wantBody: []string{`undeclared namespace prefix "xsi"`, `<faultcode>soap:Client</faultcode>`}},
		{name: "version mismatch", ct: "text/xml", body: soap12(getOrder), wantStatus: 500, wantCode: "S2R-VAL-0400"},
		{name: "unknown operation", ct: "text/xml", body: soap11(`<x:Nope xmlns:x="urn:x"/>`), wantStatus: 500,
			wantCode: "S2R-RUN-0404", wantBody: []string{`service "orders" in environment "dev" has no operation`, `; its operations: GetOrder`}},
		{name: "body breaks the contract", ct: "application/soap+xml", body: soap12(`<o:GetOrder xmlns:o="urn:example:orders"><o:id>abc</o:id></o:GetOrder>`),
			wantStatus: 400, wantCode: "S2R-VAL-0410", wantBody: []string{`<env:Text xml:lang="en">S2R-VAL-0410: the SOAP body does not match the operation's contract: /Envelope/Body/GetOrder/id: `,
				`<s2r:detail name="violations"><s2r:item><s2r:detail name="pointer">/Envelope/Body/GetOrder/id</s2r:detail>`}},
		{name: "mustUnderstand header not understood", ct: "text/xml",
			body: `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header><h:X xmlns:h="urn:h" s:mustUnderstand="1"/></s:Header><s:Body>` +
				getOrder + `</s:Body></s:Envelope>`, wantStatus: 500, wantCode: "S2R-VAL-0400", wantBody: []string{"not understood"}},
		{name: "header blocks the node need not understand are ignored", backend: jsonAnswer(200, order1), ct: "text/xml",
			body: `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header><h:Auth xmlns:h="urn:h"><h:user>u</h:user></h:Auth>` +
				`<h:T xmlns:h="urn:h" s:mustUnderstand="0">t</h:T><h:Other xmlns:h="urn:h" s:mustUnderstand="1" s:actor="urn:someone-else"/></s:Header><s:Body>` +
				getOrder + `</s:Body></s:Envelope>`,
			wantStatus: 200, wantREST: &restSeen{method: "GET", uri: "/api/orders/9007199254740993?lang=fr"}, wantResult: model.ResultSuccess},
		{name: "no such resource under the service", path: "/consume/dev/orders/other", ct: "text/xml", body: soap11(getOrder),
			wantStatus: 500, wantCode: "S2R-RUN-0404"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newConsumeEnv(t, Config{}, tc.edit)
			e.rest.set(tc.backend)
			method, path := tc.method, tc.path
			if method == "" {
				method = http.MethodPost
			}
			if path == "" {
				path = "/consume/dev/orders"
			}
			cid := "cid-" + strings.ReplaceAll(tc.name, " ", "-")
			res := e.do(t, method, path, tc.ct, tc.action, tc.body, cid)
			if res.status != tc.wantStatus {
				t.Fatalf("status = %d, want %d\n%s", res.status, tc.wantStatus, res.body)
			}
			if tc.wantCT != "" && res.header.Get("Content-Type") != tc.wantCT {
				t.Errorf("Content-Type = %q, want %q", res.header.Get("Content-Type"), tc.wantCT)
			}
			if tc.wantCode != "" && !strings.Contains(res.body, "<s2r:code>"+tc.wantCode+"</s2r:code>") {
				t.Errorf("answer lacks code %s:\n%s", tc.wantCode, res.body)
			}
			if strings.Contains(res.body, "s3") && strings.Contains(res.body, "secret") {
				t.Errorf("safe mode leaked the backend body:\n%s", res.body)
			}
			for _, s := range tc.wantBody {
				if !strings.Contains(res.body, s) {
					t.Errorf("answer lacks %s:\n%s", s, res.body)
				}
			}
			if w := tc.wantREST; w != nil {
				got := e.rest.last()
				if got.method != w.method || got.uri != w.uri || (w.body != "" && got.body != w.body) || (w.ct != "" && got.ct != w.ct) {
					t.Errorf("REST call = %+v\nwant %+v", got, *w)
				}
			}
			recs := e.log.byCID(cid)
			if len(recs) != 1 {
				t.Fatalf("%d records, want 1", len(recs))
			}
			rec := recs[0]
			if rec.HTTPStatus != res.status || rec.Direction != model.DirectionConsume || (rec.ServiceKey != "orders") != tc.refused {
				t.Errorf("record = %+v", rec)
			}
			if tc.wantCode != "" && rec.ErrorCode != tc.wantCode {
				t.Errorf("record code = %q, want %q", rec.ErrorCode, tc.wantCode)
			}
			if tc.wantResult != "" && rec.ResultCode != tc.wantResult {
				t.Errorf("record result = %q, want %q", rec.ResultCode, tc.wantResult)
			}
		})
	}
}

// TestConsumeBackendAuth: the REST call carries the backend profile's
// credentials; a profile whose credentials are missing answers 502
// S2R-RUN-0505, and no secret reaches the Fault.
func TestConsumeBackendAuth(t *testing.T) {
	tests := []struct {
		name       string
		profile    func(p *model.BackendProfile)
		secrets    upstream.Secrets
		header     string
		want       string
		wantStatus int
		wantCode   string
	}{
		{name: "basic", profile: func(p *model.BackendProfile) { p.AuthType, p.Username = model.AuthBasic, "svc" },
			secrets: upstream.Secrets{Password: "pa:ss"}, header: "Authorization", want: "Basic c3ZjOnBhOnNz", wantStatus: 200},
		{name: "bearer", profile: func(p *model.BackendProfile) { p.AuthType = model.AuthBearer },
			secrets: upstream.Secrets{Token: "tok-123"}, header: "Authorization", want: "Bearer tok-123", wantStatus: 200},
		{name: "api key header", profile: func(p *model.BackendProfile) { p.AuthType, p.APIKeyHeaderName = model.AuthAPIKeyHeader, "X-Api-Key" },
			secrets: upstream.Secrets{APIKey: "k-456"}, header: "X-Api-Key", want: "k-456", wantStatus: 200},
		{name: "bearer without its token", profile: func(p *model.BackendProfile) { p.AuthType = model.AuthBearer },
			wantStatus: 500, wantCode: "S2R-RUN-0505"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got string
			e := newConsumeEnv(t, Config{}, func(s *routing.Source) {
				tc.profile(&s.Backends[0].Profile)
				s.Backends[0].Secrets = tc.secrets
			})
			e.rest.set(func(w http.ResponseWriter, r *http.Request) {
				got = r.Header.Get(tc.header)
				jsonAnswer(200, order1)(w, r)
			})
			res := e.post(t, "application/soap+xml", "", soap12(getOrder), "cid-auth")
			if res.status != tc.wantStatus {
				t.Fatalf("status = %d, want %d: %s", res.status, tc.wantStatus, res.body)
			}
			if tc.wantCode != "" && !strings.Contains(res.body, tc.wantCode) {
				t.Errorf("answer lacks %s: %s", tc.wantCode, res.body)
			}
			if tc.want != "" && got != tc.want {
				t.Errorf("%s = %q, want %q", tc.header, got, tc.want)
			}
		})
	}
}

// TestConsumeRPC: an rpc/literal operation without a SOAP action is chosen
// by its wrapper element (the operation name in the soap:body namespace).
func TestConsumeRPC(t *testing.T) {
	b, err := os.ReadFile("testdata/rpc.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"rpc.wsdl": b}
	defs, err := wsdl.ParseFiles(context.Background(), "rpc.wsdl", files)
	if err != nil {
		t.Fatal(err)
	}
	e := newConsumeEnv(t, Config{}, func(s *routing.Source) {
		s.Version.WSDLService, s.Version.WSDLPort = "RpcService", "RpcPort"
		s.Artifact = &model.Artifact{ArtifactID: "a2", RootPath: "rpc.wsdl", Files: files}
		s.Contract = defs
		s.Operations = []model.Operation{{OperationID: "op-sum", OperationKey: "sum", SOAPOperationName: "Sum",
			SOAPVersion: "1.1", RestMethod: "POST", RestPath: "/sum"}}
		s.Mappings = nil
	})
	e.rest.set(jsonAnswer(200, `{"total":-9223372036854775808}`))
	res := e.post(t, "text/xml", `""`, soap11(`<r:Sum xmlns:r="urn:example:rpc:ops"><a>-9223372036854775807</a><b>-1</b></r:Sum>`), "cid-rpc")
	if res.status != 200 || !strings.Contains(res.body, `<total>-9223372036854775808</total>`) || !strings.Contains(res.body, "SumResponse") {
		t.Fatalf("answer = %d %s", res.status, res.body)
	}
	if got, want := e.rest.last(), (restSeen{method: "POST", uri: "/api/sum", ct: "application/json",
		body: `{"a":-9223372036854775807,"b":-1}`}); got != want {
		t.Errorf("REST call = %+v, want %+v", got, want)
	}
}

// TestConsumeDebugRecord: with the service's debug flag the record holds
// the four payloads (bodies only), and the backend credential is in none
// of them.
func TestConsumeDebugRecord(t *testing.T) {
	e := newConsumeEnv(t, Config{}, func(s *routing.Source) {
		s.Service.DebugEnabled = true
		s.Backends[0].Profile.AuthType = model.AuthBearer
		s.Backends[0].Secrets = upstream.Secrets{Token: "very-secret-token"}
	})
	e.rest.set(jsonAnswer(201, order1))
	res := e.post(t, "text/xml", "", soap11(createOrder), "cid-debug")
	if res.status != 200 {
		t.Fatalf("answer = %d %s", res.status, res.body)
	}
	recs := e.log.byCID("cid-debug")
	if len(recs) != 1 {
		t.Fatalf("%d records", len(recs))
	}
	r := recs[0]
	if !r.Debug || r.OperationKey != "create-order" || r.BackendTarget == "" || r.ResultCode != model.ResultSuccess {
		t.Errorf("record = %+v", r)
	}
	for name, p := range map[string][]byte{"request": r.RequestPayload, "response": r.ResponsePayload,
		"backend request": r.BackendRequest, "backend response": r.BackendResponse} {
		if len(p) == 0 {
			t.Errorf("no %s payload", name)
		}
		if strings.Contains(string(p), "very-secret-token") {
			t.Errorf("%s payload holds the token", name)
		}
	}
	if string(r.ResponsePayload) != res.body || string(r.BackendResponse) != order1 {
		t.Errorf("payloads differ from the bodies: %s / %s", r.ResponsePayload, r.BackendResponse)
	}
}
