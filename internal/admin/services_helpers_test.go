package admin

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
)

// wsdlField is one element of a synthetic message.
type wsdlField struct {
	name, typ string
	min       int
}

// wsdlOp is one operation of a synthetic WSDL.
type wsdlOp struct {
	name, action string
	in, out      []wsdlField
}

// calcOps are the operations of the default synthetic WSDL.
var calcOps = []wsdlOp{
	{name: "Add", action: "urn:Add", in: []wsdlField{{"a", "xs:int", 1}, {"b", "xs:int", 1}}, out: []wsdlField{{"result", "xs:int", 1}}},
	{name: "Subtract", action: "urn:Subtract", in: []wsdlField{{"a", "xs:int", 1}, {"b", "xs:int", 1}}, out: []wsdlField{{"result", "xs:int", 1}}},
	{name: "GetInfo", action: "urn:GetInfo", in: []wsdlField{{"id", "xs:string", 1}, {"lang", "xs:string", 0}}, out: []wsdlField{{"name", "xs:string", 0}}},
}

// calcWSDL renders a document/literal wrapped WSDL 1.1 of ops (service
// Calculator, port CalculatorSoap, namespace urn:calc).
func calcWSDL(ops []wsdlOp) string {
	var types, msgs, pt, bind strings.Builder
	elem := func(name string, fields []wsdlField) {
		fmt.Fprintf(&types, `<xs:element name="%s"><xs:complexType><xs:sequence>`, name)
		for _, f := range fields {
			fmt.Fprintf(&types, `<xs:element name="%s" type="%s" minOccurs="%d"/>`, f.name, f.typ, f.min)
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
	return `<?xml version="1.0"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:calc" targetNamespace="urn:calc" name="Calculator">
<wsdl:types><xs:schema targetNamespace="urn:calc" elementFormDefault="qualified">` + types.String() + `</xs:schema></wsdl:types>
` + msgs.String() + `<wsdl:portType name="CalculatorPT">` + pt.String() + `</wsdl:portType>
<wsdl:binding name="CalculatorSoap" type="tns:CalculatorPT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>` +
		bind.String() + `</wsdl:binding>
<wsdl:service name="Calculator"><wsdl:port name="CalculatorSoap" binding="tns:CalculatorSoap"><soap:address location="http://127.0.0.1:1/calc"/></wsdl:port></wsdl:service>
</wsdl:definitions>`
}

// jsonBody encodes v as a request body.
func jsonBody(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// importXML imports a pasted WSDL and returns the artifact id.
func (a *testAPI) importXML(xml string) string {
	a.t.Helper()
	r := a.Do("POST", Prefix+"/wsdl/import-xml", operatorEmail, jsonBody(a.t, map[string]any{"xml": xml})).WantStatus(a.t, http.StatusCreated)
	var art struct {
		ArtifactID string `json:"artifactId"`
	}
	r.Decode(a.t, &art)
	return art.ArtifactID
}

// createService creates a service from body members as the operator.
func (a *testAPI) createService(members map[string]any) model.Service {
	a.t.Helper()
	var svc model.Service
	a.Do("POST", Prefix+"/services", operatorEmail, jsonBody(a.t, members)).WantStatus(a.t, http.StatusCreated).Decode(a.t, &svc)
	return svc
}

// draftFrom creates a draft of serviceID from an import.
func (a *testAPI) draftFrom(serviceID, artifactID string) draftResult {
	a.t.Helper()
	var d draftResult
	a.Do("POST", Prefix+"/services/"+serviceID+"/versions", operatorEmail,
		jsonBody(a.t, map[string]any{"artifactId": artifactID})).WantStatus(a.t, http.StatusCreated).Decode(a.t, &d)
	return d
}

// consumeDraft imports the synthetic WSDL of ops, creates a consume
// service (which needs no backend profile to be activated) and its draft.
func (a *testAPI) consumeDraft(key string, ops []wsdlOp) (model.Service, draftResult) {
	a.t.Helper()
	art := a.importXML(calcWSDL(ops))
	svc := a.createService(map[string]any{"serviceKey": key, "environment": "dev", "direction": "consume"})
	return svc, a.draftFrom(svc.ServiceID, art)
}

// revision returns the configuration revision.
func (a *testAPI) revision() int64 {
	a.t.Helper()
	n, err := a.store.Revision(context.Background())
	if err != nil {
		a.t.Fatal(err)
	}
	return n
}

// lastAudit returns the newest audit event of action on entityID.
func (a *testAPI) lastAudit(action, entityID string) model.AuditEvent {
	a.t.Helper()
	page, err := a.store.AuditEvents(context.Background(), model.AuditFilter{ActionType: action, EntityID: entityID,
		Page: model.PageRequest{Page: 1, PageSize: 1}})
	if err != nil {
		a.t.Fatal(err)
	}
	if len(page.Items) == 0 {
		a.t.Fatalf("no audit event %s for %s", action, entityID)
	}
	return page.Items[0]
}
