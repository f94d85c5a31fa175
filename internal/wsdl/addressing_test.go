package wsdl

import (
	"strings"
	"testing"
)

// addressingWSDL is a one-operation WSDL with two ports on one binding;
// the markers are replaced by each case.
const addressingWSDL = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t" targetNamespace="urn:t"
  xmlns:wsp="http://www.w3.org/ns/ws-policy" xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"
  xmlns:wsaw="http://www.w3.org/2006/05/addressing/wsdl" xmlns:wsam="http://www.w3.org/2007/05/addressing/metadata">
  <types><xs:schema targetNamespace="urn:t"><xs:element name="Ping" type="xs:string"/><xs:element name="Pong" type="xs:string"/></xs:schema></types>
  <message name="In"><part name="p" element="tns:Ping"/></message>
  <message name="Out"><part name="p" element="tns:Pong"/></message>
  POLICY
  <portType name="PT"><operation name="Ping"><input message="tns:In" INPUT/><output message="tns:Out"/></operation></portType>
  <binding name="B" type="tns:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>BINDING
    <operation name="Ping"><soap:operation soapAction="urn:t/Ping"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
  </binding>
  <service name="S">
    <port name="Plain" binding="tns:B"><soap:address location="http://x/plain"/></port>
    <port name="Addressed" binding="tns:B"><soap:address location="http://x/a"/>PORT</port>
  </service>
</definitions>`

func TestAddressingDeclarations(t *testing.T) {
	tests := []struct {
		name             string
		replace          []string
		plain, addressed bool
		action           string
	}{
		{"none", nil, false, false, ""},
		{"binding UsingAddressing", []string{"BINDING", `<wsaw:UsingAddressing/>`}, true, true, ""},
		{"binding policy reference", []string{"BINDING", `<wsp:PolicyReference URI="#P"/>`,
			"POLICY", `<wsp:Policy wsu:Id="P"><wsam:Addressing><wsp:Policy/></wsam:Addressing></wsp:Policy>`}, true, true, ""},
		{"inline policy", []string{"BINDING", `<wsp:Policy><wsam:Addressing/></wsp:Policy>`}, true, true, ""},
		{"input action", []string{"INPUT", `wsam:Action="urn:t/PingRequest"`}, true, true, "urn:t/PingRequest"},
		{"wsaw input action", []string{"INPUT", `wsaw:Action="urn:t/PingIn"`}, true, true, "urn:t/PingIn"},
		{"port, 2005 draft", []string{"PORT", `<w:UsingAddressing xmlns:w="http://www.w3.org/2005/02/addressing/wsdl"/>`}, false, true, ""},
		{"unrelated policy", []string{"BINDING", `<wsp:Policy><wsam:Other/></wsp:Policy>`}, false, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pairs := append(tt.replace, "POLICY", "", "INPUT", "", "BINDING", "", "PORT", "")
			doc := strings.NewReplacer(pairs...).Replace(addressingWSDL)
			defs, err := ParseFiles(t.Context(), "a.wsdl", map[string][]byte{"a.wsdl": []byte(doc)})
			if err != nil {
				t.Fatal(err)
			}
			for port, want := range map[string]bool{"Plain": tt.plain, "Addressed": tt.addressed} {
				op, ok := defs.Operation("S", port, "Ping")
				if !ok {
					t.Fatalf("no Ping on %s", port)
				}
				if op.Addressing != want || op.InputAction != tt.action {
					t.Errorf("%s: addressing %v action %q, want %v %q", port, op.Addressing, op.InputAction, want, tt.action)
				}
			}
		})
	}
}
