package convert

import (
	"github.com/s2r-project/s2r/internal/xsd"
	"testing"

	"github.com/s2r-project/s2r/internal/xmlstream"
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
