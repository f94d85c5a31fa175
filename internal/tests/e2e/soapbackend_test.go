package e2e

import (
	"bytes"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

const (
	soap11NS = "http://schemas.xmlsoap.org/soap/envelope/"
	soap12NS = "http://www.w3.org/2003/05/soap-envelope"
)

// soapBackend is a SOAP server on 127.0.0.1 answering canned envelopes:
// the answer is chosen by the local name of the request's Body element,
// so the test also sees which operation s2r called.
type soapBackend struct {
	srv     *httptest.Server
	mu      sync.Mutex
	answers []cannedAnswer
	last    map[string]string // marker -> last request body
	headers map[string]http.Header
}

type cannedAnswer struct {
	marker string // local name of the request's first Body element
	status int
	ctype  string
	body   string
}

func newSOAPBackend(t *testing.T) *soapBackend {
	b := &soapBackend{last: map[string]string{}, headers: map[string]http.Header{}}
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		b.mu.Lock()
		defer b.mu.Unlock()
		op := bodyElement(body)
		for _, a := range b.answers {
			if op == a.marker {
				b.last[a.marker] = string(body)
				b.headers[a.marker] = r.Header.Clone()
				w.Header().Set("Content-Type", a.ctype)
				w.WriteHeader(a.status)
				_, _ = io.WriteString(w, a.body)
				return
			}
		}
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		w.WriteHeader(500)
		_, _ = io.WriteString(w, envelope11(`<soap:Fault><faultcode>soap:Client</faultcode><faultstring>no canned answer</faultstring></soap:Fault>`))
	}))
	t.Cleanup(b.srv.Close)
	return b
}

// answer11 registers a SOAP 1.1 answer with body content inner.
func (b *soapBackend) answer11(marker, inner string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.answers = append(b.answers, cannedAnswer{marker, 200, "text/xml; charset=utf-8", envelope11(inner)})
}

// answer12 registers a SOAP 1.2 answer.
func (b *soapBackend) answer12(marker, inner string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.answers = append(b.answers, cannedAnswer{marker, 200, `application/soap+xml; charset=utf-8`, envelope12(inner)})
}

// fault11 registers a SOAP 1.1 Fault answer (HTTP 500).
func (b *soapBackend) fault11(marker, code, reason string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.answers = append(b.answers, cannedAnswer{marker, 500, "text/xml; charset=utf-8",
		envelope11(`<soap:Fault><faultcode>soap:` + code + `</faultcode><faultstring>` + reason + `</faultstring></soap:Fault>`)})
}

func (b *soapBackend) request(marker string) (string, http.Header) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.last[marker], b.headers[marker]
}

// bodyElement returns the local name of the first element in the SOAP Body.
func bodyElement(doc []byte) string {
	d := xml.NewDecoder(bytes.NewReader(doc))
	inBody := false
	for {
		tok, err := d.Token()
		if err != nil {
			return ""
		}
		if se, ok := tok.(xml.StartElement); ok {
			if inBody {
				return se.Name.Local
			}
			inBody = se.Name.Local == "Body" && (se.Name.Space == soap11NS || se.Name.Space == soap12NS)
		}
	}
}

func envelope11(inner string) string {
	return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="` + soap11NS + `"><soap:Body>` + inner + `</soap:Body></soap:Envelope>`
}

func envelope12(inner string) string {
	return `<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="` + soap12NS + `"><soap12:Body>` + inner + `</soap12:Body></soap12:Envelope>`
}
