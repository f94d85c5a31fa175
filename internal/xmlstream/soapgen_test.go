package xmlstream

import (
	"fmt"
	"strings"
)

// soapEnvelope generates a realistic SOAP 1.1 envelope of about size bytes:
// a WS-Security header, an operation wrapper with namespaced, nested order
// lines carrying attributes (xsi:type, ids, currencies), text with
// entity and character references, white space indentation, a comment
// and a CDATA section.
func soapEnvelope(size int) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:ord="http://example.com/orders/2024" xmlns:cmn="http://example.com/common">
  <soapenv:Header>
    <wsse:Security xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd" soapenv:mustUnderstand="1">
      <wsse:UsernameToken wsu:Id="UsernameToken-42" xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd">
        <wsse:Username>gateway&amp;user</wsse:Username>
        <wsse:Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText">s3cr&#x65;t</wsse:Password>
      </wsse:UsernameToken>
    </wsse:Security>
  </soapenv:Header>
  <soapenv:Body>
    <ord:SubmitOrderRequest>
      <ord:customer cmn:id="C-1001" xsi:type="ord:BusinessCustomer">
        <cmn:name>Smith &amp; Sons &lt;Trading&gt;</cmn:name>
        <cmn:email>orders@smith.example.com</cmn:email>
      </ord:customer>
      <!-- order lines follow -->
`)
	const tail = `      <ord:note><![CDATA[Deliver <before> noon & ring twice]]></ord:note>
    </ord:SubmitOrderRequest>
  </soapenv:Body>
</soapenv:Envelope>
`
	for i := 0; b.Len()+len(tail) < size; i++ {
		fmt.Fprintf(&b, `      <ord:line number="%d" status="open">
        <ord:sku xsi:type="xsd:string">SKU-%05d</ord:sku>
        <ord:description>Widget %d &#8211; blue, size &quot;L&quot; &amp; extras</ord:description>
        <ord:quantity>%d</ord:quantity>
        <ord:price currency="EUR">%d.%02d</ord:price>
        <ord:delivery><cmn:date>2024-05-%02d</cmn:date><cmn:slot>morning</cmn:slot></ord:delivery>
      </ord:line>
`, i+1, i*7, i, i%9+1, 10+i%90, i%100, i%28+1)
		if size < 2000 {
			break
		}
	}
	b.WriteString(tail)
	return []byte(b.String())
}

var benchSizes = []struct {
	name string
	size int
}{
	{"1KB", 1 << 10},
	{"20KB", 20 << 10},
	{"1MB", 1 << 20},
}
