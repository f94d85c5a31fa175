package xmlstream

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParseTree(t *testing.T) {
	doc := `<?xml version="1.0"?>
<!-- comment -->
<wsdl:definitions xmlns:wsdl="urn:wsdl" xmlns:tns="urn:tns" targetNamespace="urn:tns">
  <wsdl:types>t1<!-- c -->t2<![CDATA[&]]></wsdl:types>
  <wsdl:message name="M" xmlns="urn:default"><part element="tns:E"/></wsdl:message>
</wsdl:definitions>`
	root, err := Parse([]byte(doc), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if root.Name != (Name{"urn:wsdl", "definitions"}) || root.Prefix != "wsdl" || root.Line != 3 || root.Parent != nil {
		t.Errorf("root = %+v", root)
	}
	if diff := cmp.Diff(map[string]string{"wsdl": "urn:wsdl", "tns": "urn:tns"}, root.NS); diff != "" {
		t.Errorf("NS (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Attr{{Name: Name{Local: "targetNamespace"}, Value: "urn:tns"}}, root.Attrs); diff != "" {
		t.Errorf("Attrs (-want +got):\n%s", diff)
	}
	if len(root.Children) != 2 {
		t.Fatalf("children = %d", len(root.Children))
	}
	types := root.Child("urn:wsdl", "types")
	if types == nil || types.Text != "t1t2&" || types.Line != 4 || types.Parent != root {
		t.Errorf("types = %+v", types)
	}
	msg := root.ChildrenNamed("urn:wsdl", "message")
	if len(msg) != 1 {
		t.Fatalf("messages = %d", len(msg))
	}
	part := msg[0].Child("urn:default", "part")
	if part == nil {
		t.Fatal("part not found")
	}
	if v, ok := part.Attr("", "element"); !ok || v != "tns:E" {
		t.Errorf("element attr = %q %v", v, ok)
	}
	if n, err := part.ResolveQName("tns:E"); err != nil || n != (Name{"urn:tns", "E"}) {
		t.Errorf("ResolveQName = %v %v", n, err)
	}
	if _, err := part.ResolveQName("nope:E"); !errors.Is(err, ErrUndeclaredPrefix) {
		t.Errorf("ResolveQName undeclared: %v", err)
	}
	want := map[string]string{"xml": NSXML, "wsdl": "urn:wsdl", "tns": "urn:tns", "": "urn:default"}
	if diff := cmp.Diff(want, part.InScope()); diff != "" {
		t.Errorf("InScope (-want +got):\n%s", diff)
	}
	if uri, ok := part.LookupPrefix("xml"); !ok || uri != NSXML {
		t.Errorf("LookupPrefix(xml) = %q", uri)
	}
	if _, ok := root.LookupPrefix(""); ok {
		t.Errorf("root has no default namespace")
	}
	if got := msg[0].TrimmedText(); got != "" {
		t.Errorf("TrimmedText = %q", got)
	}
}

func TestParseErrors(t *testing.T) {
	_, err := Parse([]byte(`<a><b></a>`), Limits{})
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("error = %v", err)
	}
	root, err := Parse([]byte(`<a xmlns:p="u"><p:b xmlns=""/></a>`), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"xml": NSXML, "p": "u"}, root.Children[0].InScope(), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("InScope (-want +got):\n%s", diff)
	}
}

func TestParseTextManyPieces(t *testing.T) {
	doc := "<a>" + strings.Repeat("x<!---->", 10000) + "<b>in b</b>y</a>"
	root, err := Parse([]byte(doc), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Repeat("x", 10000) + "y"; root.Text != want || root.Children[0].Text != "in b" {
		t.Errorf("text = %d bytes, child %q", len(root.Text), root.Children[0].Text)
	}
}

// TestTreeSlicesIndependent checks that the shared blocks behind the tree
// never let an append on one element change another.
func TestTreeSlicesIndependent(t *testing.T) {
	root, err := Parse([]byte(`<r><a x="1"><c/></a><b y="2"><d/></b></r>`), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	a, b := root.Children[0], root.Children[1]
	a.Attrs = append(a.Attrs, Attr{Name: Name{Local: "z"}})
	a.Children = append(a.Children, &Element{})
	if b.Attrs[0].Name.Local != "y" || b.Children[0].Name.Local != "d" || len(root.Children) != 2 {
		t.Errorf("append on one element changed another: %+v %+v", b.Attrs, b.Children[0])
	}
}
