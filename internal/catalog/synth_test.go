package catalog

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/wsdl"
)

// synthOp is one operation of a synthetic WSDL: request and response
// fields as "name:type:minOccurs".
type synthOp struct {
	name, action string
	in, out      []string
}

// synthDefs parses a document/literal wrapped WSDL of ops (namespace ns).
func synthDefs(t testing.TB, ns string, ops []synthOp) *wsdl.Definitions {
	t.Helper()
	var types, msgs, pt, bind strings.Builder
	elem := func(name string, fields []string) {
		fmt.Fprintf(&types, `<xs:element name="%s"><xs:complexType><xs:sequence>`, name)
		for _, f := range fields {
			p := strings.Split(f, ":")
			fmt.Fprintf(&types, `<xs:element name="%s" type="xs:%s" minOccurs="%s"/>`, p[0], p[1], p[2])
		}
		types.WriteString(`</xs:sequence></xs:complexType></xs:element>`)
	}
	for _, op := range ops {
		elem(op.name, op.in)
		elem(op.name+"Response", op.out)
		fmt.Fprintf(&msgs, `<wsdl:message name="%[1]sIn"><wsdl:part name="parameters" element="tns:%[1]s"/></wsdl:message>`+
			`<wsdl:message name="%[1]sOut"><wsdl:part name="parameters" element="tns:%[1]sResponse"/></wsdl:message>`, op.name)
		fmt.Fprintf(&pt, `<wsdl:operation name="%[1]s"><wsdl:input message="tns:%[1]sIn"/><wsdl:output message="tns:%[1]sOut"/></wsdl:operation>`, op.name)
		fmt.Fprintf(&bind, `<wsdl:operation name="%[1]s"><soap:operation soapAction="%[2]s"/>`+
			`<wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>`, op.name, op.action)
	}
	doc := `<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="` + ns + `" targetNamespace="` + ns + `">
<wsdl:types><xs:schema targetNamespace="` + ns + `" elementFormDefault="qualified">` + types.String() + `</xs:schema></wsdl:types>
` + msgs.String() + `<wsdl:portType name="PT">` + pt.String() + `</wsdl:portType>
<wsdl:binding name="B" type="tns:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>` + bind.String() + `</wsdl:binding>
<wsdl:service name="S"><wsdl:port name="P" binding="tns:B"><soap:address location="http://127.0.0.1:1/"/></wsdl:port></wsdl:service>
</wsdl:definitions>`
	defs, err := wsdl.ParseFiles(context.Background(), "s.wsdl", map[string][]byte{"s.wsdl": []byte(doc)})
	if err != nil {
		t.Fatal(err)
	}
	return defs
}

var baseOps = []synthOp{
	{"Add", "urn:Add", []string{"a:int:1", "b:int:1"}, []string{"result:int:1"}},
	{"Info", "urn:Info", []string{"id:string:1", "lang:string:0"}, []string{"name:string:0"}},
}

func TestDrift(t *testing.T) {
	old := synthDefs(t, "urn:x", baseOps)
	ops, err := DraftOperations(old, "", "")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		ns     string
		ops    []synthOp
		status string
		kinds  []string
	}{
		{"same", "urn:x", baseOps, UpToDate, nil},
		{"additive", "urn:x", []synthOp{baseOps[0],
			{"Info", "urn:Info", []string{"id:string:1", "lang:string:0", "region:string:0"}, []string{"name:string:0", "code:string:1"}},
			{"Mul", "urn:Mul", []string{"a:int:1"}, []string{"r:int:1"}}},
			DriftDetected, []string{ChangeFieldAdded, ChangeFieldAdded, ChangeOperationAdded}},
		{"removed operation", "urn:x", baseOps[:1], BreakingDrift, []string{ChangeOperationRemoved}},
		{"retyped", "urn:x", []synthOp{{"Add", "urn:Add", []string{"a:int:1", "b:long:1"}, []string{"result:int:1"}}, baseOps[1]},
			BreakingDrift, []string{ChangeFieldRetyped}},
		{"removed field", "urn:x", []synthOp{baseOps[0], {"Info", "urn:Info", []string{"id:string:1"}, []string{"name:string:0"}}},
			BreakingDrift, []string{ChangeFieldRemoved}},
		{"new required", "urn:x", []synthOp{baseOps[0], {"Info", "urn:Info", []string{"id:string:1", "lang:string:0", "t:string:1"}, []string{"name:string:0"}}},
			BreakingDrift, []string{ChangeRequiredAdded}},
		{"now required", "urn:x", []synthOp{baseOps[0], {"Info", "urn:Info", []string{"id:string:1", "lang:string:1"}, []string{"name:string:0"}}},
			BreakingDrift, []string{ChangeFieldRequired}},
		{"action", "urn:x", []synthOp{{"Add", "urn:Add2", baseOps[0].in, baseOps[0].out}, baseOps[1]},
			BreakingDrift, []string{ChangeSOAPAction}},
		{"namespace", "urn:y", baseOps, BreakingDrift, []string{ChangeNamespace, ChangeNamespace}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := Drift(old, synthDefs(t, tc.ns, tc.ops), ops)
			if rep.Status != tc.status {
				t.Fatalf("status = %s, want %s: %+v", rep.Status, tc.status, rep.Changes)
			}
			var kinds []string
			for _, c := range rep.Changes {
				kinds = append(kinds, c.Kind)
			}
			if strings.Join(kinds, ",") != strings.Join(tc.kinds, ",") {
				t.Errorf("kinds = %v, want %v", kinds, tc.kinds)
			}
		})
	}
	if rep := Drift(nil, old, ops); rep.Status != Untracked || rep.Reason == "" {
		t.Errorf("no import: %+v", rep)
	}
	if rep := Drift(old, nil, ops); rep.Status != Untracked {
		t.Errorf("no newer import: %+v", rep)
	}
}
