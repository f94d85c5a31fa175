package demo

import (
	_ "embed"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
)

// CalculatorNS is the target namespace of the calculator's contract.
const CalculatorNS = "http://s2r.dev/demo/calculator"

const soap11NS = "http://schemas.xmlsoap.org/soap/envelope/"

// CalculatorWSDL is the calculator's contract; its soap:address is a
// placeholder (the backend's port changes at every start).
//
//go:embed calculator.wsdl
var CalculatorWSDL string

// maxRequest bounds a calculator request body.
const maxRequest = 64 << 10

// operations are the calculator's operations by request element name.
var operations = map[string]func(a, b float64) (float64, error){
	"Add":      func(a, b float64) (float64, error) { return a + b, nil },
	"Subtract": func(a, b float64) (float64, error) { return a - b, nil },
	"Multiply": func(a, b float64) (float64, error) { return a * b, nil },
	"Divide": func(a, b float64) (float64, error) {
		if b == 0 {
			return 0, errDivisionByZero
		}
		return a / b, nil
	},
}

var errDivisionByZero = errors.New("division by zero")

// Calculator is the SOAP 1.1 calculator: POST a SOAP envelope to any path;
// GET with ?wsdl answers the contract with its address set to the request's
// URL.
func Calculator() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet:
			if _, ok := r.URL.Query()["wsdl"]; !ok {
				http.Error(w, "GET serves the WSDL only: add ?wsdl", http.StatusNotFound)
				return
			}
			w.Header().Set("Content-Type", "text/xml; charset=utf-8")
			var addr strings.Builder
			xml.EscapeText(&addr, []byte("http://"+r.Host+r.URL.Path))
			io.WriteString(w, strings.Replace(CalculatorWSDL, "http://127.0.0.1/calculator", addr.String(), 1))
		case http.MethodPost:
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequest))
			if err != nil {
				writeFault(w, "soap:Client", "request body: "+err.Error(), "")
				return
			}
			answerCalculation(w, body)
		default:
			w.Header().Set("Allow", "GET, POST")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		}
	})
}

// answerCalculation computes the operation a request envelope asks for and
// writes its response or fault.
func answerCalculation(w http.ResponseWriter, body []byte) {
	op, a, b, err := ParseCalculation(body)
	if err != nil {
		writeFault(w, "soap:Client", err.Error(), "")
		return
	}
	result, err := operations[op](a, b)
	if errors.Is(err, errDivisionByZero) {
		writeFault(w, "soap:Client.DivisionByZero", "division by zero",
			`<c:DivisionByZero xmlns:c="`+CalculatorNS+`"><c:dividend>`+formatNumber(a)+`</c:dividend></c:DivisionByZero>`)
		return
	}
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	fmt.Fprintf(w, `<soap:Envelope xmlns:soap="%s"><soap:Body><c:%sResponse xmlns:c="%s"><c:result>%s</c:result></c:%sResponse></soap:Body></soap:Envelope>`,
		soap11NS, op, CalculatorNS, formatNumber(result), op)
}

// calculation is the body element of a calculator request.
type calculation struct {
	XMLName xml.Name
	A       *string `xml:"http://s2r.dev/demo/calculator a"`
	B       *string `xml:"http://s2r.dev/demo/calculator b"`
}

type calcEnvelope struct {
	XMLName xml.Name `xml:"http://schemas.xmlsoap.org/soap/envelope/ Envelope"`
	Body    struct {
		Calc calculation `xml:",any"`
	} `xml:"http://schemas.xmlsoap.org/soap/envelope/ Body"`
}

// ParseCalculation reads a SOAP 1.1 calculator request: the operation
// (Add, Subtract, Multiply or Divide) and its operands a and b.
func ParseCalculation(body []byte) (op string, a, b float64, err error) {
	var env calcEnvelope
	if err := xml.Unmarshal(body, &env); err != nil {
		return "", 0, 0, fmt.Errorf("not a SOAP 1.1 envelope: %w", err)
	}
	c := env.Body.Calc
	if _, ok := operations[c.XMLName.Local]; !ok || c.XMLName.Space != CalculatorNS {
		return "", 0, 0, fmt.Errorf("unknown operation {%s}%s", c.XMLName.Space, c.XMLName.Local)
	}
	if a, err = parseOperand("a", c.A); err != nil {
		return "", 0, 0, err
	}
	if b, err = parseOperand("b", c.B); err != nil {
		return "", 0, 0, err
	}
	return c.XMLName.Local, a, b, nil
}

func parseOperand(name string, v *string) (float64, error) {
	if v == nil {
		return 0, fmt.Errorf("operand %s is missing", name)
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(*v), 64)
	if err != nil {
		return 0, fmt.Errorf("operand %s is not an xs:double: %q", name, *v)
	}
	return f, nil
}

// formatNumber writes f as an xs:double lexical value.
func formatNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "INF"
	case math.IsInf(f, -1):
		return "-INF"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// writeFault writes a SOAP 1.1 Fault (HTTP 500, SOAP 1.1 section 6.2).
func writeFault(w http.ResponseWriter, code, reason, detail string) {
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	w.WriteHeader(http.StatusInternalServerError)
	var msg strings.Builder
	xml.EscapeText(&msg, []byte(reason))
	if detail != "" {
		detail = "<detail>" + detail + "</detail>"
	}
	fmt.Fprintf(w, `<soap:Envelope xmlns:soap="%s"><soap:Body><soap:Fault><faultcode>%s</faultcode><faultstring>%s</faultstring>%s</soap:Fault></soap:Body></soap:Envelope>`,
		soap11NS, code, msg.String(), detail)
}
