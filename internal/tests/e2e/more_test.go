package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/s2r-project/s2r/internal/tests/poll"
	"github.com/s2r-project/s2r/internal/tests/serveproc"
)

// soapPost sends raw SOAP bytes.
func (s *server) soapPost(t *testing.T, path, ctype, action, body string) resp {
	t.Helper()
	var hdr []string
	if action != "" {
		hdr = []string{"SOAPAction", action}
	}
	return s.api.For(t).Send("POST", path, "", ctype, []byte(body), hdr...)
}

// TestMoreTraffic covers SOAP 1.2 publish, gateway passthrough, backend
// failures and the bad-URL summary.
func TestMoreTraffic(t *testing.T) {
	corpusDir(t)
	forEachBackend(t, func(t *testing.T, s *server) {
		be := newSOAPBackend(t)
		h12 := s.onboard(t, corpusFile(t, cxfDir+"hello_world_soap12.wsdl"), nil, "hello12", "", be.srv.URL+"/initial")
		s.pointBackend(t, h12, be.srv.URL+"/h12")
		be.answer12("sayHi", `<x:sayHiResponse xmlns:x="http://apache.org/hello_world_soap12_http/types"><x:responseType>Bonjour</x:responseType></x:sayHiResponse>`)
		var r resp
		poll.UntilOK(t, settle, "soap12 publish", func() string {
			r = s.publishCall(t, "hello12", "say-hi", `{}`)
			if r.Status == 200 {
				return ""
			}
			return string(r.Body)
		})
		wantJSON(t, r, `{"responseType":"Bonjour"}`)
		if _, h := be.request("sayHi"); h.Get("Content-Type") != "application/soap+xml; action=sayHiAction; charset=utf-8" || h.Get("SOAPAction") != "" {
			t.Errorf("SOAP 1.2 request headers: %v", h)
		}

		// Gateway passthrough: bytes and SOAPAction unchanged, answer relayed.
		var gotMu sync.Mutex
		var gotBody, gotAction string
		gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			gotMu.Lock()
			gotBody, gotAction = string(b), r.Header.Get("SOAPAction")
			gotMu.Unlock()
			w.Header().Set("Content-Type", "text/xml; charset=utf-8")
			_, _ = io.WriteString(w, envelope11(`<t:AddResponse xmlns:t="http://tempuri.org/"><AddResult>9</AddResult></t:AddResponse>`))
		}))
		t.Cleanup(gw.Close)
		g := s.onboard(t, corpusFile(t, postmanDir+"calculator-soap11and12.wsdl"), nil, "calcgw", "gateway", gw.URL+"/initial")
		s.pointBackend(t, g, gw.URL+"/gw")
		in := envelope11(`<t:Add xmlns:t="http://tempuri.org/"><intA>4</intA><intB>5</intB></t:Add>`)
		poll.UntilOK(t, settle, "gateway without grant", func() string {
			r = s.soapPost(t, "/gateway/dev/calcgw", "text/xml; charset=utf-8", `"http://tempuri.org/Add"`, in)
			if r.Status == 403 && r.Code() == "S2R-GW-0407" {
				return ""
			}
			return string(r.Body)
		})
		s.admin(t, "PUT", "/services/"+g.serviceID+"/consumer-grants", map[string]any{"cidrs": []string{"127.0.0.1/32"}}).WantStatus(t, 200)
		poll.UntilOK(t, settle, "gateway", func() string {
			r = s.soapPost(t, "/gateway/dev/calcgw", "text/xml; charset=utf-8", `"http://tempuri.org/Add"`, in)
			if r.Status == 200 {
				return ""
			}
			return string(r.Body)
		})
		if !strings.Contains(string(r.Body), "<AddResult>9</AddResult>") {
			t.Errorf("gateway answer: %s", r.Body)
		}
		gotMu.Lock()
		if gotBody != in || gotAction != `"http://tempuri.org/Add"` {
			t.Errorf("gateway forwarded %q with SOAPAction %q", gotBody, gotAction)
		}
		gotMu.Unlock()
		if w := s.do(t, "GET", "/gateway/dev/calcgw?wsdl", "", nil); w.Status != 200 || !strings.Contains(string(w.Body), "/gateway/dev/calcgw") {
			t.Errorf("gateway WSDL: %d %.500s", w.Status, w.Body)
		}
		if r := s.do(t, "PUT", "/gateway/dev/calcgw", "", nil); r.Status != 405 || r.Code() != "S2R-RUN-0411" {
			t.Errorf("gateway PUT: %d %s", r.Status, r.Body)
		}

		// Backend failures are 502s naming the problem.
		bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case strings.HasSuffix(r.URL.Path, "/html"):
				w.Header().Set("Content-Type", "text/html")
				_, _ = io.WriteString(w, "<html><body>maintenance</body></html>")
			case strings.HasSuffix(r.URL.Path, "/empty"):
				w.Header().Set("Content-Type", "text/xml")
			case strings.HasSuffix(r.URL.Path, "/404"):
				http.NotFound(w, r)
			case strings.HasSuffix(r.URL.Path, "/wrongop"):
				w.Header().Set("Content-Type", "text/xml")
				_, _ = io.WriteString(w, envelope11(`<t:SubtractResponse xmlns:t="http://tempuri.org/"><SubtractResult>1</SubtractResult></t:SubtractResponse>`))
			case strings.HasSuffix(r.URL.Path, "/badint"):
				w.Header().Set("Content-Type", "text/xml")
				_, _ = io.WriteString(w, envelope11(`<t:AddResponse xmlns:t="http://tempuri.org/"><AddResult>five</AddResult></t:AddResponse>`))
			}
		}))
		t.Cleanup(bad.Close)
		calc := s.onboard(t, corpusFile(t, postmanDir+"calculator-soap11and12.wsdl"), nil, "calcfail", "", bad.URL+"/initial")
		for _, c := range []struct{ suffix, code string }{
			{"html", "S2R-RUN-0504"}, {"empty", "S2R-RUN-0504"}, {"404", "S2R-RUN-0502"},
			{"wrongop", "S2R-RUN-0506"}, {"badint", "S2R-RUN-0506"},
		} {
			s.pointBackend(t, calc, bad.URL+"/"+c.suffix)
			poll.UntilOK(t, settle, "backend "+c.suffix, func() string {
				r = s.publishCall(t, "calcfail", "add", `{"intA":1,"intB":2}`)
				if r.Status == 502 && r.Code() == c.code {
					return ""
				}
				return string(r.Body)
			})
		}

		// Attempts at unmapped URLs are summarized.
		s.do(t, "GET", "/nowhere/at/all", "", nil).WantStatus(t, 400)
		poll.UntilOK(t, settle, "bad-url summary", func() string {
			r = s.admin(t, "GET", "/bad-url-summary", nil).WantStatus(t, 200)
			if strings.Contains(string(r.Body), "/nowhere/at/all") {
				return ""
			}
			return string(r.Body)
		})
	})
}

// TestRestart stops the binary and starts it again on the same data:
// the activated service serves traffic without any admin action.
func TestRestart(t *testing.T) {
	corpusDir(t)
	for _, db := range serveproc.Databases(t) {
		t.Run(db.Name, func(t *testing.T) {
			t.Parallel()
			env := append(db.Env(t), "S2R_DATA_DIR="+t.TempDir())
			be := newSOAPBackend(t)
			be.answer11("Add", `<t:AddResponse xmlns:t="http://tempuri.org/"><AddResult>7</AddResult></t:AddResponse>`)
			s := startServer(t, env)
			calc := s.onboard(t, corpusFile(t, postmanDir+"calculator-soap11and12.wsdl"), nil, "calc", "", be.srv.URL+"/initial")
			s.pointBackend(t, calc, be.srv.URL+"/calc")
			poll.UntilOK(t, settle, "before restart", func() string {
				if r := s.publishCall(t, "calc", "add", `{"intA":3,"intB":4}`); r.Status != 200 {
					return string(r.Body)
				}
				return ""
			})
			s.stop()
			s2 := startServer(t, env)
			r := s2.publishCall(t, "calc", "add", `{"intA":3,"intB":4}`)
			if r.Status != 200 {
				t.Fatalf("after restart: %d %s", r.Status, r.Body)
			}
			wantJSON(t, r, `{"AddResult":7}`)
		})
	}
}
