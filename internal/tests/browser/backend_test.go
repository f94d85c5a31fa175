package browser

import (
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// echoValues is the Values type of test/interop/wsdl/echo11.wsdl.
type echoValues struct {
	Text   string   `xml:"text"`
	Amount string   `xml:"amount"`
	Count  string   `xml:"count"`
	Flag   string   `xml:"flag"`
	Items  []string `xml:"items"`
	Note   string   `xml:"note"`
}

// echoBackend is a SOAP 1.1 server for echo11.wsdl on 127.0.0.1: Echo
// answers its values unchanged; anything else is a Client fault.
func echoBackend(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var env struct {
			Body struct {
				Echo *struct {
					Values echoValues `xml:"values"`
				} `xml:"urn:example:echo Echo"`
			} `xml:"Body"`
		}
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		if err := xml.Unmarshal(body, &env); err != nil || env.Body.Echo == nil {
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault>`+
				`<faultcode>soap:Client</faultcode><faultstring>unexpected request</faultstring></soap:Fault></soap:Body></soap:Envelope>`)
			return
		}
		v := env.Body.Echo.Values
		var b strings.Builder
		b.WriteString(`<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
			`<EchoResponse xmlns="urn:example:echo"><values>`)
		for _, f := range [][2]string{{"text", v.Text}, {"amount", v.Amount}, {"count", v.Count}, {"flag", v.Flag}} {
			b.WriteString("<" + f[0] + ">")
			xml.EscapeText(&b, []byte(f[1]))
			b.WriteString("</" + f[0] + ">")
		}
		for _, it := range v.Items {
			b.WriteString("<items>")
			xml.EscapeText(&b, []byte(it))
			b.WriteString("</items>")
		}
		b.WriteString("<note>")
		xml.EscapeText(&b, []byte(v.Note))
		b.WriteString("</note></values></EchoResponse></soap:Body></soap:Envelope>")
		io.WriteString(w, b.String())
	}))
	t.Cleanup(srv.Close)
	return srv
}

// httpPost posts JSON and answers the status.
func httpPost(url, body string) (int, error) {
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

// readRepo reads a file of the repository.
func readRepo(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(repoFile(rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// waitStatus repeats call until it answers want (routes reload
// asynchronously after an activation), for at most five seconds.
func waitStatus(t *testing.T, call func() int, want int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := call()
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("status %d, want %d", got, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
