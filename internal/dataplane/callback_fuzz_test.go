package dataplane

import (
	"bytes"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// FuzzParseCallback: parsing an untrusted callback never panics; a parsed
// callback's id has no urn:uuid: prefix, and its redacted form still
// parses, with the same correlation and no WS-Security header left.
func FuzzParseCallback(f *testing.F) {
	for _, s := range []string{
		`<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header><a:RelatesTo xmlns:a="http://www.w3.org/2005/08/addressing">urn:uuid:x</a:RelatesTo></s:Header><s:Body/></s:Envelope>`,
		`<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Header><a:MessageID xmlns:a="http://www.w3.org/2005/08/addressing">id-1</a:MessageID></e:Header><e:Body><r/></e:Body></e:Envelope>`,
		`<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header><w:Security xmlns:w="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"><w:Password>p</w:Password></w:Security></s:Header><s:Body/></s:Envelope>`,
		`<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultcode>s:Server</faultcode></s:Fault></s:Body></s:Envelope>`,
		`<!DOCTYPE a [<!ENTITY b "c">]><a>&b;</a>`, "", "<", "urn:uuid:",
	} {
		f.Add([]byte(s))
	}
	lim := xmlstream.Limits{MaxSize: 1 << 20}
	f.Fuzz(func(t *testing.T, body []byte) {
		info, err := ParseCallback(body, lim)
		if err != nil {
			if !bytes.Equal(RedactCallback(body, lim), body) {
				t.Fatal("an unparsable callback was changed by redaction")
			}
			return
		}
		if id := info.ID(); len(id) >= 9 && strings.EqualFold(id[:9], "urn:uuid:") {
			t.Fatalf("id %q keeps its urn:uuid: prefix", id)
		}
		red := RedactCallback(body, lim)
		again, err := ParseCallback(red, lim)
		if err != nil {
			t.Fatalf("redacted callback does not parse: %v\n%s", err, red)
		}
		if again != info {
			t.Fatalf("redaction changed the correlation: %+v vs %+v", again, info)
		}
		m, _ := soap.Parse(red, lim)
		for _, h := range m.Headers {
			if isWSSecurity(h.Name.Space) {
				t.Fatalf("WS-Security header left in %s", red)
			}
		}
	})
}
