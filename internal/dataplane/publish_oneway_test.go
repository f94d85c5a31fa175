package dataplane

import (
	"context"
	"net/http"
	"testing"

	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/wsdl"
)

// notifyWSDL has one one-way operation (an input, no output).
const notifyWSDL = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
  xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema"
  xmlns:tns="http://example.com/notify" targetNamespace="http://example.com/notify">
  <types><xs:schema targetNamespace="http://example.com/notify" elementFormDefault="qualified">
    <xs:element name="Notify"><xs:complexType><xs:sequence>
      <xs:element name="text" type="xs:string"/>
    </xs:sequence></xs:complexType></xs:element>
  </xs:schema></types>
  <message name="NotifyIn"><part name="parameters" element="tns:Notify"/></message>
  <portType name="P"><operation name="Notify"><input message="tns:NotifyIn"/></operation></portType>
  <binding name="B" type="tns:P">
    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="Notify"><soap:operation soapAction="urn:notify"/><input><soap:body use="literal"/></input></operation>
  </binding>
  <service name="S"><port name="P" binding="tns:B"><soap:address location="http://localhost:9999/n"/></port></service>
</definitions>`

// TestPublishOneWay: a one-way operation answers 200 {} when the backend
// accepts the call, with no body (202, WS-I BP R2714: the usual answer)
// or an empty envelope; a fault is still a fault.
func TestPublishOneWay(t *testing.T) {
	defs, err := wsdl.ParseFiles(context.Background(), "n.wsdl", map[string][]byte{"n.wsdl": []byte(notifyWSDL)})
	if err != nil {
		t.Fatal(err)
	}
	e := newPublishEnv(t, func(s *routing.Source) {
		s.Contract = defs
		s.Operations = s.Operations[:1]
		s.Operations[0].OperationKey, s.Operations[0].SOAPOperationName, s.Operations[0].RestPath = "notify", "Notify", "/notify"
	})
	for _, tt := range []struct {
		name     string
		backend  http.HandlerFunc
		status   int
		wantBody string
		code     string
	}{
		{"202 no body", answer(http.StatusAccepted, "", ""), 200, `{}`, ""},
		{"200 no body", answer(http.StatusOK, "text/xml", "  \n"), 200, `{}`, ""},
		{"200 empty envelope", answer(http.StatusOK, "text/xml", envelope11("")), 200, `{}`, ""},
		{"500 no body", answer(http.StatusInternalServerError, "", ""), 502, "", "S2R-RUN-0502"},
		{"fault", answer(http.StatusInternalServerError, "text/xml",
			envelope11(`<soap:Fault><faultcode>soap:Server</faultcode><faultstring>down</faultstring></soap:Fault>`)), 502, "", "S2R-RUN-0502"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e.backend.set(tt.backend)
			res := e.call(t, "POST", "/publish/dev/calc/notify", "application/json", `{"text":"hi"}`, "cid-"+tt.name)
			if res.status != tt.status || res.err.Error.Code != tt.code || (tt.wantBody != "" && string(res.body) != tt.wantBody) {
				t.Fatalf("%d %s, want %d %s %s", res.status, res.body, tt.status, tt.code, tt.wantBody)
			}
		})
	}
}
