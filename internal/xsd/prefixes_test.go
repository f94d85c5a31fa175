package xsd

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// TestChoosePrefix covers the rules in order: tns, bound once in the
// import set, the conventional table, the placeholder; a prefix bound to
// several namespaces falls through to the table.
func TestChoosePrefix(t *testing.T) {
	bound := PrefixBindings{
		"q":   {"urn:q": "b.xsd:3"},
		"s":   {"urn:not-xsd": "b.xsd:4"},
		"tns": {"urn:other": "b.xsd:2"},
		"two": {"urn:a": "a.xsd:1", "urn:b": "b.xsd:1"},
		"xs":  {"urn:x1": "a.xsd:1", "urn:x2": "b.xsd:1"},
	}
	tests := []struct {
		prefix, tns string
		want        PrefixChoice
	}{
		{"tns", "urn:mine", PrefixChoice{URI: "urn:mine", Rule: PrefixTargetNamespace}},
		{"this", "urn:mine", PrefixChoice{URI: "urn:mine", Rule: PrefixTargetNamespace}},
		{"tns", "", PrefixChoice{URI: "urn:other", Rule: PrefixBoundInSet, Where: "b.xsd:2"}},
		{"q", "urn:mine", PrefixChoice{URI: "urn:q", Rule: PrefixBoundInSet, Where: "b.xsd:3"}},
		{"s", "", PrefixChoice{URI: "urn:not-xsd", Rule: PrefixBoundInSet, Where: "b.xsd:4"}},
		{"xs", "", PrefixChoice{URI: NSXSD, Rule: PrefixConventional, Assumes: "XML Schema (2001)", Ambiguous: 2}},
		{"soap12", "", PrefixChoice{URI: "http://schemas.xmlsoap.org/wsdl/soap12/", Rule: PrefixConventional, Assumes: "a SOAP 1.2 binding"}},
		{"xmime", "", PrefixChoice{URI: NSXMIME, Rule: PrefixConventional}},
		{"two", "", PrefixChoice{URI: "urn:s2r:undeclared-prefix:two", Rule: PrefixUnknown, Ambiguous: 2}},
		{"acme", "", PrefixChoice{URI: "urn:s2r:undeclared-prefix:acme", Rule: PrefixUnknown}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, ChoosePrefix(tt.prefix, tt.tns, bound)); diff != "" {
			t.Errorf("%s (tns %q) (-want +got):\n%s", tt.prefix, tt.tns, diff)
		}
	}
	w := ChoosePrefix("two", "", bound).Warning("a.wsdl", 7, "two")
	if want := `a.wsdl:7: undeclared namespace prefix "two": no known namespace (bound to 2 different namespaces elsewhere in the import set): read as "urn:s2r:undeclared-prefix:two"`; !strings.HasPrefix(w, want) {
		t.Errorf("warning %q", w)
	}
}

// TestPrefixesParse: Parse reads undeclared prefixes of element and
// attribute names by the rules, declares them on the root (so QName
// values resolve alike) and warns once per prefix at its first use; a nil
// Prefixes is strict.
func TestPrefixesParse(t *testing.T) {
	doc := []byte(`<s:schema targetNamespace="urn:t" xmlns:q="urn:q">
<s:element name="e" type="s:string" xmime:expectedContentTypes="x/y"/>
<s:element name="f" type="tns:T"/><s:element name="g" type="q:G"/><acme:thing/></s:schema>`)
	px := NewPrefixes(nil)
	root, err := px.Parse(doc, "a.xsd", xmlstream.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if root.Name != (xmlstream.Name{Space: NSXSD, Local: "schema"}) || root.Children[0].Attrs[2].Name != (xmlstream.Name{Space: NSXMIME, Local: "expectedContentTypes"}) {
		t.Errorf("names %v %v", root.Name, root.Children[0].Attrs)
	}
	if root.Children[3].Name.Space != "urn:s2r:undeclared-prefix:acme" {
		t.Errorf("acme:thing in %q", root.Children[3].Name.Space)
	}
	for _, tt := range []struct {
		el   int
		v    string
		want xmlstream.Name
	}{
		{0, "s:string", xmlstream.Name{Space: NSXSD, Local: "string"}},
		{1, "tns:T", xmlstream.Name{Space: "urn:t", Local: "T"}},
		{2, "q:G", xmlstream.Name{Space: "urn:q", Local: "G"}},
	} {
		if n, err := px.ResolveQName("a.xsd", root.Children[tt.el], tt.v); err != nil || n != tt.want {
			t.Errorf("ResolveQName(%q) = %v, %v", tt.v, n, err)
		}
	}
	want := []string{
		`a.xsd:1: undeclared namespace prefix "s": read as "http://www.w3.org/2001/XMLSchema", its conventional namespace: XML Schema (2001) assumed`,
		`a.xsd:2: undeclared namespace prefix "xmime": read as "http://www.w3.org/2005/05/xmlmime", its conventional namespace`,
		`a.xsd:3: undeclared namespace prefix "acme": no known namespace: read as "urn:s2r:undeclared-prefix:acme", so elements named with it are unknown extensions and names referenced through it do not resolve`,
		`a.xsd:3: undeclared namespace prefix "tns": read as "urn:t", the document's targetNamespace`,
	}
	if diff := cmp.Diff(want, px.Warnings()); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	// The declarations Parse added do not count as bindings of the set.
	if b := px.Bindings(); len(b) != 1 || b["q"]["urn:q"] != "a.xsd:1" {
		t.Errorf("bindings %v", b)
	}
	var strict *Prefixes
	if _, err := strict.Parse(doc, "a.xsd", xmlstream.Limits{}); err == nil || !strings.Contains(err.Error(), `a.xsd:1: not well-formed XML: `) {
		t.Errorf("strict Parse: %v", err)
	}
	if strict.Warnings() != nil {
		t.Error("a nil Prefixes has warnings")
	}
}

// TestCompileSchemasUndeclaredPrefixes: a schema-only compile reads
// undeclared prefixes too, across files: b.xsd's s: is read as the
// namespace a.xsd binds s to (a second pass), with a warning.
func TestCompileSchemasUndeclaredPrefixes(t *testing.T) {
	files := map[string][]byte{
		"a.xsd": []byte(`<s:schema xmlns:s="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:a"><s:include schemaLocation="b.xsd"/></s:schema>`),
		"b.xsd": []byte(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:a"><k:element name="E" type="k:int"/></xs:schema>`),
		"c.xsd": []byte(`<x:schema xmlns:x="http://www.w3.org/2001/XMLSchema" xmlns:k="http://www.w3.org/2001/XMLSchema"/>`),
	}
	s, err := CompileSchemas(files)
	if err != nil {
		t.Fatal(err)
	}
	e, err := s.Element(xmlstream.Name{Space: "urn:a", Local: "E"})
	if err != nil || e.Type.Simple.Builtin != "int" {
		t.Fatalf("E: %v %+v", err, e)
	}
	want := []string{`b.xsd:1: undeclared namespace prefix "k": read as "http://www.w3.org/2001/XMLSchema", the namespace it is bound to at c.xsd:1`}
	if diff := cmp.Diff(want, s.Warnings()); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// TestRunPasses: a pass that decided a prefix otherwise than the whole
// set's bindings read it runs again with them; at most three passes.
func TestRunPasses(t *testing.T) {
	passes := 0
	got, err := RunPasses(func(px *Prefixes) (string, error) {
		passes++
		a, _ := px.Parse([]byte(`<p:a/>`), "a.xml", xmlstream.Limits{})
		_, _ = px.Parse([]byte(`<b xmlns:p="urn:p"/>`), "b.xml", xmlstream.Limits{})
		return a.Name.Space, nil
	})
	if err != nil || got != "urn:p" || passes != 2 {
		t.Errorf("RunPasses = %q, %v after %d passes", got, err, passes)
	}
	passes = 0
	_, _ = RunPasses(func(px *Prefixes) (int, error) {
		passes++
		_, _ = px.Parse([]byte(`<p:a/>`), "a.xml", xmlstream.Limits{})
		_, _ = px.Parse([]byte(`<b xmlns:p="urn:`+strings.Repeat("p", passes)+`"/>`), "b.xml", xmlstream.Limits{})
		return 0, nil
	})
	if passes != maxPrefixPasses {
		t.Errorf("%d passes for bindings that never settle", passes)
	}
}

// TestMemoLoader: each location is loaded once; a load cut by the end of
// its context is not remembered.
func TestMemoLoader(t *testing.T) {
	n := 0
	m := NewMemoLoader(loaderFunc(func(ctx context.Context, loc string) ([]byte, string, error) {
		n++
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		return []byte(loc), loc, nil
	}))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := m.Load(ctx, "a"); err == nil {
		t.Fatal("no error with an ended context")
	}
	for range 3 {
		if b, _, err := m.Load(context.Background(), "a"); err != nil || string(b) != "a" {
			t.Fatalf("Load = %q, %v", b, err)
		}
	}
	if n != 2 {
		t.Errorf("loaded %d times", n)
	}
}

type loaderFunc func(ctx context.Context, loc string) ([]byte, string, error)

func (f loaderFunc) Load(ctx context.Context, loc string) ([]byte, string, error) { return f(ctx, loc) }

// TestPrefixWarningsBounded: thousands of distinct undeclared prefixes
// give a bounded list of warnings.
func TestPrefixWarningsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("<r>")
	for i := range 5000 {
		fmt.Fprintf(&b, "<p%d:x/>", i)
	}
	b.WriteString("</r>")
	px := NewPrefixes(nil)
	if _, err := px.Parse([]byte(b.String()), "a.xml", xmlstream.Limits{}); err != nil {
		t.Fatal(err)
	}
	w := px.Warnings()
	if len(w) != maxPrefixWarnings+1 || w[len(w)-1] != "4900 more undeclared namespace prefixes read by the same rules, not listed" {
		t.Errorf("%d warnings, last %q", len(w), w[len(w)-1])
	}
}
