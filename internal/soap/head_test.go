package soap

import (
	"testing"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

func TestParseHead(t *testing.T) {
	tests := []struct {
		name  string
		env   string
		fault bool
	}{
		{"body", `<s:Envelope xmlns:s="` + NS11 + `"><s:Header><a xmlns="urn:a">1</a></s:Header><s:Body> <t:Get xmlns:t="urn:t"/></s:Body></s:Envelope>`, false},
		{"fault", `<s:Envelope xmlns:s="` + NS11 + `"><s:Body><!-- c --> <s:Fault><faultcode>s:Server</faultcode><faultstring>x</faultstring></s:Fault></s:Body></s:Envelope>`, true},
		{"fault 1.2 default ns", `<Envelope xmlns="` + NS12 + `"><Body><Fault><Code><Value>Receiver</Value></Code><Reason><Text>x</Text></Reason></Fault></Body></Envelope>`, true},
		{"fault other ns", `<s:Envelope xmlns:s="` + NS11 + `" xmlns:o="urn:o"><s:Body><o:Fault/></s:Body></s:Envelope>`, false},
		{"fault ns on element", `<s:Envelope xmlns:s="` + NS12 + `"><s:Body><Fault xmlns="` + NS12 + `"><Code><Value>s:Sender</Value></Code><Reason><Text>x</Text></Reason></Fault></s:Body></s:Envelope>`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, r, err := ParseHead([]byte(tt.env), xmlstream.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if got := m.FaultAhead(r); got != tt.fault {
				t.Fatalf("FaultAhead = %v, want %v", got, tt.fault)
			}
			if tt.fault {
				f, err := m.ReadFault(r)
				if err != nil || f.Reason != "x" {
					t.Fatalf("ReadFault = %+v, %v", f, err)
				}
				return
			}
			for r.Depth() >= 2 { // read the body content like a converter would
				if _, err := r.Next(); err != nil {
					t.Fatal(err)
				}
			}
			if err := FinishBody(r); err != nil {
				t.Fatal(err)
			}
		})
	}
}
