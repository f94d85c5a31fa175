package convert

import (
	"context"
	"testing"

	"github.com/s2r-project/s2r/internal/golden"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

func TestFragmentJSON(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"naive", `<e:Error xmlns:e="urn:e" code="7"><e:msg>bad</e:msg></e:Error>`, `{"Error":{"@code":"7","msg":"bad"}}`},
		{"naive two", `<a>1</a><a>2</a>`, `{"a":["1","2"]}`},
		{"empty", ``, `{}`},
		{"malformed", `<a>`, `error: convert: /Envelope/Body/Fault/detail/a: malformed XML: xml: line 1: end tag </x> does not match start tag <a>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := FragmentJSON(nil, []byte(tt.in), nil, "/Envelope/Body/Fault/detail", xmlstream.Limits{})
			got := string(out)
			if err != nil {
				got = "error: " + err.Error()
			}
			if got != tt.want {
				t.Errorf("FragmentJSON(%s) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

// TestFragmentJSONFaults: a declared fault's detail, converted by the plan
// of its xsd.Fault.DetailMessage, is keyed by the detail element's local
// name like the naive mapping, whether the element is a structure or a
// simple value; a detail the plan does not fit fails, for the naive
// mapping to take over with the same keys.
func TestFragmentJSONFaults(t *testing.T) {
	g := golden.Read(t, "testdata/wsdl-fault-simple-x2j.txt")
	defs, err := wsdl.ParseFiles(context.Background(), "calc.wsdl", map[string][]byte{"calc.wsdl": []byte(g.Get(t, "calc.wsdl"))})
	if err != nil {
		t.Fatal(err)
	}
	op, ok := defs.Operation("Calculator", "CalcPort", "Add")
	if !ok || len(op.Faults) != 2 {
		t.Fatalf("operation Add with two faults: %v %+v", ok, op)
	}
	plans := map[string]*Plan{}
	for _, f := range op.Faults {
		p, err := Compile(f.DetailMessage(), OptionsFor(op))
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		plans[f.Name] = p
	}
	const calc = `<c:CalcFault xmlns:c="http://example.org/calc"><c:code>7</c:code><c:why>overflow</c:why></c:CalcFault>`
	const overflow = `<c:Overflow xmlns:c="http://example.org/calc">too big</c:Overflow>`
	for _, tt := range []struct {
		name, fault, in, want string
	}{
		{"structure", "CalcFault", calc, `{"CalcFault":{"code":7,"why":"overflow"}}`},
		{"simple", "OverflowFault", overflow, `{"Overflow":"too big"}`},
		{"other fault", "CalcFault", overflow, `error: convert: /Envelope/Body/Fault/detail/Overflow: unknown element {http://example.org/calc}Overflow`},
		{"extra child", "CalcFault", calc + `<trace>x</trace>`, `error: convert: /Envelope/Body/Fault/detail/trace: unknown element trace`},
		{"naive structure", "", calc, `{"CalcFault":{"code":"7","why":"overflow"}}`},
		{"naive simple", "", overflow, `{"Overflow":"too big"}`},
		{"naive several", "", calc + `<trace>x</trace>`, `{"CalcFault":{"code":"7","why":"overflow"},"trace":"x"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := FragmentJSON(nil, []byte(tt.in), plans[tt.fault], "/Envelope/Body/Fault/detail", xmlstream.Limits{})
			got := string(out)
			if err != nil {
				got = "error: " + err.Error()
			}
			if got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestMatchFault(t *testing.T) {
	name, ok := DetailElement([]byte(` <e:CalcFault xmlns:e="urn:c"><e:code>1</e:code></e:CalcFault>`))
	if !ok || name != (xmlstream.Name{Space: "urn:c", Local: "CalcFault"}) {
		t.Fatalf("DetailElement = %v, %v", name, ok)
	}
	el := &xsd.Element{Name: name}
	faults := []*xsd.Fault{
		{Name: "Other", Message: &xsd.Message{Parts: []*xsd.Part{{Name: "d", Element: &xsd.Element{Name: xmlstream.Name{Local: "x"}}}}}},
		{Name: "Calc", Message: &xsd.Message{Wrapped: true, Wrapper: el, Parts: []*xsd.Part{{Name: "d", Element: el}}}},
	}
	if f := MatchFault(faults, name); f == nil || f.Name != "Calc" {
		t.Errorf("MatchFault = %+v", f)
	}
	if f := MatchFault(faults, xmlstream.Name{Local: "nope"}); f != nil {
		t.Errorf("MatchFault(nope) = %+v", f)
	}
	if _, ok := DetailElement([]byte("text only")); ok {
		t.Error("DetailElement of text should fail")
	}
}
