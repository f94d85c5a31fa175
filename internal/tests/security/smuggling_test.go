package security

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// smuggled is the request hidden after an ambiguous one: an admin read
// with an identity header a front proxy would have stripped.
const smuggled = "GET /admin/v1/settings HTTP/1.1\r\nHost: x\r\nX-Idp-Authenticated-User-Email: " + adminEmail + "\r\n\r\n"

// smugglingCase is one ambiguous request; %s is the path and %d the
// length of the SOAP body.
type smugglingCase struct {
	name, head, body string
}

func smugglingCases(envelope string) []smugglingCase {
	n := len(envelope)
	chunked := fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", n, envelope)
	return []smugglingCase{
		{"content-length and transfer-encoding", "Content-Length: %d\r\nTransfer-Encoding: chunked\r\n", chunked + smuggled},
		{"transfer-encoding and content-length", "Transfer-Encoding: chunked\r\nContent-Length: %d\r\n", chunked + smuggled},
		{"two content-lengths", "Content-Length: %d\r\nContent-Length: 1\r\n", envelope + smuggled},
		{"content-length list", "Content-Length: %d, 1\r\n", envelope + smuggled},
		{"invalid chunk size", "Transfer-Encoding: chunked\r\n", "zz\r\n" + envelope + "\r\n0\r\n\r\n" + smuggled},
		{"negative chunk size", "Transfer-Encoding: chunked\r\n", "-1\r\n" + envelope + "\r\n0\r\n\r\n" + smuggled},
		{"overflowing chunk size", "Transfer-Encoding: chunked\r\n", "10000000000000000\r\n" + envelope + "\r\n0\r\n\r\n" + smuggled},
		{"chunk size with bare LF", "Transfer-Encoding: chunked\r\n", fmt.Sprintf("%x\n%s\r\n0\r\n\r\n", n, envelope) + smuggled},
		{"obsolete line folding", "X-Note: a\r\n folded\r\nContent-Length: %d\r\n", envelope + smuggled},
		{"folded transfer-encoding", "Content-Length: %d\r\nTransfer-Encoding:\r\n chunked\r\n", chunked + smuggled},
		{"bare LF line ends", "LF", envelope + smuggled},
		{"transfer-encoding not chunked", "Transfer-Encoding: identity\r\nContent-Length: %d\r\n", envelope + smuggled},
		{"chunked on HTTP/1.0", "HTTP/1.0", chunked + smuggled},
	}
}

// raw builds the bytes of c towards path.
func (c smugglingCase) raw(path, ctype string, n int) string {
	switch c.head {
	case "LF":
		return fmt.Sprintf("POST %s HTTP/1.1\nHost: x\nContent-Type: %s\nContent-Length: %d\n\n", path, ctype, n) + c.body
	case "HTTP/1.0":
		return fmt.Sprintf("POST %s HTTP/1.0\r\nHost: x\r\nContent-Type: %s\r\nTransfer-Encoding: chunked\r\n\r\n", path, ctype) + c.body
	}
	head := c.head
	if strings.Contains(head, "%d") {
		head = fmt.Sprintf(head, n)
	}
	return fmt.Sprintf("POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: %s\r\n", path, ctype) + head + "\r\n" + c.body
}

// rawExchange writes raw on one connection and reads every answer until
// the server closes it (or 3 s pass).
func rawExchange(t *testing.T, base, raw string) []*http.Response {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(3 * time.Second))
	go io.WriteString(c, raw)
	br := bufio.NewReader(c)
	var out []*http.Response
	for {
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			return out
		}
		io.ReadAll(resp.Body)
		out = append(out, resp)
	}
}

// TestRequestSmuggling sends every ambiguous framing to the gateway,
// consume and publish on raw connections, each followed by a hidden admin request:
// the ambiguous request is refused (400, connection closed) or its body
// refused, the hidden request is never answered, and the backend never
// receives a complete request from it.
func TestRequestSmuggling(t *testing.T) {
	s := startServer(t)
	sv := s.onboardAll(t)
	envelope := soap11(`<Add xmlns="` + calcNS + `"><a>1</a><b>2</b></Add>`)
	targets := []struct{ path, ctype, body string }{
		{"/gateway/dev/secgw", "text/xml; charset=utf-8", envelope},
		{"/consume/dev/seccons", "text/xml; charset=utf-8", envelope},
		{"/publish/dev/secpub/add", "application/json", `{"a":1,"b":2}`},
	}
	for _, tg := range targets {
		for _, c := range smugglingCases(tg.body) {
			before := len(sv.backend.requests()) + len(sv.rest.requests())
			answers := rawExchange(t, s.base, c.raw(tg.path, tg.ctype, len(tg.body)))
			name := tg.path + " / " + c.name
			if len(answers) > 1 {
				t.Errorf("%s: %d answers on one connection: the hidden request was served", name, len(answers))
			}
			if len(answers) == 1 && answers[0].StatusCode != 400 && !(answers[0].StatusCode == 500 && strings.HasPrefix(tg.path, "/consume")) {
				t.Errorf("%s: %d, want 400", name, answers[0].StatusCode)
			}
			if len(answers) == 1 && !answers[0].Close {
				t.Errorf("%s: the connection stays open after the refusal", name)
			}
			for _, r := range append(sv.backend.requests(), sv.rest.requests()...)[before:] {
				if r.Complete {
					t.Errorf("%s: the backend received a complete request (%d bytes)", name, r.Length)
				}
			}
		}
	}
	// A well-framed request on the same connections still works.
	if got := rawExchange(t, s.base, "POST /gateway/dev/secgw HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nConnection: close\r\n"+
		fmt.Sprintf("Content-Length: %d\r\n\r\n", len(envelope))+envelope); len(got) != 1 || got[0].StatusCode != 200 {
		t.Errorf("a well-framed gateway request: %v", got)
	}
	s.alive(t)
	if p := panicLines(s.logText()); p != "" {
		t.Errorf("panics in the log:\n%s", p)
	}
}
