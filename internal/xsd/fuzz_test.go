package xsd

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzCompileSchema compiles arbitrary bytes as a schema: it must return
// a Set or an error, never panic or hang.
func FuzzCompileSchema(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "schemas", "*.xsd"))
	for _, s := range seeds {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:x" targetNamespace="urn:x"><xs:group name="g"><xs:sequence><xs:group ref="t:g"/></xs:sequence></xs:group><xs:element name="e"><xs:complexType><xs:group ref="t:g"/></xs:complexType></xs:element></xs:schema>`))
	// Undeclared prefixes: conventional (s:), bound in b.xsd (k:), unknown
	// (acme:) in a content model, an attribute list and a QName value.
	f.Add([]byte(`<s:schema targetNamespace="urn:x"><s:include schemaLocation="b.xsd"/><s:complexType name="T"><s:sequence><k:element name="a" type="k:int"/>` +
		`<acme:element name="b"/></s:sequence><acme:attribute name="c"/></s:complexType><s:element name="e" type="acme:T"/></s:schema>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = CompileSchemas(map[string][]byte{"a.xsd": data,
			"b.xsd": []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:k="http://www.w3.org/2001/XMLSchema"/>`)})
	})
}
