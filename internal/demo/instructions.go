package demo

import (
	"fmt"
	"io"
	"strings"
)

// Example is one ready-to-paste command.
type Example struct {
	// Title says what the command shows.
	Title string
	// Command is one shell line.
	Command string
}

// calcExample is one publish example: an operation and its operands.
type calcExample struct {
	title, opKey, body string
}

var calcExamples = []calcExample{
	{"Add: 2 + 3", "add", `{"a":2,"b":3}`},
	{"Subtract: 10 - 4", "subtract", `{"a":10,"b":4}`},
	{"Multiply: 6 × 7", "multiply", `{"a":6,"b":7}`},
	{"Divide: 15 ÷ 4", "divide", `{"a":15,"b":4}`},
	{"Divide by zero: the calculator answers a SOAP Fault, s2r a 502 S2R-RUN-0502 with the fault's code", "divide", `{"a":1,"b":0}`},
}

// PublishURL is the REST URL of a calculator operation on the runtime at
// base (http://127.0.0.1:8080).
func PublishURL(base, opKey string) string {
	return base + "/publish/" + Environment + "/" + CalculatorKey + "/" + opKey
}

// ConsumeURL is the SOAP endpoint of the quote service on the runtime at
// base; its WSDL is at ConsumeURL + "?wsdl".
func ConsumeURL(base string) string {
	return base + "/consume/" + Environment + "/" + QuotesKey
}

// PublishExamples are the calculator commands against the runtime at base:
// one per operation and one division by zero.
func PublishExamples(base string) []Example {
	out := make([]Example, 0, len(calcExamples))
	for _, c := range calcExamples {
		out = append(out, Example{c.title, "curl -s -w '\\n' '" + PublishURL(base, c.opKey) +
			"' -H 'Content-Type: application/json' -d '" + c.body + "'"})
	}
	return out
}

// QuoteEnvelope is the SOAP 1.1 GetQuote request for symbol.
func QuoteEnvelope(symbol string) string {
	return `<soapenv:Envelope xmlns:soapenv="` + soap11NS + `" xmlns:q="` + QuotesNS + `"><soapenv:Body>` +
		`<q:GetQuote><q:symbol>` + symbol + `</q:symbol></q:GetQuote></soapenv:Body></soapenv:Envelope>`
}

// quoteAction is GetQuote's SOAPAction.
const quoteAction = QuotesNS + "/GetQuote"

// ConsumeExamples are the quote service commands against the runtime at
// base: its WSDL and a GetQuote call.
func ConsumeExamples(base string) []Example {
	return []Example{
		{"The WSDL s2r serves for it", "curl -s '" + ConsumeURL(base) + "?wsdl'"},
		{"GetQuote for ACME, a SOAP 1.1 request", "curl -s -w '\\n' '" + ConsumeURL(base) +
			`' -H 'Content-Type: text/xml; charset=utf-8' -H 'SOAPAction: "` + quoteAction + `"' -d '` +
			QuoteEnvelope("ACME") + "'"},
	}
}

// Links are where a running demo is.
type Links struct {
	// Console is the console's URL, http://127.0.0.1:8080/console/.
	Console string
	// Runtime is the main listener, http://127.0.0.1:8080.
	Runtime string
	// Identity is the development identity the console acts as.
	Identity string
}

// WriteInstructions writes what the demo serves and the commands that try
// it.
func WriteInstructions(w io.Writer, l Links, b *Backends) error {
	var s strings.Builder
	fmt.Fprintf(&s, "\ns2r demo is ready.\n\nConsole (requests from this machine act as %s):\n  %s\n", l.Identity, l.Console)
	fmt.Fprintf(&s, "\nPublish: the SOAP 1.1 calculator as a JSON REST API (publish/%s/%s)\n", Environment, CalculatorKey)
	writeExamples(&s, PublishExamples(l.Runtime))
	fmt.Fprintf(&s, "\nConsume: the JSON REST quote service as a SOAP web service (consume/%s/%s)\n", Environment, QuotesKey)
	fmt.Fprintf(&s, "  WSDL: %s?wsdl\n  Symbols the quote backend knows: %s\n", ConsumeURL(l.Runtime), strings.Join(Symbols(), ", "))
	writeExamples(&s, ConsumeExamples(l.Runtime))
	fmt.Fprintf(&s, "\nSample backends (new ports at every start; the demo points the services at them):\n"+
		"  calculator, SOAP 1.1: %s (WSDL: %s?wsdl)\n  quotes, JSON REST:    %s/quotes/{symbol}\n",
		b.CalculatorURL, b.CalculatorURL, b.QuotesURL)
	s.WriteString("\nNext: docs/quickstart.md onboards your own WSDL. Ctrl-C stops the demo.\n")
	_, err := io.WriteString(w, s.String())
	return err
}

func writeExamples(s *strings.Builder, examples []Example) {
	for _, e := range examples {
		fmt.Fprintf(s, "  # %s\n  %s\n", e.Title, e.Command)
	}
}
