package xsd

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/tests/filetree"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

var update = flag.Bool("update", false, "rewrite golden files")

// loadTestdata reads every file under testdata/schemas keyed by its path
// relative to that folder.
func loadTestdata(t *testing.T) map[string][]byte {
	t.Helper()
	return filetree.Read(t, filepath.Join("testdata", "schemas"))
}

// TestCompileGolden compiles each top-level test schema (with the files it
// imports) and compares the dump of every global component with its
// golden file.
func TestCompileGolden(t *testing.T) {
	files := loadTestdata(t)
	for _, name := range []string{"content.xsd", "derivation.xsd", "facets.xsd", "recursion.xsd", "substitution.xsd", "soaparray.xsd", "qualified.xsd"} {
		t.Run(name, func(t *testing.T) {
			s := NewSet(FileSet(files), xmlstream.Limits{})
			if err := s.LoadSchema(t.Context(), name); err != nil {
				t.Fatal(err)
			}
			if err := s.Finish(t.Context()); err != nil {
				t.Fatal(err)
			}
			got, err := dumpSet(s)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "golden", strings.TrimSuffix(name, ".xsd")+".txt")
			compareGolden(t, golden, got)
		})
	}
}

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

func TestRecursionIsCyclic(t *testing.T) {
	s, err := CompileSchemas(loadTestdata(t))
	if err != nil {
		t.Fatal(err)
	}
	node, err := s.Type(xmlstream.Name{Space: "urn:rec", Local: "Node"})
	if err != nil {
		t.Fatal(err)
	}
	child := node.Content.Children[1].Element
	if child.Type != node {
		t.Errorf("child of Node has type %p, want Node itself %p", child.Type, node)
	}
	sub, err := s.Type(xmlstream.Name{Space: "urn:rec", Local: "SubFolder"})
	if err != nil {
		t.Fatal(err)
	}
	folder := sub.Content.Children[1].Element.Type
	if folder.Content.Children[0].Element.Type.Derived[0] != sub {
		t.Errorf("Entry.Derived does not point back to SubFolder")
	}
}

func TestBuiltinKinds(t *testing.T) {
	tests := []struct {
		local string
		kind  JSONKind
	}{
		{"int", JSONInteger}, {"long", JSONInteger}, {"unsignedLong", JSONInteger}, {"short", JSONInteger},
		{"byte", JSONInteger}, {"nonNegativeInteger", JSONInteger}, {"positiveInteger", JSONInteger},
		{"integer", JSONInteger}, {"unsignedByte", JSONInteger}, {"negativeInteger", JSONInteger},
		{"decimal", JSONNumber}, {"float", JSONNumber}, {"double", JSONNumber},
		{"boolean", JSONBoolean}, {"string", JSONString}, {"dateTime", JSONString},
		{"base64Binary", JSONString}, {"QName", JSONString}, {"duration", JSONString}, {"anyURI", JSONString},
	}
	s := NewSet(nil, xmlstream.Limits{})
	for _, tt := range tests {
		t.Run(tt.local, func(t *testing.T) {
			typ, err := s.Type(xmlstream.Name{Space: NSXSD, Local: tt.local})
			if err != nil {
				t.Fatal(err)
			}
			if typ.Simple.Kind != tt.kind || typ.Simple.Builtin != tt.local {
				t.Errorf("%s: kind %d builtin %q, want %d %q", tt.local, typ.Simple.Kind, typ.Simple.Builtin, tt.kind, tt.local)
			}
		})
	}
	for local := range builtinKinds { // every built-in resolves
		if _, err := s.Type(xmlstream.Name{Space: NSXSD, Local: local}); err != nil {
			t.Errorf("%s: %v", local, err)
		}
	}
}

// TestCompileErrors pairs bad schemas with the exact error they produce.
func TestCompileErrors(t *testing.T) {
	const head = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:e" targetNamespace="urn:e">`
	tests := []struct {
		name  string
		files map[string][]byte
		want  string
	}{
		{"unresolved type", map[string][]byte{"a.xsd": []byte(head + `
<xs:element name="x" type="t:Missing"/></xs:schema>`)}, `a.xsd:2: unresolved type reference {urn:e}Missing`},
		{"undeclared prefix in QName", map[string][]byte{"a.xsd": []byte(head + `
<xs:element name="x" type="zz:T"/></xs:schema>`)}, `a.xsd:2: unresolved type reference {urn:s2r:undeclared-prefix:zz}T`},
		{"circular group", map[string][]byte{"a.xsd": []byte(head + `
<xs:group name="g"><xs:sequence><xs:group ref="t:g"/></xs:sequence></xs:group>
<xs:complexType name="T"><xs:group ref="t:g"/></xs:complexType></xs:schema>`)}, `a.xsd:2: group {urn:e}g contains itself`},
		{"circular derivation", map[string][]byte{"a.xsd": []byte(head + `
<xs:complexType name="A"><xs:complexContent><xs:extension base="t:B"/></xs:complexContent></xs:complexType>
<xs:complexType name="B"><xs:complexContent><xs:extension base="t:A"/></xs:complexContent></xs:complexType></xs:schema>`)}, `a.xsd:2: type {urn:e}A derives from itself`},
		{"bad maxOccurs", map[string][]byte{"a.xsd": []byte(head + `
<xs:complexType name="A"><xs:sequence><xs:element name="e" type="xs:string" maxOccurs="many"/></xs:sequence></xs:complexType></xs:schema>`)}, `a.xsd:2: invalid maxOccurs "many"`},
		{"missing include", map[string][]byte{"a.xsd": []byte(head + `
<xs:include schemaLocation="nope.xsd"/></xs:schema>`)}, `a.xsd:2: cannot load "nope.xsd": nope.xsd: not found`},
		{"escaping import", map[string][]byte{"dir/a.xsd": []byte(head + `
<xs:import namespace="urn:x" schemaLocation="../../x.xsd"/></xs:schema>`)}, `dir/a.xsd:2: cannot load "../x.xsd": ../x.xsd: location escapes the file set root`},
		{"not xml", map[string][]byte{"a.xsd": []byte("<xs:schema")}, `a.xsd:1: not well-formed XML: `},
		{"wrong root", map[string][]byte{"a.xsd": []byte("<a/>")}, `a.xsd:1: expected an xs:schema root element, found a`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := CompileSchemas(tt.files)
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error %q, want prefix %q", err, tt.want)
			}
			if _, ok := AsImportError(err); !ok {
				t.Errorf("error %T is not an ImportError", err)
			}
		})
	}
}

func TestResolveLocation(t *testing.T) {
	tests := []struct{ base, ref, want string }{
		{"a/b.wsdl", "c.xsd", "a/c.xsd"},
		{"a/b.wsdl", "../c.xsd", "c.xsd"},
		{"a/b.wsdl", "./d/c.xsd", "a/d/c.xsd"},
		{"b.wsdl", "../c.xsd", "../c.xsd"},
		{"http://h/x/y.wsdl", "z.xsd", "http://h/x/z.xsd"},
		{"http://h/x/y.wsdl", "../z.xsd", "http://h/z.xsd"},
		{"a/b.wsdl", "https://h/z.xsd", "https://h/z.xsd"},
		{"a/b.wsdl", "/etc/passwd", "/etc/passwd"},
	}
	for _, tt := range tests {
		if got := ResolveLocation(tt.base, tt.ref); got != tt.want {
			t.Errorf("ResolveLocation(%q, %q) = %q, want %q", tt.base, tt.ref, got, tt.want)
		}
	}
}

func TestFileSetRefusesAbsolute(t *testing.T) {
	fs := FileSet{"a.xsd": []byte("<x/>")}
	for _, loc := range []string{"/etc/passwd", `C:\x.xsd`, "../a.xsd"} {
		if _, _, err := fs.Load(t.Context(), loc); err == nil {
			t.Errorf("Load(%q) succeeded", loc)
		}
	}
	fs["my types.xsd"] = []byte("<y/>")
	if _, resolved, err := fs.Load(t.Context(), "my%20types.xsd"); err != nil || resolved != "my types.xsd" {
		t.Errorf("Load(my%%20types.xsd) = %q, %v", resolved, err)
	}
	if _, resolved, err := fs.Load(t.Context(), "./a.xsd"); err != nil || resolved != "a.xsd" {
		t.Errorf("Load(./a.xsd) = %q, %v", resolved, err)
	}
}

func TestBuiltinSchemasCompile(t *testing.T) {
	for _, w := range wellKnownSchemas {
		t.Run(w.file, func(t *testing.T) {
			s := NewSet(nil, xmlstream.Limits{})
			if err := s.LoadSchema(t.Context(), w.urls[0]); err != nil {
				t.Fatal(err)
			}
			if err := s.CompileAll(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestGroupsAreShared compiles 30 nested groups that each reference the
// next twice: expanded naively that is 2^30 particles.
func TestGroupsAreShared(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:g" targetNamespace="urn:g">`)
	for i := range 30 {
		fmt.Fprintf(&b, `<xs:group name="g%d"><xs:sequence><xs:group ref="t:g%d"/><xs:group ref="t:g%d"/></xs:sequence></xs:group>`, i, i+1, i+1)
	}
	b.WriteString(`<xs:group name="g30"><xs:sequence><xs:element name="leaf" type="xs:string"/></xs:sequence></xs:group>`)
	b.WriteString(`<xs:element name="root"><xs:complexType><xs:group ref="t:g0"/></xs:complexType></xs:element></xs:schema>`)
	s, err := CompileSchemas(map[string][]byte{"a.xsd": []byte(b.String())})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Element(xmlstream.Name{Space: "urn:g", Local: "root"}); err != nil {
		t.Fatal(err)
	}
}

// TestImportFallbacks covers a well-known namespace whose local copy is
// missing (built-in used, with a warning) and xs:redefine (read as an
// include, with a warning).
func TestImportFallbacks(t *testing.T) {
	files := map[string][]byte{
		"a.xsd": []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:enc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:t="urn:a" targetNamespace="urn:a">
<xs:import namespace="http://schemas.xmlsoap.org/soap/encoding/" schemaLocation="local/soapenc.xsd"/>
<xs:redefine schemaLocation="b.xsd"/>
<xs:element name="e"><xs:complexType><xs:sequence><xs:element name="s" type="enc:string"/><xs:element name="b" type="t:B"/></xs:sequence></xs:complexType></xs:element>
</xs:schema>`),
		"b.xsd": []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:simpleType name="B"><xs:restriction base="xs:byte"/></xs:simpleType></xs:schema>`),
	}
	s, err := CompileSchemas(files)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`a.xsd:2: cannot load "local/soapenc.xsd": local/soapenc.xsd: not found; using the built-in schema of http://schemas.xmlsoap.org/soap/encoding/`,
		"a.xsd:3: xs:redefine treated as xs:include",
	}
	if diff := cmp.Diff(want, s.Warnings()); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	e, err := s.Element(xmlstream.Name{Space: "urn:a", Local: "e"})
	if err != nil {
		t.Fatal(err)
	}
	if k := e.Type.Content.Children[1].Element.Type.Simple.Kind; k != JSONInteger {
		t.Errorf("redefined B has kind %d, want integer", k)
	}
}

func TestSOAPEncArrayItself(t *testing.T) {
	s := NewSet(nil, xmlstream.Limits{})
	for _, ns := range []string{NSSOAPEnc, NSSOAP12Enc} {
		typ, err := s.Type(xmlstream.Name{Space: ns, Local: "Array"})
		if err != nil {
			t.Fatal(err)
		}
		if typ.ArrayItem == nil || typ.ArrayItem.Type.Name.Local != "anyType" {
			t.Errorf("%s Array: ArrayItem %+v, want an anyType item", ns, typ.ArrayItem)
		}
	}
}

// TestDeepDerivationChain gives a clear error for a derivation chain
// deeper than the compiler accepts, instead of exhausting the stack.
func TestDeepDerivationChain(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:d" targetNamespace="urn:d">`)
	b.WriteString(`<xs:complexType name="T0"><xs:sequence><xs:element name="x" type="xs:int"/></xs:sequence></xs:complexType>`)
	for i := 1; i <= 600; i++ {
		fmt.Fprintf(&b, "\n"+`<xs:complexType name="T%d"><xs:complexContent><xs:extension base="t:T%d"/></xs:complexContent></xs:complexType>`, i, i-1)
	}
	b.WriteString(`<xs:element name="e" type="t:T600"/><xs:complexType name="Other"><xs:sequence><xs:element name="y" type="xs:int"/></xs:sequence></xs:complexType></xs:schema>`)
	s := NewSet(FileSet{"a.xsd": []byte(b.String())}, xmlstream.Limits{})
	if err := s.LoadSchema(t.Context(), "a.xsd"); err != nil {
		t.Fatal(err)
	}
	_, err := s.Element(xmlstream.Name{Space: "urn:d", Local: "e"})
	if err == nil || !strings.Contains(err.Error(), "schema nesting deeper than 512 levels") {
		t.Fatalf("error %v, want the nesting limit", err)
	}
	if _, err := s.Type(xmlstream.Name{Space: "urn:d", Local: "Other"}); err != nil {
		t.Errorf("an unrelated type after the failure: %v", err)
	}
	// T3 lists the failed deep types in Derived: its lookup reports them.
	if _, err := s.Type(xmlstream.Name{Space: "urn:d", Local: "T3"}); err == nil {
		t.Error("T3 reaches types that failed but its lookup succeeded")
	}
}
