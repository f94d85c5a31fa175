package demo

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func calcRequest(op, a, b string) string {
	return `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><c:` + op + ` xmlns:c="` + CalculatorNS +
		`"><c:a>` + a + `</c:a><c:b>` + b + `</c:b></c:` + op + `></s:Body></s:Envelope>`
}

func TestCalculator(t *testing.T) {
	srv := httptest.NewServer(Calculator())
	defer srv.Close()
	for _, c := range []struct {
		name, body string
		status     int
		want       string
	}{
		{"add", calcRequest("Add", "2", "3"), 200, `<c:AddResponse xmlns:c="` + CalculatorNS + `"><c:result>5</c:result></c:AddResponse>`},
		{"subtract", calcRequest("Subtract", "10", "4.5"), 200, `<c:result>5.5</c:result>`},
		{"multiply", calcRequest("Multiply", "-6", "7"), 200, `<c:result>-42</c:result>`},
		{"divide", calcRequest("Divide", "1", "3"), 200, `<c:result>0.3333333333333333</c:result>`},
		{"overflow", calcRequest("Multiply", "1e308", "10"), 200, `<c:result>INF</c:result>`},
		{"division by zero", calcRequest("Divide", "7", "0"), 500,
			`<faultcode>soap:Client.DivisionByZero</faultcode><faultstring>division by zero</faultstring><detail><c:DivisionByZero xmlns:c="` +
				CalculatorNS + `"><c:dividend>7</c:dividend></c:DivisionByZero></detail>`},
		{"unknown operation", calcRequest("Power", "2", "3"), 500, `<faultcode>soap:Client</faultcode><faultstring>unknown operation {` + CalculatorNS + `}Power`},
		{"missing operand", strings.Replace(calcRequest("Add", "2", "3"), "<c:b>3</c:b>", "", 1), 500, "operand b is missing"},
		{"not a number", calcRequest("Add", "two", "3"), 500, `operand a is not an xs:double: &#34;two&#34;`},
		{"not SOAP", `{"a":1}`, 500, "not a SOAP 1.1 envelope"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, err := http.Post(srv.URL+"/calculator", "text/xml; charset=utf-8", strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.status || !strings.Contains(string(b), c.want) {
				t.Errorf("%d %s\nwant %d with %s", resp.StatusCode, b, c.status, c.want)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "text/xml; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
		})
	}
}

func TestCalculatorWSDL(t *testing.T) {
	srv := httptest.NewServer(Calculator())
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/calculator?wsdl")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := `<soap:address location="` + srv.URL + `/calculator"/>`; resp.StatusCode != 200 || !strings.Contains(string(b), want) {
		t.Errorf("GET ?wsdl = %d, lacks %s", resp.StatusCode, want)
	}
	for _, c := range []struct {
		method, path string
		status       int
	}{{"GET", "/calculator", 404}, {"PUT", "/calculator", 405}} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s %s = %d, want %d", c.method, c.path, resp.StatusCode, c.status)
		}
	}
}

// FuzzParseCalculation: any body gives an operation with its operands or
// an error, never a panic.
func FuzzParseCalculation(f *testing.F) {
	f.Add([]byte(calcRequest("Add", "2", "3")))
	f.Add([]byte(calcRequest("Divide", "1", "0")))
	f.Add([]byte(`<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body/></s:Envelope>`))
	f.Fuzz(func(t *testing.T, body []byte) {
		op, _, _, err := ParseCalculation(body)
		if err == nil && operations[op] == nil {
			t.Fatalf("operation %q accepted", op)
		}
	})
}
