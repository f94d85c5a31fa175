package async

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// backend is a SOAP backend on 127.0.0.1 that keeps every request and
// answers what the test sets (by default 202 with no body: the usual
// acknowledgement of an asynchronous SOAP service).
type backend struct {
	srv    *httptest.Server
	mu     sync.Mutex
	reqs   []backendRequest
	answer atomic.Pointer[backendAnswer]
}

type backendRequest struct {
	header http.Header
	body   string
}

type backendAnswer struct {
	status int
	ct     string
	body   string
}

func newBackend(t testing.TB) *backend {
	b := &backend{}
	b.answer.Store(&backendAnswer{status: http.StatusAccepted})
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		b.mu.Lock()
		b.reqs = append(b.reqs, backendRequest{header: r.Header.Clone(), body: string(body)})
		b.mu.Unlock()
		a := b.answer.Load()
		if a.ct != "" {
			w.Header().Set("Content-Type", a.ct)
		}
		w.WriteHeader(a.status)
		io.WriteString(w, a.body)
	}))
	t.Cleanup(b.srv.Close)
	return b
}

func (b *backend) set(status int, ct, body string) {
	b.answer.Store(&backendAnswer{status: status, ct: ct, body: body})
}

// count returns the number of requests received.
func (b *backend) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.reqs)
}

// last returns the last request received.
func (b *backend) last(t testing.TB) backendRequest {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.reqs) == 0 {
		t.Fatal("the backend received no request")
	}
	return b.reqs[len(b.reqs)-1]
}

const (
	ns11   = "http://schemas.xmlsoap.org/soap/envelope/"
	ns12   = "http://www.w3.org/2003/05/soap-envelope"
	nsWSA  = "http://www.w3.org/2005/08/addressing"
	nsCalc = "http://example.com/calc"
)

// callback11 is a SOAP 1.1 callback with the given WS-Addressing header
// blocks (already written) and body content.
func callback11(headers, body string) string {
	return `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="` + ns11 + `" xmlns:wsa="` + nsWSA + `">` +
		`<soap:Header>` + headers + `</soap:Header><soap:Body>` + body + `</soap:Body></soap:Envelope>`
}

// callback12 is callback11 in SOAP 1.2.
func callback12(headers, body string) string {
	return `<env:Envelope xmlns:env="` + ns12 + `"><env:Header>` + headers + `</env:Header><env:Body>` + body +
		`</env:Body></env:Envelope>`
}

func relatesTo(id string) string {
	return `<wsa:RelatesTo xmlns:wsa="` + nsWSA + `">` + id + `</wsa:RelatesTo>`
}

func messageID(id string) string {
	return `<wsa:MessageID xmlns:wsa="` + nsWSA + `">` + id + `</wsa:MessageID>`
}

func addResponse(result string) string {
	return `<c:AddResponse xmlns:c="` + nsCalc + `"><c:result>` + result + `</c:result></c:AddResponse>`
}

const fault11 = `<soap:Fault><faultcode>soap:Client</faultcode><faultstring>refused: card declined</faultstring>` +
	`<detail><problem>declined</problem></detail></soap:Fault>`

const fault12 = `<env:Fault><env:Code><env:Value>env:Receiver</env:Value></env:Code>` +
	`<env:Reason><env:Text xml:lang="en">backend down</env:Text></env:Reason></env:Fault>`
