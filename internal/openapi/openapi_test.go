package openapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/openapi"
	"github.com/s2r-project/s2r/internal/wsdl"
)

var update = flag.Bool("update", false, "rewrite golden files")

// calcWSDL has a fault, a named complex type called S2RError (to collide
// with the S2R components), a non-ASCII type name and a one-way
// operation.
const calcWSDL = `<?xml version="1.0"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:calc" targetNamespace="urn:calc">
<wsdl:types><xs:schema targetNamespace="urn:calc" elementFormDefault="qualified">
<xs:complexType name="S2RError"><xs:sequence><xs:element name="reason" type="xs:string"/></xs:sequence></xs:complexType>
<xs:complexType name="Größe"><xs:sequence><xs:element name="v" type="xs:decimal"/></xs:sequence></xs:complexType>
<xs:element name="Add"><xs:complexType><xs:sequence><xs:element name="a" type="xs:int"/><xs:element name="b" type="xs:int"/>
<xs:element name="size" type="tns:Größe" minOccurs="0"/><xs:element name="lastError" type="tns:S2RError" minOccurs="0"/></xs:sequence></xs:complexType></xs:element>
<xs:element name="AddResponse"><xs:complexType><xs:sequence><xs:element name="result" type="xs:int"/>
<xs:element name="tags" type="xs:string" minOccurs="0" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>
<xs:element name="CalcFault" type="tns:S2RError"/>
<xs:element name="Ping"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
</xs:schema></wsdl:types>
<wsdl:message name="AddIn"><wsdl:part name="parameters" element="tns:Add"/></wsdl:message>
<wsdl:message name="AddOut"><wsdl:part name="parameters" element="tns:AddResponse"/></wsdl:message>
<wsdl:message name="AddFault"><wsdl:part name="fault" element="tns:CalcFault"/></wsdl:message>
<wsdl:message name="PingIn"><wsdl:part name="parameters" element="tns:Ping"/></wsdl:message>
<wsdl:portType name="CalcPT">
<wsdl:operation name="Add"><wsdl:input message="tns:AddIn"/><wsdl:output message="tns:AddOut"/><wsdl:fault name="CalcFault" message="tns:AddFault"/></wsdl:operation>
<wsdl:operation name="Ping"><wsdl:input message="tns:PingIn"/></wsdl:operation>
</wsdl:portType>
<wsdl:binding name="CalcSoap" type="tns:CalcPT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
<wsdl:operation name="Add"><soap:operation soapAction="urn:Add"/><wsdl:input><soap:body use="literal"/></wsdl:input>
<wsdl:output><soap:body use="literal"/></wsdl:output><wsdl:fault name="CalcFault"><soap:fault name="CalcFault" use="literal"/></wsdl:fault></wsdl:operation>
<wsdl:operation name="Ping"><soap:operation soapAction="urn:Ping"/><wsdl:input><soap:body use="literal"/></wsdl:input></wsdl:operation>
</wsdl:binding>
<wsdl:service name="Calculator"><wsdl:port name="CalcSoap" binding="tns:CalcSoap"><soap:address location="http://127.0.0.1:1/calc"/></wsdl:port></wsdl:service>
</wsdl:definitions>`

func calcInput(t *testing.T) openapi.Input {
	t.Helper()
	defs, err := wsdl.ParseFiles(context.Background(), "calc.wsdl", map[string][]byte{"calc.wsdl": []byte(calcWSDL)})
	if err != nil {
		t.Fatal(err)
	}
	in, ok := corpusInput(t, defs)
	if !ok {
		t.Fatal("calc WSDL did not draft")
	}
	in.PublicBaseURL = "https://gw.example.com/"
	return in
}

func TestGolden(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(*openapi.Input)
	}{
		{"calc", func(*openapi.Input) {}},
		{"calc-shaped", func(in *openapi.Input) {
			in.Service.FaultDetailExposureMode = model.FaultDetailSafe
			in.Service.EnvelopeWrapOverride = json.RawMessage(`{"dataField":"data","include":{"correlationId":true,"timestamp":true,"serviceKey":false}}`)
			in.Operations[0].ExecutionMode = model.ExecutionAsyncCallback
			in.Operations[1].RestMethod, in.Operations[1].RestPath = "GET", "/items/{itemId}/ping"
			in.PublicBaseURL = ""
		}},
		{"calc-error-shape", func(in *openapi.Input) {
			in.Service.ErrorShapeOverride = json.RawMessage(`{"status":"${status}","problem":{"code":"${code}"}}`)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := calcInput(t)
			tt.edit(&in)
			checkDocument(t, in)
			doc, err := openapi.Generate(in)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", tt.name+".golden.json")
			if *update {
				if err := os.WriteFile(golden, doc, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(doc, want) {
				t.Errorf("document differs from %s (run with -update after checking)", golden)
			}
			if strings.Contains(string(doc), "x-s2r-contract/") {
				t.Error("a contract reference was not rewritten")
			}
		})
	}
}

func TestRouteConflict(t *testing.T) {
	in := calcInput(t)
	in.Operations[1].RestMethod, in.Operations[1].RestPath = in.Operations[0].RestMethod, in.Operations[0].RestPath
	if _, err := openapi.Generate(in); !errors.Is(err, openapi.ErrRouteConflict) {
		t.Errorf("err = %v, want ErrRouteConflict", err)
	}
}
