package catalog

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xsd"
)

// benchOps are 1,000 operations with a few fields each.
func benchOps() []synthOp {
	ops := make([]synthOp, 1000)
	for i := range ops {
		ops[i] = synthOp{fmt.Sprintf("Operation%04dByName", i), fmt.Sprintf("urn:op%d", i),
			[]string{"id:string:1", "name:string:0", "count:int:1", "when:dateTime:0"},
			[]string{"result:string:1", "total:decimal:0", "ok:boolean:1"}}
	}
	return ops
}

// BenchmarkParse1000 is the baseline: parsing and compiling the WSDL,
// which every import does before the catalog sees it.
func BenchmarkParse1000(b *testing.B) {
	ops := benchOps()
	synthDefs(b, "urn:bench", ops)
	b.ReportAllocs()
	for b.Loop() {
		synthDefs(b, "urn:bench", ops)
	}
}

// BenchmarkDraftAndReadiness1000 drafts 1,000 operations, derives their
// auto mappings and assesses publish readiness (diagnostics included), as
// autopilot does after the parse.
func BenchmarkDraftAndReadiness1000(b *testing.B) {
	defs := synthDefs(b, "urn:bench", benchOps())
	b.ReportAllocs()
	for b.Loop() {
		if rep := draftAndAssess(b, defs); rep.Status != ReadyToPublish {
			b.Fatalf("status %s", rep.Status)
		}
	}
}

func draftAndAssess(b *testing.B, defs *wsdl.Definitions) ReadinessReport {
	ops, err := DraftOperations(defs, "", "")
	if err != nil {
		b.Fatal(err)
	}
	in := ReadinessInput{Service: model.Service{Status: model.ServiceActive, Direction: model.DirectionPublish},
		Contracts: make(map[string]*xsd.Operation, len(ops)), Mappings: make(map[string]model.Mapping, len(ops)), BackendProfiles: 1}
	for i := range ops {
		ops[i].OperationID = ops[i].OperationKey
		c := Contract(defs, "S", "P", ops[i])
		in.Contracts[ops[i].OperationID], in.Mappings[ops[i].OperationID] = c, AutoMapping(c)
	}
	in.Operations = ops
	return Readiness(in)
}

// BenchmarkDrift1000 compares 1,000 operations against the same contract.
func BenchmarkDrift1000(b *testing.B) {
	defs := synthDefs(b, "urn:bench", benchOps())
	newer := synthDefs(b, "urn:bench", benchOps())
	ops, _ := DraftOperations(defs, "", "")
	b.ReportAllocs()
	for b.Loop() {
		if rep := Drift(defs, newer, ops); rep.Status != UpToDate {
			b.Fatalf("status %s", rep.Status)
		}
	}
}

// recursiveDefs parses a WSDL of 1,000 operations over 200 shared complex
// types that reference each other in cycles, the shape that makes path
// enumeration explode.
func recursiveDefs(b *testing.B) *wsdl.Definitions {
	var types strings.Builder
	for i := range 200 {
		fmt.Fprintf(&types, `<xs:complexType name="T%d"><xs:sequence><xs:element name="a" type="xs:string"/>`+
			`<xs:element name="n" type="xs:int" minOccurs="0"/><xs:element name="left" type="tns:T%d" minOccurs="0"/>`+
			`<xs:element name="right" type="tns:T%d" minOccurs="0" maxOccurs="unbounded"/></xs:sequence>`+
			`<xs:attribute name="id" type="xs:string"/></xs:complexType>`, i, (i+1)%200, (i*7+3)%200)
	}
	var ops strings.Builder
	var msgs, pt, bind strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&ops, `<xs:element name="Op%[1]d"><xs:complexType><xs:sequence><xs:element name="root" type="tns:T%[2]d"/></xs:sequence></xs:complexType></xs:element>`+
			`<xs:element name="Op%[1]dResponse"><xs:complexType><xs:sequence><xs:element name="out" type="tns:T%[3]d"/></xs:sequence></xs:complexType></xs:element>`,
			i, i%200, (i+100)%200)
		fmt.Fprintf(&msgs, `<wsdl:message name="Op%[1]dIn"><wsdl:part name="parameters" element="tns:Op%[1]d"/></wsdl:message>`+
			`<wsdl:message name="Op%[1]dOut"><wsdl:part name="parameters" element="tns:Op%[1]dResponse"/></wsdl:message>`, i)
		fmt.Fprintf(&pt, `<wsdl:operation name="Op%[1]d"><wsdl:input message="tns:Op%[1]dIn"/><wsdl:output message="tns:Op%[1]dOut"/></wsdl:operation>`, i)
		fmt.Fprintf(&bind, `<wsdl:operation name="Op%[1]d"><soap:operation soapAction="urn:Op%[1]d"/><wsdl:input><soap:body use="literal"/></wsdl:input>`+
			`<wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>`, i)
	}
	doc := `<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:r" targetNamespace="urn:r">
<wsdl:types><xs:schema targetNamespace="urn:r" elementFormDefault="qualified">` + types.String() + ops.String() + `</xs:schema></wsdl:types>` +
		msgs.String() + `<wsdl:portType name="PT">` + pt.String() + `</wsdl:portType>
<wsdl:binding name="B" type="tns:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>` + bind.String() + `</wsdl:binding>
<wsdl:service name="S"><wsdl:port name="P" binding="tns:B"><soap:address location="http://127.0.0.1:1/"/></wsdl:port></wsdl:service>
</wsdl:definitions>`
	defs, err := wsdl.ParseFiles(context.Background(), "r.wsdl", map[string][]byte{"r.wsdl": []byte(doc)})
	if err != nil {
		b.Fatal(err)
	}
	return defs
}

// BenchmarkRecursiveParse1000 is the baseline of the recursive benchmarks.
func BenchmarkRecursiveParse1000(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		recursiveDefs(b)
	}
}

// BenchmarkRecursiveReadiness1000 is draft+readiness over recursive types
// (every mapping is AUTO_READY_WITH_WARNINGS: recursive types).
func BenchmarkRecursiveReadiness1000(b *testing.B) {
	defs := recursiveDefs(b)
	b.ReportAllocs()
	for b.Loop() {
		if rep := draftAndAssess(b, defs); rep.Status != ReadyWithRisk {
			b.Fatalf("status %s", rep.Status)
		}
	}
}

// BenchmarkRecursiveDrift1000 compares two parses of the recursive WSDL.
func BenchmarkRecursiveDrift1000(b *testing.B) {
	defs, newer := recursiveDefs(b), recursiveDefs(b)
	ops, _ := DraftOperations(defs, "", "")
	b.ReportAllocs()
	for b.Loop() {
		if rep := Drift(defs, newer, ops); rep.Status != UpToDate {
			b.Fatalf("status %s", rep.Status)
		}
	}
}
