package dataplane

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/tests/loopback"
	"github.com/s2r-project/s2r/internal/transform"
)

const addOK = `<AddResponse xmlns="http://example.com/calc"><result>12345678901234567890.123456789012</result></AddResponse>`

// expectAdd answers addOK after checking the request envelope and headers.
func expectAdd(t *testing.T, wantBody ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if got := r.Header.Get("SOAPAction"); got != `"http://example.com/calc/Add"` {
			t.Errorf("SOAPAction = %q", got)
		}
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/xml") {
			t.Errorf("backend Content-Type = %q", ct)
		}
		if a := r.Header.Get("Accept"); a != "text/xml, multipart/related, application/xop+xml" {
			t.Errorf("backend Accept = %q", a)
		}
		for _, s := range wantBody {
			if !strings.Contains(string(b), s) {
				t.Errorf("backend request lacks %s:\n%s", s, b)
			}
		}
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		io.WriteString(w, envelope11(addOK))
	}
}

func TestPublish(t *testing.T) {
	refusedURL := "http://" + loopback.FreeAddr(t) + "/calc"

	tests := []struct {
		name       string
		edit       func(*routing.Source)
		backend    func(t *testing.T) http.HandlerFunc
		method     string
		path       string
		ct         string
		body       string
		header     []string
		wantStatus int
		wantCode   string
		wantBody   string // exact, for successes
		wantResult string
		inBody     bool
		check      func(t *testing.T, res publishResult, rec *model.TxRecord)
	}{
		{name: "add exact decimals", method: "POST", path: "/publish/dev/calc/add", ct: "application/json",
			body: `{"b": 2.000000000000000001, "a": 12345678901234567890.1}`,
			backend: func(t *testing.T) http.HandlerFunc {
				return expectAdd(t, "<ns1:a>12345678901234567890.1</ns1:a><ns1:b>2.000000000000000001</ns1:b>")
			},
			wantStatus: 200, wantBody: `{"result":12345678901234567890.123456789012}`, wantResult: model.ResultSuccess},
		{name: "duplicated prefix", method: "POST", path: "/publish/dev/calc/dev/calc/add", ct: "application/json", body: `{"a":1,"b":2}`,
			backend: func(t *testing.T) http.HandlerFunc { return expectAdd(t) }, wantStatus: 200, wantResult: model.ResultSuccess},
		{name: "rest path and query typed", method: "GET", path: "/publish/dev/calc/codes/US?limit=5&verbose=true&other=x",
			backend: func(t *testing.T) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					b, _ := io.ReadAll(r.Body)
					if !strings.Contains(string(b), "<ns1:code>US</ns1:code><ns1:limit>5</ns1:limit><ns1:verbose>true</ns1:verbose>") {
						t.Errorf("backend request:\n%s", b)
					}
					answer(200, "text/xml", envelope11(`<LookupResponse xmlns="http://example.com/calc"><id>9223372036854775807</id>`+
						`<name>Ünïcode &amp; co</name><tags>one</tags><total>0.10</total></LookupResponse>`))(w, r)
				}
			},
			wantStatus: 200, wantBody: `{"id":9223372036854775807,"name":"Ünïcode & co","tags":["one"],"total":0.10}`, wantResult: model.ResultSuccess},
		{name: "soap 1.2", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1,"b":2}`,
			edit: func(s *routing.Source) { s.Operations[0].SOAPVersion = "1.2" },
			backend: func(t *testing.T) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					b, _ := io.ReadAll(r.Body)
					ct := r.Header.Get("Content-Type")
					if !strings.HasPrefix(ct, "application/soap+xml") || !strings.Contains(ct, `action="http://example.com/calc/Add"`) ||
						r.Header.Get("SOAPAction") != "" || !strings.Contains(string(b), "http://www.w3.org/2003/05/soap-envelope") ||
						r.Header.Get("Accept") != "application/soap+xml, multipart/related, application/xop+xml" {
						t.Errorf("SOAP 1.2 request: Content-Type %q SOAPAction %q\n%s", ct, r.Header.Get("SOAPAction"), b)
					}
					answer(200, "application/soap+xml", envelope12(addOK))(w, r)
				}
			},
			wantStatus: 200, wantBody: `{"result":12345678901234567890.123456789012}`, wantResult: model.ResultSuccess},
		{name: "soap 1.2 fault", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1,"b":2}`,
			edit: func(s *routing.Source) { s.Operations[0].SOAPVersion = "1.2" },
			backend: func(t *testing.T) http.HandlerFunc {
				return answer(400, "application/soap+xml", envelope12(`<e:Fault><e:Code><e:Value>e:Sender</e:Value><e:Subcode><e:Value>x:Auth</e:Value></e:Subcode></e:Code>`+
					`<e:Reason><e:Text xml:lang="en">no</e:Text></e:Reason></e:Fault>`))
			},
			wantStatus: 502, wantCode: "S2R-RUN-0502", wantResult: model.ResultBackendFailure,
			check: func(t *testing.T, res publishResult, _ *model.TxRecord) {
				if d := res.err.Error.Details; len(d) != 2 || d["faultCode"] != "Sender" || fmt.Sprint(d["faultSubcodes"]) != "[Auth]" {
					t.Errorf("safe details = %s", res.body)
				}
			}},
		{name: "manual mapping renames", method: "GET", path: "/publish/dev/calc/codes/US?max=3",
			edit: func(s *routing.Source) {
				s.Mappings = map[string]model.Mapping{"op-lookup": {
					RequestMapping:  []byte(`{"mode":"identity","rename":{"limit":"max"}}`),
					ResponseMapping: []byte(`{"mode":"identity","rename":{"id":"identifier"},"omit":["total"]}`)}}
			},
			backend: func(t *testing.T) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					b, _ := io.ReadAll(r.Body)
					if !strings.Contains(string(b), "<ns1:code>US</ns1:code><ns1:limit>3</ns1:limit>") {
						t.Errorf("backend request:\n%s", b)
					}
					answer(200, "text/xml", envelope11(`<LookupResponse xmlns="http://example.com/calc"><id>7</id>`+
						`<name>n</name><total>1.5</total></LookupResponse>`))(w, r)
				}
			},
			wantStatus: 200, wantBody: `{"identifier":7,"name":"n","tags":[]}`, wantResult: model.ResultSuccess},
		{name: "invalid JSON", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1,`,
			wantStatus: 400, wantCode: "S2R-VAL-0400", wantResult: model.ResultFailed},
		{name: "trailing garbage", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1,"b":2} x`,
			wantStatus: 400, wantCode: "S2R-VAL-0400", wantResult: model.ResultFailed},
		{name: "two values", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1,"b":2}{}`,
			wantStatus: 400, wantCode: "S2R-VAL-0400", wantResult: model.ResultFailed},
		{name: "invalid JSON with transforms", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":`,
			edit: func(s *routing.Source) {
				s.Operations[0].TransformRules = []transform.Rule{{Kind: transform.KindTrim, Field: "/a"}}
			},
			wantStatus: 400, wantCode: "S2R-VAL-0400", wantResult: model.ResultFailed},
		{name: "wrong content type", method: "POST", path: "/publish/dev/calc/add", ct: "text/plain", body: `{"a":1,"b":2}`,
			wantStatus: 400, wantCode: "S2R-VAL-0400", wantResult: model.ResultFailed},
		{name: "schema violation", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":"x","c":1}`,
			wantStatus: 400, wantCode: "S2R-VAL-0410", wantResult: model.ResultFailed,
			check: func(t *testing.T, res publishResult, _ *model.TxRecord) {
				for _, p := range []string{`"pointer":"/a"`, `"pointer":""`} {
					if !strings.Contains(string(res.body), p) {
						t.Errorf("details lack %s: %s", p, res.body)
					}
				}
			}},
		{name: "regex violation", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1.5,"b":2}`,
			edit: func(s *routing.Source) {
				s.Operations[0].ValidationRules = []model.ValidationRule{{Field: "/a", Pattern: `^\d+$`, Target: model.TargetRequest}}
			},
			wantStatus: 400, wantCode: "S2R-VAL-0411", wantResult: model.ResultFailed,
			check: func(t *testing.T, res publishResult, _ *model.TxRecord) {
				if !strings.Contains(string(res.body), `"pointer":"/a"`) {
					t.Errorf("details: %s", res.body)
				}
			}},
		{name: "request too large", method: "POST", path: "/publish/dev/calc/add", ct: "application/json",
			body: `{"a":"` + strings.Repeat("1", 1<<20) + `"}`, wantStatus: 413, wantCode: "S2R-RUN-0413", wantResult: model.ResultFailed},
		{name: "response too large", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1,"b":2}`,
			backend: func(t *testing.T) http.HandlerFunc {
				return answer(200, "text/xml", envelope11(`<AddResponse xmlns="http://example.com/calc"><result>1`+strings.Repeat("0", 1<<20)+`</result></AddResponse>`))
			},
			wantStatus: 413, wantCode: "S2R-RUN-0413", wantResult: model.ResultBackendFailure},
		{name: "backend refuses connections", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1,"b":2}`,
			edit:       func(s *routing.Source) { s.Backends[0].Profile.EndpointURL = refusedURL },
			wantStatus: 502, wantCode: "S2R-RUN-0502", wantResult: model.ResultBackendFailure},
		{name: "backend hangs", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1,"b":2}`,
			backend: func(t *testing.T) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					select {
					case <-r.Context().Done():
					case <-time.After(time.Second):
					}
				}
			},
			wantStatus: 504, wantCode: "S2R-RUN-0424", wantResult: model.ResultTimeout},
		{name: "backend answers HTML with 500", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1,"b":2}`,
			backend:    func(t *testing.T) http.HandlerFunc { return answer(500, "text/html", "<html><body>Oops</body></html>") },
			wantStatus: 502, wantCode: "S2R-RUN-0502", wantResult: model.ResultBackendFailure},
		{name: "backend answers malformed XML", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1,"b":2}`,
			backend: func(t *testing.T) http.HandlerFunc {
				return answer(200, "text/xml", envelope11(`<AddResponse xmlns="http://example.com/calc"><result>1</resul></AddResponse>`))
			},
			wantStatus: 502, wantCode: "S2R-RUN-0504", wantResult: model.ResultBackendFailure},
		{name: "fault in HTTP 200 safe", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1,"b":2}`,
			backend: func(t *testing.T) http.HandlerFunc {
				return answer(200, "text/xml", envelope11(`<soap:Fault><faultcode>soap:Client</faultcode><faultstring>secret internals</faultstring><detail><e>x</e></detail></soap:Fault>`))
			},
			wantStatus: 502, wantCode: "S2R-RUN-0502", wantResult: model.ResultBackendFailure, inBody: true,
			check: func(t *testing.T, res publishResult, _ *model.TxRecord) {
				if d := res.err.Error.Details; len(d) != 1 || d["faultCode"] != "Sender" || strings.Contains(string(res.body), "secret") {
					t.Errorf("safe details = %s", res.body)
				}
			}},
		{name: "fault in HTTP 500 full", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1,"b":2}`,
			edit: func(s *routing.Source) { s.Service.FaultDetailExposureMode = model.FaultDetailFull },
			backend: func(t *testing.T) http.HandlerFunc {
				return answer(500, "text/xml", envelope11(`<soap:Fault><faultcode>soap:Server</faultcode><faultstring>db down</faultstring><detail><e>x</e></detail></soap:Fault>`))
			},
			wantStatus: 502, wantCode: "S2R-RUN-0502", wantResult: model.ResultBackendFailure,
			check: func(t *testing.T, res publishResult, _ *model.TxRecord) {
				d := res.err.Error.Details
				if d["faultCode"] != "Receiver" || d["faultString"] != "db down" || d["detail"] == nil {
					t.Errorf("full details = %s", res.body)
				}
			}},
		{name: "fault full with pick", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1,"b":2}`,
			edit: func(s *routing.Source) {
				s.Service.FaultDetailExposureMode = model.FaultDetailFull
				s.Mappings = map[string]model.Mapping{"op-add": {FaultMapping: []byte(`{"mode":"identity","pick":["detail/e/code"]}`)}}
			},
			backend: func(t *testing.T) http.HandlerFunc {
				return answer(500, "text/xml", envelope11(`<soap:Fault><faultcode>soap:Server</faultcode><faultstring>db down</faultstring>`+
					`<detail><e><code>42</code><stack>secret</stack></e></detail></soap:Fault>`))
			},
			wantStatus: 502, wantCode: "S2R-RUN-0502", wantResult: model.ResultBackendFailure,
			check: func(t *testing.T, res publishResult, _ *model.TxRecord) {
				if strings.Contains(string(res.body), "secret") || !strings.Contains(string(res.body), `"detail":{"e":{"code":"42"}}`) {
					t.Errorf("picked details = %s", res.body)
				}
			}},
		{name: "fault full with rename and omit", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1,"b":2}`,
			edit: func(s *routing.Source) {
				s.Service.FaultDetailExposureMode = model.FaultDetailFull
				s.Mappings = map[string]model.Mapping{"op-add": {FaultMapping: []byte(`{"mode":"identity","rename":{"e/code":"errorCode"},"omit":["e/stack"]}`)}}
			},
			backend: func(t *testing.T) http.HandlerFunc {
				return answer(500, "text/xml", envelope11(`<soap:Fault><faultcode>soap:Server</faultcode><faultstring>db down</faultstring>`+
					`<detail><e><code>42</code><stack>secret</stack></e></detail></soap:Fault>`))
			},
			wantStatus: 502, wantCode: "S2R-RUN-0502", wantResult: model.ResultBackendFailure,
			check: func(t *testing.T, res publishResult, _ *model.TxRecord) {
				if strings.Contains(string(res.body), "secret") || !strings.Contains(string(res.body), `"detail":{"e":{"errorCode":"42"}}`) {
					t.Errorf("renamed details = %s", res.body)
				}
			}},
		{name: "body breaks the contract", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1,"b":2}`,
			backend: func(t *testing.T) http.HandlerFunc {
				return answer(200, "text/xml", envelope11(`<AddResponse xmlns="http://example.com/calc"><total>1</total></AddResponse>`))
			},
			wantStatus: 502, wantCode: "S2R-RUN-0506", wantResult: model.ResultBackendFailure},
		{name: "request facet", method: "POST", path: "/publish/dev/calc/status", ct: "application/json", body: `{"state":"BAD"}`,
			wantStatus: 400, wantCode: "S2R-VAL-0410", wantResult: model.ResultFailed,
			check: func(t *testing.T, res publishResult, _ *model.TxRecord) {
				if !strings.Contains(string(res.body), `"pointer":"/state"`) {
					t.Errorf("details: %s", res.body)
				}
			}},
		{name: "response schema", method: "POST", path: "/publish/dev/calc/status", ct: "application/json", body: `{"state":"OPEN"}`,
			backend: func(t *testing.T) http.HandlerFunc {
				return answer(200, "text/xml", envelope11(`<StatusResponse xmlns="http://example.com/calc"><state>WEIRD</state></StatusResponse>`))
			},
			wantStatus: 502, wantCode: "S2R-VAL-0430", wantResult: model.ResultResponseSchemaViolation},
		{name: "status ok", method: "POST", path: "/publish/dev/calc/status", ct: "application/json", body: `{"state":"OPEN"}`,
			backend: func(t *testing.T) http.HandlerFunc {
				return answer(200, "text/xml", envelope11(`<StatusResponse xmlns="http://example.com/calc"><state>CLOSED</state></StatusResponse>`))
			},
			wantStatus: 200, wantBody: `{"state":"CLOSED"}`, wantResult: model.ResultSuccess},
		{name: "response regex", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1,"b":2}`,
			edit: func(s *routing.Source) {
				s.Operations[0].ValidationRules = []model.ValidationRule{{Field: "/result", Pattern: `^\d{1,3}$`, Target: model.TargetResponse}}
			},
			backend:    func(t *testing.T) http.HandlerFunc { return expectAdd(t) },
			wantStatus: 502, wantCode: "S2R-VAL-0431", wantResult: model.ResultResponseSchemaViolation},
		{name: "method not allowed", method: "DELETE", path: "/publish/dev/calc/codes/US",
			wantStatus: 405, wantCode: "S2R-RUN-0411", wantResult: model.ResultFailed,
			check: func(t *testing.T, res publishResult, _ *model.TxRecord) {
				if got := res.header.Get("Allow"); got != "GET" {
					t.Errorf("Allow = %q, want GET", got)
				}
				if !strings.Contains(res.err.Error.Message, `service "calc": use GET`) {
					t.Errorf("message = %q", res.err.Error.Message)
				}
			}},
		{name: "unknown operation", method: "POST", path: "/publish/dev/calc/nope", ct: "application/json", body: `{}`,
			wantStatus: 404, wantCode: "S2R-RUN-0404", wantResult: model.ResultFailed,
			check: func(t *testing.T, res publishResult, _ *model.TxRecord) {
				msg := res.err.Error.Message
				if !strings.HasPrefix(msg, `service "calc" in environment "dev" has no operation for POST /nope; its operations: POST /publish/dev/calc/add, `) {
					t.Errorf("message = %q", msg)
				}
				if ops, _ := res.err.Error.Details["operations"].([]any); len(ops) == 0 || ops[0] != "POST /publish/dev/calc/add" {
					t.Errorf("operations detail = %v", res.err.Error.Details["operations"])
				}
			}},
		{name: "unknown service", method: "POST", path: "/publish/dev/other/add", ct: "application/json", body: `{}`,
			wantStatus: 404, wantCode: "S2R-RUN-0404", wantResult: model.ResultFailed},
		// As /publish/calc/add (environment segment missing) would read.
		{name: "no such service", method: "POST", path: "/publish/dev/add", ct: "application/json", body: `{}`,
			wantStatus: 404, wantCode: "S2R-RUN-0404", wantResult: model.ResultFailed,
			check: func(t *testing.T, res publishResult, _ *model.TxRecord) {
				want := `no active publish service "add" in environment "dev": publish URLs are /publish/{environment}/{serviceKey}/{operation}`
				if res.err.Error.Message != want {
					t.Errorf("message = %q, want %q", res.err.Error.Message, want)
				}
			}},
		{name: "no backend", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1,"b":2}`,
			edit:       func(s *routing.Source) { s.Backends = nil },
			wantStatus: 503, wantCode: "S2R-RUN-0503", wantResult: model.ResultError},
		{name: "debug captures payloads", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1,"b":2}`,
			header:  []string{"X-Debug-Enabled", "true"},
			backend: func(t *testing.T) http.HandlerFunc { return expectAdd(t) }, wantStatus: 200, wantResult: model.ResultSuccess,
			check: func(t *testing.T, _ publishResult, rec *model.TxRecord) {
				if !rec.Debug || string(rec.RequestPayload) != `{"a":1,"b":2}` || !strings.Contains(string(rec.BackendRequest), "<ns1:a>1</ns1:a>") ||
					!strings.Contains(string(rec.BackendResponse), "AddResponse") || !strings.Contains(string(rec.ResponsePayload), "result") {
					t.Errorf("debug record = %+v", rec)
				}
			}},
		{name: "envelope wrap", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1,"b":2}`,
			edit: func(s *routing.Source) {
				s.Service.EnvelopeWrapOverride = []byte(`{"dataField":"data","include":{"correlationId":true,"operationKey":true}}`)
			},
			backend:    func(t *testing.T) http.HandlerFunc { return expectAdd(t) },
			wantStatus: 200, wantResult: model.ResultSuccess,
			wantBody: `{"data":{"result":12345678901234567890.123456789012},"correlationId":"cid-envelope-wrap","operationKey":"add"}`},
		{name: "error shape", method: "POST", path: "/publish/dev/calc/add", ct: "application/json", body: `{"a":1,`,
			edit: func(s *routing.Source) {
				s.Service.ErrorShapeOverride = []byte(`{"ok":false,"err":{"text":"${code} (${status}): ${message}","id":"${correlationId}","d":"${details}"}}`)
			},
			wantStatus: 400, wantResult: model.ResultFailed,
			check: func(t *testing.T, res publishResult, _ *model.TxRecord) {
				if !strings.HasPrefix(string(res.body), `{"ok":false,"err":{"text":"S2R-VAL-0400 (400): the request body is not valid JSON`) ||
					!strings.Contains(string(res.body), `"id":"cid-error-shape","d":{}}}`) {
					t.Errorf("shaped error = %s", res.body)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newPublishEnv(t, tt.edit)
			if tt.backend != nil {
				env.backend.set(tt.backend(t))
			}
			cid := "cid-" + strings.ReplaceAll(tt.name, " ", "-")
			res := env.call(t, tt.method, tt.path, tt.ct, tt.body, cid, tt.header...)
			if res.status != tt.wantStatus {
				t.Fatalf("status = %d, want %d: %s", res.status, tt.wantStatus, res.body)
			}
			if tt.wantCode != "" && (res.err.Error.Code != tt.wantCode || res.err.Error.CorrelationID != cid) {
				t.Errorf("error = %s, want code %s and correlation id %s", res.body, tt.wantCode, cid)
			}
			if tt.wantBody != "" && string(res.body) != tt.wantBody {
				t.Errorf("body = %s\nwant   %s", res.body, tt.wantBody)
			}
			recs := env.log.byCID(cid)
			if len(recs) != 1 {
				t.Fatalf("%d records for %s, want 1", len(recs), cid)
			}
			rec := recs[0]
			if rec.HTTPStatus != tt.wantStatus || rec.ResultCode != tt.wantResult || rec.InBodyFault != tt.inBody ||
				rec.Direction != model.DirectionPublish || rec.Environment != "dev" || rec.Method != tt.method {
				t.Errorf("record = %+v", rec)
			}
			if tt.wantCode != "" && rec.ErrorCode != tt.wantCode {
				t.Errorf("record error code = %s, want %s", rec.ErrorCode, tt.wantCode)
			}
			if !rec.Debug && (rec.RequestPayload != nil || rec.BackendRequest != nil || rec.ResponsePayload != nil) {
				t.Errorf("payloads recorded without debug: %+v", rec)
			}
			if tt.check != nil {
				tt.check(t, res, rec)
			}
		})
	}
}

// TestPublishStreamedTooLarge: a body without Content-Length that grows
// past the limit while being read is 413 and recorded.
func TestPublishStreamedTooLarge(t *testing.T) {
	env := newPublishEnv(t, nil)
	body := io.MultiReader(strings.NewReader(`{"a":"`), strings.NewReader(strings.Repeat("1", 1<<20)), strings.NewReader(`"}`))
	req, _ := http.NewRequest("POST", env.srv.URL+"/publish/dev/calc/add", body)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Correlation-Id", "cid-streamed")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 413 || !strings.Contains(string(b), `"maxPayloadMb":1`) {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	recs := env.log.byCID("cid-streamed")
	if len(recs) != 1 || recs[0].HTTPStatus != 413 || recs[0].ResultCode != model.ResultFailed || recs[0].OperationKey != "add" {
		t.Errorf("records = %+v", recs)
	}
}

// TestPublishConcurrent: concurrent calls with different bodies each get
// their own answer (pooled buffers are never shared between calls).
func TestPublishConcurrent(t *testing.T) {
	env := newPublishEnv(t, nil)
	env.backend.set(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/xml")
		w.Write(echoAnswer(b))
	})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				body := fmt.Sprintf(`{"items":[{"sku":"g%d-i%d","qty":%d,"price":%d.5}]}`, g, i, i, g)
				res := env.call(t, "POST", "/publish/dev/calc/echo", "application/json", body, fmt.Sprintf("cid-%d-%d", g, i))
				if res.status != 200 || string(res.body) != body {
					t.Errorf("goroutine %d call %d: %d %s, want %s", g, i, res.status, res.body, body)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestParamValue(t *testing.T) {
	tests := []struct {
		kind   routing.ParamKind
		values []string
		want   any
	}{
		{routing.ParamString, []string{"a", "b"}, "b"},
		{routing.ParamNumber, []string{"12345678901234567890.5"}, json.Number("12345678901234567890.5")},
		{routing.ParamNumber, []string{"12abc"}, "12abc"},
		{routing.ParamNumber, []string{`"1"`}, `"1"`},
		{routing.ParamBoolean, []string{"true"}, true},
		{routing.ParamBoolean, []string{"yes"}, "yes"},
		{routing.ParamArray, []string{"x", "y"}, []any{"x", "y"}},
		{routing.ParamNumberArray, []string{"1", "-2.5", "z"}, []any{json.Number("1"), json.Number("-2.5"), "z"}},
		{routing.ParamBooleanArray, []string{"false"}, []any{false}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, paramValue(tt.kind, tt.values)); diff != "" {
			t.Errorf("paramValue(%d, %q) (-want +got):\n%s", tt.kind, tt.values, diff)
		}
	}
}
