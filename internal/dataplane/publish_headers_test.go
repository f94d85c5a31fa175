package dataplane

import (
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/wsdl"
)

// quoteSource edits the calc source into the quote service of
// testdata/headers.wsdl (soap:header parts both ways) over SOAP version.
func quoteSource(t testing.TB, version string) func(*routing.Source) {
	b, err := os.ReadFile("testdata/headers.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	defs, err := wsdl.ParseFiles(context.Background(), "headers.wsdl", map[string][]byte{"headers.wsdl": b})
	if err != nil {
		t.Fatal(err)
	}
	return func(s *routing.Source) {
		s.Contract = defs
		s.Operations = []model.Operation{{OperationID: "op-quote", OperationKey: "quote", SOAPOperationName: "Quote",
			SOAPVersion: version, SOAPAction: "urn:example:quote:Quote", RestMethod: "POST", RestPath: "/quotes/{symbol}"}}
	}
}

// recordingBackend answers body (an envelope) and keeps the requests.
type recordingBackend struct {
	mu   sync.Mutex
	seen []string
}

func (b *recordingBackend) handler(ct, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		got, _ := io.ReadAll(r.Body)
		b.mu.Lock()
		b.seen = append(b.seen, string(got))
		b.mu.Unlock()
		w.Header().Set("Content-Type", ct)
		io.WriteString(w, body)
	}
}

func (b *recordingBackend) last() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.seen) == 0 {
		return ""
	}
	return b.seen[len(b.seen)-1]
}

const (
	authBlock    = `<ns1:Auth xmlns:ns1="urn:example:quote:headers"><ns1:user>ann</ns1:user><ns1:level>3</ns1:level></ns1:Auth>`
	sessionBlock = `<ns1:Session xmlns:ns1="urn:example:quote:headers">s-1</ns1:Session>`
	quoteBody    = `<ns1:Quote><ns1:symbol>ACME</ns1:symbol></ns1:Quote>`
	// usageHeader is a response Header with a block that is not a part
	// (WS-Addressing) before the declared Usage part.
	usageHeader = `<wsa:MessageID xmlns:wsa="http://www.w3.org/2005/08/addressing" %s:mustUnderstand="1">m-1</wsa:MessageID>` +
		`<u:Usage xmlns:u="urn:example:quote:headers"><u:calls>7</u:calls></u:Usage>`
	quoteAnswer = `<q:QuoteResponse xmlns:q="urn:example:quote"><q:price>1.50</q:price></q:QuoteResponse>`
)

// TestPublishSOAPHeaders: "$headers" becomes SOAP Header blocks (SOAP 1.1
// and 1.2) and is taken out of the body wherever it sits among the
// members; declared response header parts come back as "$headers", other
// blocks are skipped.
func TestPublishSOAPHeaders(t *testing.T) {
	versions := []struct {
		version, ct, pre, ns string
	}{
		{"1.1", "text/xml; charset=utf-8", "soapenv", "http://schemas.xmlsoap.org/soap/envelope/"},
		{"1.2", "application/soap+xml; charset=utf-8", "env", "http://www.w3.org/2003/05/soap-envelope"},
	}
	hdrs := `"$headers": {"session": "s-1", "auth": {"level": 3, "user": "ann"}}`
	sym := `"symbol": "ACME"`
	calls := map[string][2]string{ // path, body
		"path parameter": {"/quotes/ACME", `{` + hdrs + `}`},
		"first":          {"/quote", `{` + hdrs + `, ` + sym + `}`},
		"last":           {"/quote", `{` + sym + `,` + hdrs + `}`},
		"spaces around":  {"/quote", "{\n  " + hdrs + " ,\n " + sym + " }"},
	}
	for _, v := range versions {
		e := newPublishEnv(t, quoteSource(t, v.version))
		be := &recordingBackend{}
		answer := `<e:Envelope xmlns:e="` + v.ns + `"><e:Header>` + strings.ReplaceAll(usageHeader, "%s", "e") +
			`</e:Header><e:Body>` + quoteAnswer + `</e:Body></e:Envelope>`
		e.backend.set(be.handler(v.ct, answer))
		for name, call := range calls {
			t.Run(v.version+" "+name, func(t *testing.T) {
				res := e.call(t, "POST", "/publish/dev/calc"+call[0], "application/json", call[1], "cid-h")
				if res.status != 200 {
					t.Fatalf("status %d: %s", res.status, res.body)
				}
				if got, want := string(res.body), `{"price":1.50,"$headers":{"usage":{"calls":7}}}`; got != want {
					t.Errorf("response = %s, want %s", got, want)
				}
				want := `<` + v.pre + `:Header>` + authBlock + sessionBlock + `</` + v.pre + `:Header><` + v.pre + `:Body>` + quoteBody
				if got := be.last(); !strings.Contains(got, want) {
					t.Errorf("backend got\n%s\nwant it to contain\n%s", got, want)
				}
			})
		}
	}
}

// TestPublishSOAPHeadersAbsent: without "$headers" no Header is sent, and
// an answer without the declared parts has no "$headers".
func TestPublishSOAPHeadersAbsent(t *testing.T) {
	e := newPublishEnv(t, quoteSource(t, "1.1"))
	be := &recordingBackend{}
	e.backend.set(be.handler("text/xml", `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header>`+
		`<wsa:To xmlns:wsa="http://www.w3.org/2005/08/addressing">x</wsa:To></s:Header><s:Body>`+quoteAnswer+`</s:Body></s:Envelope>`))
	for _, body := range []string{`{"symbol":"ACME"}`, `{"symbol":"ACME","$headers":{}}`} {
		res := e.call(t, "POST", "/publish/dev/calc/quote", "application/json", body, "cid-absent")
		if res.status != 200 || string(res.body) != `{"price":1.50}` {
			t.Fatalf("%s: %d %s", body, res.status, res.body)
		}
		if got := be.last(); strings.Contains(got, "Header") {
			t.Errorf("%s: a Header was sent: %s", body, got)
		}
	}
}

// TestPublishSOAPHeadersInvalid: "$headers" is validated like the body,
// with pointers under /$headers; an operation without header parts refuses
// it as an unknown member.
func TestPublishSOAPHeadersInvalid(t *testing.T) {
	e := newPublishEnv(t, quoteSource(t, "1.1"))
	e.backend.set(answer(200, "text/xml", envelope11(quoteAnswer)))
	calc := newPublishEnv(t, nil)
	tests := []struct {
		name, path, body string
		code             string
		want             []string // violation pointers
	}{
		{"unknown part", "/quote", `{"symbol":"A","$headers":{"nope":1}}`, "S2R-VAL-0410", []string{"/$headers"}},
		{"facet", "/quote", `{"symbol":"A","$headers":{"auth":{"user":"u","level":10}}}`, "S2R-VAL-0410", []string{"/$headers/auth/level"}},
		{"missing required", "/quote", `{"symbol":"A","$headers":{"auth":{"level":1}}}`, "S2R-VAL-0410", []string{"/$headers/auth"}},
		{"wrong type", "/quote", `{"symbol":"A","$headers":{"session":5}}`, "S2R-VAL-0410", []string{"/$headers/session"}},
		{"not an object", "/quote", `{"symbol":"A","$headers":"x"}`, "S2R-VAL-0410", []string{"/$headers"}},
		{"duplicate", "/quote", `{"$headers":{},"symbol":"A","$headers":{}}`, "S2R-VAL-0410", []string{"/$headers"}},
		{"body still checked", "/quote", `{"$headers":{"session":"s"},"sym":"A"}`, "S2R-VAL-0410", []string{"", ""}},
		{"invalid JSON", "/quote", `{"$headers":{"session":"s"},`, "S2R-VAL-0400", nil},
		{"array body", "/quote", `["$headers"]`, "S2R-VAL-0410", []string{""}},
		{"operation without headers", "calc /add", `{"a":1,"b":2,"$headers":{}}`, "S2R-VAL-0410", []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, path := e, tt.path
			if p, ok := strings.CutPrefix(path, "calc "); ok {
				env, path = calc, p
			}
			res := env.call(t, "POST", "/publish/dev/calc"+path, "application/json", tt.body, "cid-inv")
			if res.status != 400 || res.err.Error.Code != tt.code {
				t.Fatalf("answer = %d %s", res.status, res.body)
			}
			if tt.want == nil {
				return
			}
			var got []string
			vs, _ := res.err.Error.Details["violations"].([]any)
			for _, v := range vs {
				p, _ := v.(map[string]any)["pointer"].(string)
				got = append(got, p)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("violation pointers (-want +got):\n%s\n%s", diff, res.body)
			}
		})
	}
}

// TestPublishSOAPHeadersResponse: a declared response header part that
// breaks the contract is 502 S2R-RUN-0506; debug records keep the client's
// body with its "$headers".
func TestPublishSOAPHeadersResponse(t *testing.T) {
	e := newPublishEnv(t, func(s *routing.Source) {
		quoteSource(t, "1.1")(s)
		s.Service.DebugEnabled = true
	})
	bad := `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header><u:Usage xmlns:u="urn:example:quote:headers"><u:calls>many</u:calls></u:Usage></s:Header><s:Body>` +
		quoteAnswer + `</s:Body></s:Envelope>`
	e.backend.set(answer(200, "text/xml", bad))
	body := `{"symbol":"ACME","$headers":{"session":"s-1"}}`
	res := e.call(t, "POST", "/publish/dev/calc/quote", "application/json", body, "cid-resp")
	if res.status != 502 || res.err.Error.Code != "S2R-RUN-0506" || !strings.Contains(string(res.body), "/Envelope/Header/Usage/calls") {
		t.Fatalf("answer = %d %s", res.status, res.body)
	}
	recs := e.log.byCID("cid-resp")
	if len(recs) != 1 {
		t.Fatalf("%d records", len(recs))
	}
	if got := string(recs[0].RequestPayload); got != body {
		t.Errorf("debug request payload = %s, want the body as sent", got)
	}
	if got := string(recs[0].BackendRequest); !strings.Contains(got, "<soapenv:Header>"+sessionBlock+"</soapenv:Header>") {
		t.Errorf("debug backend request = %s", got)
	}
}

// TestPublishSOAPHeadersResponseDetect: under detect a response header
// part that breaks the contract is answered as far as it converts, each
// deviation noted at its XML path; under off answered the same, noted
// nowhere.
func TestPublishSOAPHeadersResponseDetect(t *testing.T) {
	bad := `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header><u:Usage xmlns:u="urn:example:quote:headers">` +
		`<u:calls>many</u:calls><u:quota>5</u:quota></u:Usage></s:Header><s:Body>` + quoteAnswer + `</s:Body></s:Envelope>`
	for _, mode := range []string{model.ValidationDetect, model.ValidationOff} {
		t.Run(mode, func(t *testing.T) {
			e := newPublishEnv(t, func(s *routing.Source) {
				quoteSource(t, "1.1")(s)
				for i := range s.Operations {
					s.Operations[i].ResponseValidation = mode
				}
			})
			e.backend.set(answer(200, "text/xml", bad))
			res := e.call(t, "POST", "/publish/dev/calc/quote", "application/json", `{"symbol":"ACME","$headers":{"session":"s-1"}}`, "cid-hd-"+mode)
			if want := `{"price":1.50,"$headers":{"usage":{"calls":null}}}`; res.status != 200 || string(res.body) != want {
				t.Fatalf("answer = %d %s, want 200 %s", res.status, res.body, want)
			}
			var want []model.ValidationIssue
			if mode == model.ValidationDetect {
				want = []model.ValidationIssue{
					{Pointer: "/Envelope/Header/Usage/calls", Reason: `invalid xs:long value "many"`},
					{Pointer: "/Envelope/Header/Usage/quota", Reason: "unknown element {urn:example:quote:headers}quota"},
				}
			}
			if diff := cmp.Diff(want, e.log.byCID("cid-hd-" + mode)[0].ValidationIssues); diff != "" {
				t.Errorf("validation issues (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHeadersSpan: the blanked body is the body without the member (white
// space aside), of the same length.
func TestHeadersSpan(t *testing.T) {
	tests := []struct{ in, out, val string }{
		{`{"$headers":{"a":1}}`, `{}`, `{"a":1}`},
		{`{"$headers":{},"b":2}`, `{"b":2}`, `{}`},
		{`{"a":1,"$headers":[],"b":2}`, `{"a":1,"b":2}`, `[]`},
		{`{"a":1, "$headers" : null }`, `{"a":1}`, `null`},
		{`{"a":{"$headers":1}}`, `{"a":{"$headers":1}}`, ``},
		{`{"\u0024headers":1}`, `{"\u0024headers":1}`, ``},
		{`[{"$headers":1}]`, `[{"$headers":1}]`, ``},
	}
	for _, tt := range tests {
		cut, val, err := headersSpan([]byte(tt.in))
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if string(val) != tt.val {
			t.Errorf("%s: value %q, want %q", tt.in, val, tt.val)
		}
		out := []byte(tt.in)
		if val != nil {
			for i := cut[0]; i < cut[1]; i++ {
				out[i] = ' '
			}
		}
		if got := strings.ReplaceAll(string(out), " ", ""); got != tt.out || len(out) != len(tt.in) {
			t.Errorf("%s: blanked %q, want %q", tt.in, out, tt.out)
		}
	}
	for _, bad := range []string{`{"$headers":{}`, `{"$headers":{},"$headers":1}`, `{"$headers" 1}`} {
		if _, _, err := headersSpan([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestAppendMember(t *testing.T) {
	for in, want := range map[string]string{
		`{}`:       `{"$headers":{"a":1}}`,
		`{"p":1}`:  `{"p":1,"$headers":{"a":1}}`,
		`{"p":1} `: `{"p":1,"$headers":{"a":1}}`,
	} {
		if got := string(appendMember([]byte(in), headersName, []byte(`{"a":1}`))); got != want {
			t.Errorf("appendMember(%s) = %s, want %s", in, got, want)
		}
	}
}
