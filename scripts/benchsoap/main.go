// Command benchsoap is the SOAP backend of scripts/bench-publish.sh: it
// answers every Echo request of internal/dataplane/testdata/calc.wsdl with
// the same items as an EchoResponse, and prints the request bodies the
// benchmark sends (JSON for publish, the equivalent SOAP envelope for the
// direct call).
//
//	benchsoap -addr 127.0.0.1:18081        serve
//	benchsoap -json 1024                   print an Echo JSON body of about 1 KB
//	benchsoap -soap 1024                   print the same request as an envelope
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
)

func main() {
	addr := flag.String("addr", "", "serve on this address")
	jsonSize := flag.Int("json", 0, "print an Echo JSON body of about this many bytes")
	soapSize := flag.Int("soap", 0, "print the Echo envelope of the -json body of this size")
	flag.Parse()
	switch {
	case *jsonSize > 0:
		os.Stdout.Write(jsonBody(*jsonSize))
	case *soapSize > 0:
		os.Stdout.Write(envelope(*soapSize))
	case *addr != "":
		log.Fatal(http.ListenAndServe(*addr, http.HandlerFunc(echo)))
	default:
		flag.Usage()
		os.Exit(2)
	}
}

type item struct {
	sku          string
	qty, eu, cts int
	note         string
}

// items returns the items of a JSON body of about size bytes.
func items(size int) []item {
	var out []item
	n := len(`{"items":[]}`)
	for i := 0; n < size; i++ {
		it := item{fmt.Sprintf("SKU-%06d", i), i%7 + 1, i % 500, i % 100, fmt.Sprintf("item number %d of the order", i)}
		n += len(fmt.Sprintf(`{"sku":%q,"qty":%d,"price":%d.%02d,"note":%q},`, it.sku, it.qty, it.eu, it.cts, it.note))
		out = append(out, it)
	}
	return out
}

func jsonBody(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"items":[`)
	for i, it := range items(size) {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"sku":%q,"qty":%d,"price":%d.%02d,"note":%q}`, it.sku, it.qty, it.eu, it.cts, it.note)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

func envelope(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns1="http://example.com/calc"><soapenv:Body><ns1:Echo>`)
	for _, it := range items(size) {
		fmt.Fprintf(&b, `<ns1:items><ns1:sku>%s</ns1:sku><ns1:qty>%d</ns1:qty><ns1:price>%d.%02d</ns1:price><ns1:note>%s</ns1:note></ns1:items>`,
			it.sku, it.qty, it.eu, it.cts, it.note)
	}
	b.WriteString(`</ns1:Echo></soapenv:Body></soapenv:Envelope>`)
	return b.Bytes()
}

var (
	openTag, openResp   = []byte("<ns1:Echo>"), []byte("<ns1:EchoResponse>")
	closeTag, closeResp = []byte("</ns1:Echo>"), []byte("</ns1:EchoResponse>")
)

// echo answers an Echo envelope with its items as an EchoResponse.
func echo(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	body = bytes.Replace(body, openTag, openResp, 1)
	body = bytes.Replace(body, closeTag, closeResp, 1)
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	w.Write(body)
}
