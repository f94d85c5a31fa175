package wsdl

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/s2r-project/s2r/internal/xsd"
)

// FuzzParseWSDL imports arbitrary bytes as a WSDL (with the unit test
// files available for imports): it must return definitions or an error,
// never panic or hang. Namespace repair, the declarations added for serving
// and the reference walk run on the same input. Undeclared prefixes take
// the lenient path (a first pass, and a second when another file of the
// set binds a prefix: types/calc-types.xsd binds q).
func FuzzParseWSDL(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "unit", "*.wsdl"))
	lenient, _ := filepath.Glob(filepath.Join("testdata", "lenient", "*.wsdl"))
	multi, _ := filepath.Glob(filepath.Join("testdata", "multiport", "*.wsdl"))
	prefixes, _ := filepath.Glob(filepath.Join("testdata", "prefixes", "*.wsdl")) // undeclared prefixes
	for _, s := range append(append(append(seeds, lenient...), multi...), prefixes...) {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"><binding name="b" type="tns:p"><soap:binding/></binding></definitions>`))
	f.Add([]byte(`<description xmlns="http://www.w3.org/ns/wsdl"/>`))
	f.Add([]byte(`<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:t"><wsdl:types><q:schema targetNamespace="urn:t"><q:element name="E" type="q:string"/></q:schema></wsdl:types>` +
		`<wsdl:import location="types/calc-types.xsd"/><wsdl:message name="M"><wsdl:part name="p" element="tns:E"/></wsdl:message><wsdl:binding name="B" type="tns:P"><soap:binding/><acme:x acme:y="1"/></wsdl:binding></wsdl:definitions>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		files := map[string][]byte{
			"root.wsdl":            data,
			"types/calc-types.xsd": []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:q="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:calc:types"/>`),
			"common/shared.xsd":    []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"/>`),
		}
		_, _ = ParseFiles(context.Background(), "root.wsdl", files)
		_, _, _ = RepairNamespaces(map[string][]byte{"root.wsdl": data})
		_ = DeclareUndeclared(files)
		_, _ = References(context.Background(), xsd.FileSet(files), "root.wsdl")
	})
}

// FuzzFindRoot picks the root of a two-file set of arbitrary bytes (one
// named .wsdl, one .xml): it must never panic, and a root it returns is
// one of the files.
func FuzzFindRoot(f *testing.F) {
	f.Add([]byte(`<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"><import location="b.xml"/></definitions>`),
		[]byte(`<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"><service name="s"/></definitions>`))
	f.Add([]byte(`<definitions`), []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:include schemaLocation="a.wsdl"/></xs:schema>`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		root, err := FindRoot(map[string][]byte{"a.wsdl": a, "b.xml": b})
		if err == nil && root != "a.wsdl" && root != "b.xml" {
			t.Fatalf("root %q is not a file of the set", root)
		}
	})
}
