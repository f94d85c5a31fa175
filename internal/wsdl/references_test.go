package wsdl

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/xsd"
)

func TestReferences(t *testing.T) {
	files := map[string][]byte{
		"a.wsdl": []byte(`<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:a">
<import namespace="urn:b" location="sub/b.wsdl"/>
<types><xs:schema targetNamespace="urn:a">
<xs:import namespace="http://schemas.xmlsoap.org/soap/encoding/"/>
<xs:import namespace="urn:x" schemaLocation="http://example.com/x.xsd"/>
</xs:schema></types></definitions>`),
		"sub/b.wsdl": []byte(`<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:b">
<types><xs:schema targetNamespace="urn:b"><xs:include schemaLocation="../c.xsd"/><xs:include schemaLocation="missing.xsd"/></xs:schema></types>
<import namespace="urn:a" location="../a.wsdl"/></definitions>`),
		"c.xsd": []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"/>`),
	}
	got, err := References(t.Context(), xsd.FileSet(files), "a.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	want := []Reference{
		{From: "a.wsdl", Line: 2, Kind: "wsdl:import", Namespace: "urn:b", Location: "sub/b.wsdl", Resolved: "sub/b.wsdl"},
		{From: "a.wsdl", Line: 4, Kind: "xs:import", Namespace: "http://schemas.xmlsoap.org/soap/encoding/", Resolved: "builtin:soapenc11.xsd", Builtin: true},
		{From: "a.wsdl", Line: 5, Kind: "xs:import", Namespace: "urn:x", Location: "http://example.com/x.xsd", Resolved: "http://example.com/x.xsd", Error: "http://example.com/x.xsd: not found"},
		{From: "sub/b.wsdl", Line: 2, Kind: "xs:include", Location: "../c.xsd", Resolved: "c.xsd"},
		{From: "sub/b.wsdl", Line: 2, Kind: "xs:include", Location: "missing.xsd", Resolved: "sub/missing.xsd", Error: "sub/missing.xsd: not found"},
		{From: "sub/b.wsdl", Line: 3, Kind: "wsdl:import", Namespace: "urn:a", Location: "../a.wsdl", Resolved: "a.wsdl"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("references (-want +got):\n%s", diff)
	}
}
