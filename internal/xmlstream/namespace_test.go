package xmlstream

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNamespaces(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"default", `<a xmlns="urn:a"><b/></a>`,
			[]string{`start {urn:a}a {http://www.w3.org/2000/xmlns/}xmlns="urn:a"`, "start {urn:a}b", "end {urn:a}b", "end {urn:a}a"}},
		{"undeclare default", `<a xmlns="urn:a"><b xmlns=""/></a>`,
			[]string{`start {urn:a}a {http://www.w3.org/2000/xmlns/}xmlns="urn:a"`, `start b {http://www.w3.org/2000/xmlns/}xmlns=""`, "end b", "end {urn:a}a"}},
		{"redeclare", `<p:a xmlns:p="urn:1"><p:b xmlns:p="urn:2"/><p:c/></p:a>`,
			[]string{`start {urn:1}a {http://www.w3.org/2000/xmlns/}p="urn:1"`, `start {urn:2}b {http://www.w3.org/2000/xmlns/}p="urn:2"`, "end {urn:2}b", "start {urn:1}c", "end {urn:1}c", "end {urn:1}a"}},
		{"unprefixed attr has no namespace", `<a xmlns="urn:a" x="1"/>`,
			[]string{`start {urn:a}a {http://www.w3.org/2000/xmlns/}xmlns="urn:a" x="1"`, "end {urn:a}a"}},
		{"xml prefix", `<a xml:lang="en"/>`,
			[]string{`start a {http://www.w3.org/XML/1998/namespace}lang="en"`, "end a"}},
		{"declared later in same tag", `<p:a p:x="1" xmlns:p="urn:p"/>`,
			[]string{`start {urn:p}a {urn:p}x="1" {http://www.w3.org/2000/xmlns/}p="urn:p"`, "end {urn:p}a"}},
		{"xml prefix bound explicitly", `<a xmlns:xml="http://www.w3.org/XML/1998/namespace"/>`,
			[]string{`start a {http://www.w3.org/2000/xmlns/}xml="http://www.w3.org/XML/1998/namespace"`, "end a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readAll(tt.doc, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("tokens (-want +got):\n%s", diff)
			}
		})
	}
}

func TestResolveQName(t *testing.T) {
	doc := `<a xmlns="urn:default" xmlns:tns="urn:tns"><b xmlns:tns="urn:inner" xmlns:x="urn:x"><c/></b><d xmlns=""/></a>`
	tests := []struct {
		elem, qname string
		want        Name
		err         error
	}{
		{"a", "tns:X", Name{"urn:tns", "X"}, nil},
		{"a", "X", Name{"urn:default", "X"}, nil},
		{"a", "  tns:X\n", Name{"urn:tns", "X"}, nil},
		{"a", "xml:lang", Name{NSXML, "lang"}, nil},
		{"a", "x:Y", Name{}, ErrUndeclaredPrefix},
		{"c", "tns:X", Name{"urn:inner", "X"}, nil},
		{"c", "x:Y", Name{"urn:x", "Y"}, nil},
		{"d", "X", Name{"", "X"}, nil},
		{"d", "tns:X", Name{"urn:tns", "X"}, nil},
		{"a", "a:b:c", Name{}, ErrInvalidQName},
		{"a", ":b", Name{}, ErrInvalidQName},
		{"a", "", Name{}, ErrInvalidQName},
		{"a", "1x", Name{}, ErrInvalidQName},
	}
	for _, tt := range tests {
		t.Run(tt.elem+"/"+tt.qname, func(t *testing.T) {
			r := NewReader([]byte(doc), Limits{})
			for {
				tok, err := r.Next()
				if err != nil {
					t.Fatal(err)
				}
				if tok.Kind == StartElement && tok.Name.Local == tt.elem {
					break
				}
			}
			got, err := r.ResolveQName(tt.qname)
			if !errors.Is(err, tt.err) {
				t.Fatalf("error = %v, want %v", err, tt.err)
			}
			if got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
			root, err := Parse([]byte(doc), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			e := findElement(root, tt.elem)
			got, err = e.ResolveQName(tt.qname)
			if !errors.Is(err, tt.err) || got != tt.want {
				t.Errorf("tree: got %v, %v; want %v, %v", got, err, tt.want, tt.err)
			}
		})
	}
}

func findElement(e *Element, local string) *Element {
	if e.Name.Local == local {
		return e
	}
	for _, c := range e.Children {
		if f := findElement(c, local); f != nil {
			return f
		}
	}
	return nil
}

func TestUndeclaredPrefixesAllowed(t *testing.T) {
	lim := Limits{AllowUndeclaredPrefixes: true}
	r := NewReader([]byte(`<p:a q:x="1" xsi:type="t:T"><p:b/></p:a>`), lim)
	tok, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if tok.Name != (Name{Space: UndeclaredSpace("p"), Local: "a"}) || tok.Attrs[0].Name != (Name{Space: UndeclaredSpace("q"), Local: "x"}) {
		t.Errorf("start = %+v", tok)
	}
	if n, err := r.ResolveQName("t:T"); err != nil || n != (Name{Space: UndeclaredSpace("t"), Local: "T"}) {
		t.Errorf("ResolveQName = %v, %v", n, err)
	}
	for {
		if _, err := r.Next(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]string{"p", "q", "xsi", "t"}, r.UndeclaredPrefixes()); diff != "" {
		t.Errorf("undeclared (-want +got):\n%s", diff)
	}
}

// TestUndeclaredPrefixesDistinct: with undeclared prefixes allowed, names
// of different undeclared prefixes and unqualified names stay distinct
// (no false duplicate attribute), and the placeholder names its prefix.
func TestUndeclaredPrefixesDistinct(t *testing.T) {
	root, undeclared, err := ParseAllowUndeclared([]byte(`<r x="0" p:x="1" q:x="2"><p:c xmlns:q="urn:q" q:x="3"/></r>`), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Name{{Local: "x"}, {Space: UndeclaredSpace("p"), Local: "x"}, {Space: UndeclaredSpace("q"), Local: "x"}}
	for i, a := range root.Attrs {
		if a.Name != want[i] {
			t.Errorf("attribute %d = %v, want %v", i, a.Name, want[i])
		}
	}
	if c := root.Children[0]; c.Name.Space != UndeclaredSpace("p") || c.Attrs[0].Name.Space != "urn:q" {
		t.Errorf("child %v %v", c.Name, c.Attrs)
	}
	if diff := cmp.Diff([]string{"p", "q"}, undeclared); diff != "" {
		t.Errorf("undeclared (-want +got):\n%s", diff)
	}
	if p, ok := UndeclaredPrefix(UndeclaredSpace("wsp")); !ok || p != "wsp" {
		t.Errorf("UndeclaredPrefix = %q, %v", p, ok)
	}
	if _, ok := UndeclaredPrefix("urn:x"); ok {
		t.Error("urn:x reported as a placeholder")
	}
	if _, _, err := ParseAllowUndeclared([]byte(`<r p:x="1" p:x="2"/>`), Limits{}); err == nil {
		t.Error("a duplicate attribute of one undeclared prefix was accepted")
	}
	if _, err := Parse([]byte(`<p:r/>`), Limits{}); err == nil || !strings.Contains(err.Error(), `undeclared namespace prefix "p"`) {
		t.Errorf("strict Parse: %v", err)
	}
}

// TestManyBindings covers the indexed lookup used beyond nsLinearMax
// bindings in scope: shadowing, popping and resolution after pops.
func TestManyBindings(t *testing.T) {
	var b strings.Builder
	const depth, perLevel = 8, 10
	for d := range depth {
		b.WriteString("<e")
		for p := range perLevel {
			fmt.Fprintf(&b, " xmlns:p%d='urn:%d:%d'", p, d, p)
		}
		fmt.Fprintf(&b, " xmlns:only%d='urn:only:%d'>", d, d)
	}
	b.WriteString("<p3:leaf only0:a='1'/>")
	for range depth {
		b.WriteString("<p1:after/></e>")
	}
	got, err := readAll(b.String(), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range got {
		if strings.HasPrefix(s, "start {") {
			names = append(names, strings.SplitN(s, " {http", 2)[0])
		}
	}
	want := []string{"start {urn:7:3}leaf {urn:only:0}a=\"1\"", "start {urn:7:1}after"}
	for d := depth - 2; d >= 0; d-- {
		want = append(want, fmt.Sprintf("start {urn:%d:1}after", d))
	}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("resolved names (-want +got):\n%s", diff)
	}
	_, err = readAll("<e>"+strings.Repeat("<e xmlns:a='u' xmlns:b='u' xmlns:c='u' xmlns:d='u'>", 1100), Limits{MaxDepth: 2000})
	if err == nil || !strings.Contains(err.Error(), "namespace declaration limit 4096 exceeded") {
		t.Errorf("error = %v, want the namespace declaration limit", err)
	}
}
