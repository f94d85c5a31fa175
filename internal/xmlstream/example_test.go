package xmlstream_test

import (
	"fmt"
	"io"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

func ExampleReader() {
	doc := []byte(`<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:t="urn:t"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <s:Body><t:Item xsi:type="t:Special">A &amp; B</t:Item></s:Body>
</s:Envelope>`)
	r := xmlstream.NewReader(doc, xmlstream.Limits{})
	for {
		tok, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		switch tok.Kind {
		case xmlstream.StartElement:
			fmt.Printf("start %s %s (depth %d)\n", tok.Name.Space, tok.Name.Local, r.Depth())
			for _, a := range tok.Attrs {
				if a.Name == (xmlstream.Name{Space: "http://www.w3.org/2001/XMLSchema-instance", Local: "type"}) {
					typ, _ := r.ResolveQName(a.Value)
					fmt.Printf("  xsi:type %s %s\n", typ.Space, typ.Local)
				}
			}
		case xmlstream.CharData:
			if r.Depth() == 3 {
				fmt.Printf("  text %q\n", tok.Data)
			}
		}
	}
	// Output:
	// start http://schemas.xmlsoap.org/soap/envelope/ Envelope (depth 1)
	// start http://schemas.xmlsoap.org/soap/envelope/ Body (depth 2)
	// start urn:t Item (depth 3)
	//   xsi:type urn:t Special
	//   text "A & B"
}

func ExampleParse() {
	root, err := xmlstream.Parse([]byte(`<definitions xmlns="urn:wsdl" xmlns:tns="urn:svc">
  <message name="In"><part element="tns:Req"/></message>
</definitions>`), xmlstream.Limits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	part := root.Child("urn:wsdl", "message").Child("urn:wsdl", "part")
	v, _ := part.Attr("", "element")
	n, _ := part.ResolveQName(v)
	fmt.Println(n.Space, n.Local, part.Line)
	// Output: urn:svc Req 2
}

func ExampleParse_xmlBomb() {
	_, err := xmlstream.Parse([]byte(`<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><lolz>&lol2;</lolz>`), xmlstream.Limits{})
	fmt.Println(err)
	// Output: xml: line 1: DOCTYPE declares entities (<!ENTITY): entity declarations are refused (XML bomb and XXE protection)
}

func ExampleWriter() {
	w := xmlstream.NewWriter(nil)
	w.Start("soap", "Envelope")
	w.NSDecl("soap", "http://schemas.xmlsoap.org/soap/envelope/")
	w.NSDecl("t", "urn:t")
	w.Start("soap", "Body")
	w.Start("t", "Note")
	w.Attr("", "lang", `"en"`)
	w.Text("1 < 2 & 3 > 2")
	w.End("t", "Note")
	w.Start("t", "Empty")
	w.End("t", "Empty")
	w.End("soap", "Body")
	w.End("soap", "Envelope")
	fmt.Println(string(w.Bytes()))
	// Output: <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:t="urn:t"><soap:Body><t:Note lang="&quot;en&quot;">1 &lt; 2 &amp; 3 &gt; 2</t:Note><t:Empty/></soap:Body></soap:Envelope>
}
