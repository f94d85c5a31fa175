package xmlstream

import (
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// readerOnlyRejections are refusals of Reader that encoding/xml does not
// share, each for a documented reason; the differential fuzzer accepts a
// Reader error containing one of them when encoding/xml accepted.
var readerOnlyRejections = []string{
	// Reader's limits.
	"depth limit", "attribute limit", "name length limit", "size limit",
	// encoding/xml reports any <!DOCTYPE ...> as a Directive without
	// checking its syntax; Reader parses it and refuses entity and
	// attribute-list declarations.
	"DOCTYPE",
	// encoding/xml checks characters only in text and attribute values.
	"(in a comment)", "in a comment", "(in a processing instruction)", "in a processing instruction",
	// encoding/xml turns &#xD800; (a surrogate) into U+FFFD.
	"not an allowed XML character",
	// encoding/xml does not require white space after a PI target or
	// between attributes, checks only the version of the XML declaration,
	// and reports CDATA outside the root element as text.
	"expected white space after the processing instruction target",
	"expected white space, > or />",
	"malformed XML declaration",
	`unsupported XML version ""`, // encoding/xml takes version="" as absent
	"CDATA section outside the root element",
}

// FuzzReaderDifferential compares Reader with encoding/xml (strict,
// namespace-aware Token loop, plus the rules it leaves out; see
// fuzz_ref_test.go): both must accept with the same events, or both reject.
func FuzzReaderDifferential(f *testing.F) {
	for _, s := range seedDocs() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		got, gotErr := readerEvents(doc)
		want, wantErr := refEvents(doc)
		if errors.Is(wantErr, errRefQuirk) {
			return
		}
		switch {
		case gotErr != nil && wantErr != nil:
		case gotErr == nil && wantErr == nil:
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("events differ for %q (-encoding/xml +Reader):\n%s", doc, diff)
			}
		case gotErr != nil:
			if !readerOnly(gotErr, doc) {
				t.Fatalf("Reader rejects %q (%v) but encoding/xml accepts", doc, gotErr)
			}
		default:
			if !refOnly(wantErr, doc) {
				t.Fatalf("encoding/xml rejects %q (%v) but Reader accepts", doc, wantErr)
			}
		}
	})
}

func readerOnly(err error, doc []byte) bool {
	msg := err.Error()
	for _, s := range readerOnlyRejections {
		if strings.Contains(msg, s) {
			return true
		}
	}
	// Reader follows the XML 1.0 fifth edition name characters,
	// encoding/xml the older Unicode-based tables.
	return strings.Contains(msg, "invalid name character") && !isASCII(doc)
}

func refOnly(err error, doc []byte) bool {
	// See readerOnly: name character tables differ outside ASCII.
	return strings.Contains(err.Error(), "invalid XML name") && !isASCII(doc)
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// FuzzParse checks that building a tree never panics and that accepted
// documents give a consistent tree.
func FuzzParse(f *testing.F) {
	for _, s := range seedDocs() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		root, err := Parse(doc, Limits{MaxDepth: 64})
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Line < 1 || se.Offset < 0 || se.Offset > len(doc)*2 {
				t.Fatalf("error %#v is not a positioned *SyntaxError", err)
			}
			return
		}
		if root == nil || root.Parent != nil {
			t.Fatalf("bad root %+v", root)
		}
		checkTree(t, root)
	})
}

func checkTree(t *testing.T, e *Element) {
	for _, a := range e.Attrs {
		if a.Name.Space == NSXMLNS {
			t.Fatalf("namespace declaration kept as attribute: %+v", a)
		}
	}
	for p := range e.InScope() {
		if _, ok := e.LookupPrefix(p); !ok {
			t.Fatalf("prefix %q in scope but not found", p)
		}
	}
	for _, c := range e.Children {
		if c.Parent != e || c.Line < e.Line {
			t.Fatalf("bad child %+v of %+v", c, e)
		}
		checkTree(t, c)
	}
}

// FuzzWriterRoundTrip writes arbitrary strings with Writer and reads them
// back with Reader: names and values must survive (with invalid
// characters replaced by U+FFFD).
func FuzzWriterRoundTrip(f *testing.F) {
	f.Add("p", "elem", "urn:x", "a < b & \"c\" 'd'\t\n\r", "text ]]> & <tag>\r\n")
	f.Add("", "a", "", "\x00\xff\uFFFE", "\x01\xc3\x28 é 😀")
	f.Add("soap", "Envelope", "http://schemas.xmlsoap.org/soap/envelope/", "&amp;&#10;", "&lt;")
	f.Fuzz(func(t *testing.T, prefix, local, uri, attr, text string) {
		if !isNCName(local) || prefix != "" && (!isNCName(prefix) || strings.EqualFold(prefix[:min(3, len(prefix))], "xml")) {
			return
		}
		if uri == NSXML || uri == NSXMLNS || prefix != "" && uri == "" {
			return
		}
		w := NewWriter(nil)
		w.Start(prefix, local)
		w.NSDecl(prefix, uri)
		w.Attr("", "v", attr)
		w.Start(prefix, "child")
		w.Text(text)
		w.End(prefix, "child")
		w.Start("", "empty")
		w.End("", "empty")
		w.End(prefix, local)
		// Names of any length round-trip; the default name limit is not
		// what this target checks.
		r := NewReader(w.Bytes(), Limits{MaxNameLen: len(w.Bytes())})
		tok, err := r.Next()
		if err != nil {
			t.Fatalf("reading %q: %v", w.Bytes(), err)
		}
		uriWant := sanitize(uri)
		if tok.Name != (Name{Space: uriWant, Local: local}) || tok.Prefix != prefix {
			t.Fatalf("start = %+v, want %q:%q in %q", tok, prefix, local, uriWant)
		}
		if len(tok.Attrs) != 2 || tok.Attrs[1].Value != sanitize(attr) {
			t.Fatalf("attrs = %q, want v=%q", tok.Attrs, sanitize(attr))
		}
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
		var got string
		for {
			tok, err := r.Next()
			if err != nil {
				t.Fatalf("reading %q: %v", w.Bytes(), err)
			}
			if tok.Kind != CharData {
				break
			}
			got += string(tok.Data)
		}
		if got != sanitize(text) {
			t.Fatalf("text = %q, want %q", got, sanitize(text))
		}
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
		}
	})
}

// sanitize is what Writer promises to keep of s.
func sanitize(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || !isXMLChar(r) {
			r = utf8.RuneError
		}
		b.WriteRune(r)
		i += n
	}
	return b.String()
}

// seedDocs are the seeds shared by the reader fuzzers; the committed
// corpus under testdata/fuzz holds more.
func seedDocs() []string {
	return []string{
		string(soapEnvelope(1 << 10)),
		`<a xmlns="urn:a" xmlns:p="urn:p" p:x="1" y="&lt;&#x41;&#65;"><p:b>t<![CDATA[<c>]]></p:b><!--c--><?pi x?></a>`,
		"\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<a>\r\n</a>",
		`<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><lolz>&lol2;</lolz>`,
		`<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><foo>&xxe;</foo>`,
		strings.Repeat("<a>", 300) + strings.Repeat("</a>", 300),
		`<a x='1' x='2'/>`,
		`<p:a xmlns:p="u" xmlns:q="u" p:x="1" q:x="2"/>`,
		`<a><b></a></b>`,
		"<a>\x00</a>",
		`<!DOCTYPE a SYSTEM "a.dtd"><a/>`,
	}
}
