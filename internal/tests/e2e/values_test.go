package e2e

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// TestValuesAndValidation checks exact values at the edges (unsignedLong
// and decimal digits kept, XML escapes and CDATA, non-ASCII), JSON
// validation answers, autopilot input validation, and consume answers for
// a REST backend that misbehaves.
func TestValuesAndValidation(t *testing.T) {
	corpusDir(t)
	forEachBackend(t, func(t *testing.T, s *server) {
		be := newSOAPBackend(t)
		s.onboard(t, corpusFile(t, postmanDir+"numberConvertion.wsdl"), nil, "num", "", be.srv.URL+"/n")
		be.answer11("NumberToWords", `<m:NumberToWordsResponse xmlns:m="http://www.dataaccess.com/webservicesserver/"><NumberToWordsResult>a &lt;b&gt; &amp; "c" <![CDATA[<d>]]> é😀</NumberToWordsResult></m:NumberToWordsResponse>`)
		be.answer11("NumberToDollars", `<m:NumberToDollarsResponse xmlns:m="http://www.dataaccess.com/webservicesserver/"><NumberToDollarsResult>12345678901234567890.123456789</NumberToDollarsResult></m:NumberToDollarsResponse>`)

		wantJSON(t, s.settledCall(t, "num", "number-to-words", `{"ubiNum": 18446744073709551615}`).WantStatus(t, 200), `{"NumberToWordsResult":"a <b> & \"c\" <d> é😀"}`)
		if got, _ := be.request("NumberToWords"); !strings.Contains(got, "<ubiNum>18446744073709551615</ubiNum>") {
			t.Errorf("backend got %s", got)
		}
		r := s.publishCall(t, "num", "number-to-dollars", `{"dNum": 12345678901234567890.123456789}`).WantStatus(t, 200)
		if string(r.Body) != `{"NumberToDollarsResult":"12345678901234567890.123456789"}` {
			t.Errorf("dollars: %s", r.Body)
		}
		if got, _ := be.request("NumberToDollars"); !strings.Contains(got, "<dNum>12345678901234567890.123456789</dNum>") {
			t.Errorf("backend got %s", got)
		}
		for _, body := range []string{
			`{"ubiNum": 18446744073709551616}`, `{"ubiNum": -1}`, `{"ubiNum": 1.5}`, `{"ubiNum": "12"}`,
			`{"ubiNum": null}`, `{"ubiNum": 1, "ubiNum": 2}`,
		} {
			if r := s.publishCall(t, "num", "number-to-words", body); r.Status != 400 || r.Code() != "S2R-VAL-0410" {
				t.Errorf("%s: %d %s", body, r.Status, r.Body)
			}
		}

		// Autopilot input mistakes are 400s naming the field; a second
		// service with the same key is a 409.
		wsdl := corpusFile(t, postmanDir+"numberConvertion.wsdl")
		for _, c := range []struct {
			body   map[string]any
			status int
			field  string
		}{
			{map[string]any{"xml": wsdl, "environment": "dev", "serviceKey": "num"}, 409, "serviceKey"},
			{map[string]any{"xml": wsdl, "environment": "dev", "serviceKey": "Bad Key!"}, 400, "serviceKey"},
			{map[string]any{"xml": wsdl, "environment": "dev", "direction": "sideways"}, 400, "direction"},
			{map[string]any{"xml": wsdl, "environment": ""}, 400, "environment"},
			{map[string]any{"xml": wsdl, "environment": "dev", "serviceKey": "y", "backendUrl": "ftp://x"}, 400, "backendUrl"},
		} {
			r := s.admin(t, "POST", "/wsdl/import-xml:autopilot", c.body)
			if r.Status != c.status || admintest.Dig(r.JSON(t), "error", "details", "field") != c.field {
				t.Errorf("autopilot %v: %d %.400s", c.field, r.Status, r.Body)
			}
		}
		// An entity-expansion DOCTYPE is refused as malformed.
		r = s.admin(t, "POST", "/wsdl/import-xml:autopilot", map[string]any{"environment": "dev",
			"xml": `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><definitions>&b;</definitions>`})
		if r.Status != 400 || r.Code() != "S2R-VAL-0400" {
			t.Errorf("DOCTYPE: %d %s", r.Status, r.Body)
		}

		// Consume over a REST backend that misbehaves: every answer is a
		// SOAP Fault naming the problem.
		rest := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			switch {
			case strings.HasSuffix(r.URL.Path, "/subtract"):
				w.WriteHeader(404)
				_, _ = io.WriteString(w, `{"message":"nope"}`)
			case strings.HasSuffix(r.URL.Path, "/multiply"):
				_, _ = io.WriteString(w, `{"MultiplyResult": "x"}`)
			default:
				_, _ = io.WriteString(w, `{"AddResult": 3, "extra": true}`)
			}
		}))
		t.Cleanup(rest.Close)
		s.onboard(t, corpusFile(t, postmanDir+"calculator-soap11and12.wsdl"), nil, "ccalc", "consume", rest.URL+"/api")
		call := func(action, op string) resp {
			return s.soapPost(t, "/consume/dev/ccalc", "text/xml; charset=utf-8", `"http://tempuri.org/`+action+`"`,
				envelope11(`<t:`+op+` xmlns:t="http://tempuri.org/"><intA>1</intA><intB>2</intB></t:`+op+`>`))
		}
		var res resp
		poll.UntilOK(t, settle, "consume route", func() string {
			if res = call("Subtract", "Subtract"); strings.Contains(string(res.Body), "no active consume service") {
				return string(res.Body)
			}
			return ""
		})
		for _, c := range []struct {
			res  resp
			want []string
		}{
			{res, []string{"<faultcode>soap:Server</faultcode>", "<s2r:code>S2R-RUN-0502</s2r:code>", `<s2r:detail name="backendStatus">404</s2r:detail>`}},
			{call("Multiply", "Multiply"), []string{"<s2r:code>S2R-RUN-0506</s2r:code>", `<s2r:detail name="path">/MultiplyResult</s2r:detail>`}},
			{call("Add", "Add"), []string{"<s2r:code>S2R-RUN-0506</s2r:code>", `<s2r:detail name="path">/extra</s2r:detail>`}},
			{call("Nope", "Nope"), []string{"<faultcode>soap:Client</faultcode>", "<s2r:code>S2R-RUN-0404</s2r:code>"}},
		} {
			for _, w := range c.want {
				if c.res.Status != 500 || !strings.Contains(string(c.res.Body), w) {
					t.Errorf("consume answer lacks %s: %d %s", w, c.res.Status, c.res.Body)
				}
			}
		}
	})
}

// TestSchemaReasonNumbers: a JSON Schema violation on a large integer
// names the value as received and the bound exactly (the reason once
// showed the same rounded float twice); the bound itself passes.
func TestSchemaReasonNumbers(t *testing.T) {
	corpusDir(t)
	s := startServer(t, nil)
	be := newSOAPBackend(t)
	s.onboard(t, corpusFile(t, postmanDir+"numberConvertion.wsdl"), nil, "num", "", be.srv.URL+"/n")
	be.answer11("NumberToWords", `<m:NumberToWordsResponse xmlns:m="http://www.dataaccess.com/webservicesserver/"><NumberToWordsResult>x</NumberToWordsResult></m:NumberToWordsResponse>`)
	s.settledCall(t, "num", "number-to-words", `{"ubiNum": 18446744073709551615}`).WantStatus(t, 200)
	for body, want := range map[string]string{
		`{"ubiNum": 18446744073709551616}`: "18446744073709551616 > maximum 18446744073709551615",
		`{"ubiNum": -1}`:                   "-1 < minimum 0",
		`{"ubiNum": 1e-1000001}`:           "number 1e-1000001: an exponent beyond ±1000 is not supported",
	} {
		r := s.publishCall(t, "num", "number-to-words", body).WantStatus(t, 400)
		var e struct {
			Error struct {
				Details struct {
					Violations []struct{ Pointer, Reason string }
				}
			}
		}
		if err := json.Unmarshal(r.Body, &e); err != nil || r.Code() != "S2R-VAL-0410" ||
			len(e.Error.Details.Violations) != 1 || e.Error.Details.Violations[0].Reason != want || e.Error.Details.Violations[0].Pointer != "/ubiNum" {
			t.Errorf("%s: %s, want one violation at /ubiNum: %s", body, r.Body, want)
		}
	}
}

// TestChoiceAndRPCEncoded: an xs:choice wrapper is a bare message (its JSON
// is keyed by the part name, WS-I wrapped needs a sequence); exactly one
// branch is accepted. rpc/encoded over SOAP 1.2 sends xsi:type on every
// part and reads the answer back.
func TestChoiceAndRPCEncoded(t *testing.T) {
	corpusDir(t)
	forEachBackend(t, func(t *testing.T, s *server) {
		be := newSOAPBackend(t)
		s.onboard(t, corpusFile(t, postmanDir+"CalculatorChoice.wsdl"), nil, "choice", "", be.srv.URL+"/c")
		be.answer11("Add", `<t:AddResponse xmlns:t="http://tempuri.org/"><AddResult>1</AddResult></t:AddResponse>`)
		wantJSON(t, s.settledCall(t, "choice", "add", `{"parameters":{"intB": 2}}`).WantStatus(t, 200), `{"AddResult":1}`)
		if got, _ := be.request("Add"); !strings.Contains(got, "<ns1:Add><intB>2</intB></ns1:Add>") {
			t.Errorf("backend got %s", got)
		}
		for _, b := range []string{`{"parameters":{"intA": 1, "intB": 2}}`, `{"parameters":{}}`, `{"intA": 1}`} {
			if r := s.publishCall(t, "choice", "add", b); r.Status != 400 || r.Code() != "S2R-VAL-0410" {
				t.Errorf("%s: %d %s", b, r.Status, r.Body)
			}
		}

		s.onboard(t, corpusFile(t, "vpulim+node-soap/test/wsdl/rpcexample.wsdl"), nil, "rpcenc", "", be.srv.URL+"/r")
		be.answer12("getKey", `<r:getKeyResponse xmlns:r="urn:RpcExample"><base64EncodedVariantResult>aGVsbG8=</base64EncodedVariantResult></r:getKeyResponse>`)
		wantJSON(t, s.settledCall(t, "rpcenc", "get-key", `{"params": {"module": "m", "key": "k"}}`).WantStatus(t, 200), `{"base64EncodedVariantResult":"aGVsbG8="}`)
		got, h := be.request("getKey")
		if !strings.Contains(got, `<params xsi:type="ns1:getKeyParams"><module xsi:type="xsd:string">m</module><key xsi:type="xsd:string">k</key></params>`) ||
			!strings.HasPrefix(h.Get("Content-Type"), "application/soap+xml") {
			t.Errorf("backend got %s (%s)", got, h.Get("Content-Type"))
		}
	})
}

// TestHeaderPartsAndConcurrency: parts a binding places in soap:header are
// not sent in the SOAP Body (soap:body without parts); the operation is
// onboarded with a warning because its response header part is declared
// by type (its element name is a convention); 64 concurrent calls each get
// their own answer.
func TestHeaderPartsAndConcurrency(t *testing.T) {
	corpusDir(t)
	forEachBackend(t, func(t *testing.T, s *server) {
		be := newSOAPBackend(t)
		hdr := s.onboard(t, corpusFile(t, "mvantellingen+python-zeep/tests/wsdl_files/soap_header.wsdl"), nil, "hdr", "", be.srv.URL+"/h")
		// OptionalResponseHeader's part is type="xsd:string": SOAP_HEADERS.
		if hdr.readiness != "READY_WITH_RISK" {
			t.Errorf("readiness of an operation with a typed SOAP header part: %s, want READY_WITH_RISK", hdr.readiness)
		}
		be.answer11("TradePriceRequest", `<q:TradePrice xmlns:q="http://example.com/stockquote.xsd"><price>1.5</price></q:TradePrice>`)
		wantJSON(t, s.settledCall(t, "hdr", "get-last-trade-price", `{"body":{"tickerSymbol":"ACME"}}`).WantStatus(t, 200), `{"price":1.5}`)
		if got, _ := be.request("TradePriceRequest"); strings.Contains(got, "Authentication") || strings.Contains(got, "Token") {
			t.Errorf("header parts sent in the Body: %s", got)
		}

		rest := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			a := strings.SplitN(strings.SplitN(string(b), "<intA>", 2)[1], "<", 2)[0]
			w.Header().Set("Content-Type", "text/xml; charset=utf-8")
			_, _ = io.WriteString(w, envelope11(`<t:AddResponse xmlns:t="http://tempuri.org/"><AddResult>`+a+`</AddResult></t:AddResponse>`))
		}))
		t.Cleanup(rest.Close)
		s.onboard(t, corpusFile(t, postmanDir+"calculator-soap11and12.wsdl"), nil, "echo", "", rest.URL+"/e")
		s.settledCall(t, "echo", "add", `{"intA":1,"intB":2}`).WantStatus(t, 200)
		var wg sync.WaitGroup
		errs := make(chan string, 64)
		for i := 0; i < 64; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				req, _ := http.NewRequest("POST", s.base+"/publish/dev/echo/add", strings.NewReader(fmt.Sprintf(`{"intA":%d,"intB":2}`, i)))
				req.Header.Set("Content-Type", "application/json")
				res, err := s.api.HTTP.Do(req)
				if err != nil {
					errs <- err.Error()
					return
				}
				b, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if want := fmt.Sprintf(`{"AddResult":%d}`, i); res.StatusCode != 200 || string(b) != want {
					errs <- fmt.Sprintf("call %d: %d %s", i, res.StatusCode, b)
				}
			}(i)
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	})
}

// TestPublishSOAPHeaders: the soap:header parts of an operation travel in
// the request's "$headers" member and reach the backend as SOAP Header
// blocks (zeep's soap_header.wsdl: Authentication and Token); a declared
// response header part comes back in the response's "$headers", other
// header blocks (WS-Addressing) are skipped.
func TestPublishSOAPHeaders(t *testing.T) {
	corpusDir(t)
	s := startServer(t, nil)
	be := newSOAPBackend(t)
	s.onboard(t, corpusFile(t, "mvantellingen+python-zeep/tests/wsdl_files/soap_header.wsdl"), nil, "hdr", "", be.srv.URL+"/h")
	be.mu.Lock()
	be.answers = append(be.answers, cannedAnswer{"TradePriceRequest", 200, "text/xml; charset=utf-8",
		`<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="` + soap11NS + `"><soap:Header>` +
			`<wsa:MessageID xmlns:wsa="http://www.w3.org/2005/08/addressing">urn:uuid:1</wsa:MessageID><body>fresh &amp; hot</body>` +
			`</soap:Header><soap:Body><q:TradePrice xmlns:q="http://example.com/stockquote.xsd"><price>1.5</price></q:TradePrice></soap:Body></soap:Envelope>`})
	be.mu.Unlock()
	got := s.settledCall(t, "hdr", "get-last-trade-price",
		`{"$headers":{"header":{"username":"ann","password":"p<&>w"},"token":{"value":"t-1"}},"body":{"tickerSymbol":"ACME"}}`).WantStatus(t, 200)
	wantJSON(t, got, `{"price":1.5,"$headers":{"body":"fresh & hot"}}`)

	req, _ := be.request("TradePriceRequest")
	type elem struct {
		XMLName  xml.Name
		Text     string `xml:",chardata"`
		Children []elem `xml:",any"`
	}
	var env elem
	if err := xml.Unmarshal([]byte(req), &env); err != nil {
		t.Fatalf("backend request is not XML (%v): %s", err, req)
	}
	if len(env.Children) != 2 || env.Children[0].XMLName != (xml.Name{Space: soap11NS, Local: "Header"}) {
		t.Fatalf("no SOAP Header before the Body: %s", req)
	}
	const xsd1 = "http://example.com/stockquote.xsd"
	show := func(e elem) string {
		out := "{" + e.XMLName.Space + "}" + e.XMLName.Local + "("
		for _, c := range e.Children {
			out += "{" + c.XMLName.Space + "}" + c.XMLName.Local + "=" + c.Text + ";"
		}
		return out + ")"
	}
	var blocks []string
	for _, b := range env.Children[0].Children {
		blocks = append(blocks, show(b))
	}
	want := []string{"{" + xsd1 + "}Authentication({}username=ann;{}password=p<&>w;)", "{" + xsd1 + "}Token({}value=t-1;)"}
	if !reflect.DeepEqual(blocks, want) {
		t.Errorf("Header blocks = %q, want %q\n%s", blocks, want, req)
	}
	if body := env.Children[1]; len(body.Children) != 1 || show(body.Children[0]) != "{"+xsd1+"}TradePriceRequest({}tickerSymbol=ACME;)" {
		t.Errorf("Body = %s", req)
	}

	// Validated like the body, with pointers under /$headers.
	bad := s.publishCall(t, "hdr", "get-last-trade-price", `{"$headers":{"token":{}},"body":{"tickerSymbol":"ACME"}}`).WantStatus(t, 400)
	if !strings.Contains(string(bad.Body), `"S2R-VAL-0410"`) || !strings.Contains(string(bad.Body), `"pointer":"/$headers/token"`) {
		t.Errorf("a header part without its required member: %s", bad.Body)
	}
}
