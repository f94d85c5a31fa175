package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/tests/loopback"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// TestGatewayRelayThroughServer drives the gateway's own relay through
// the real listener and handler chain, on s2r's engine and on net/http:
// fields named in Connection go neither way, and a streamed answer's head
// and first bytes reach the client while the backend still holds the
// rest (the dataplane tests check the relay alone, behind httptest).
func TestGatewayRelayThroughServer(t *testing.T) {
	corpusDir(t)
	for _, engine := range []string{"s2r", "net/http"} {
		t.Run(strings.ReplaceAll(engine, "/", ""), func(t *testing.T) {
			t.Parallel()
			checkGatewayRelay(t, startServer(t, []string{"S2R_HTTP_ENGINE=" + engine}))
		})
	}
}

func checkGatewayRelay(t *testing.T, s *server) {
	held := loopback.NewHeldAnswer()
	var mu sync.Mutex
	var seen http.Header
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		if strings.HasSuffix(r.URL.Path, "/slow") {
			held.Write(w)
			return
		}
		mu.Lock()
		seen = r.Header.Clone()
		mu.Unlock()
		w.Header().Set("Connection", "X-Back")
		w.Header().Set("X-Back", "hop")
		w.Header().Set("X-End", "kept")
		_, _ = io.WriteString(w, envelope11(`<t:AddResponse xmlns:t="http://tempuri.org/"><AddResult>9</AddResult></t:AddResponse>`))
	}))
	t.Cleanup(backend.Close)
	t.Cleanup(held.Release) // runs first: the slow handler may still wait
	g := s.onboard(t, corpusFile(t, postmanDir+"calculator-soap11and12.wsdl"), nil, "calcrelay", "gateway", backend.URL+"/initial")
	s.pointBackend(t, g, backend.URL+"/hop")
	s.admin(t, "PUT", "/services/"+g.serviceID+"/consumer-grants", map[string]any{"cidrs": []string{"127.0.0.1/32"}}).WantStatus(t, 200)
	in := envelope11(`<t:Add xmlns:t="http://tempuri.org/"><intA>4</intA><intB>5</intB></t:Add>`)
	post := func() (*http.Response, error) {
		req, err := http.NewRequest("POST", s.base+"/gateway/dev/calcrelay", strings.NewReader(in))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "text/xml; charset=utf-8")
		req.Header.Set("Connection", "X-Hop")
		req.Header.Set("X-Hop", "hop")
		req.Header.Set("X-Keep", "kept")
		return http.DefaultClient.Do(req)
	}
	var resp *http.Response
	poll.UntilOK(t, settle, "gateway relay", func() string {
		r, err := post()
		if err != nil {
			return err.Error()
		}
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode != 200 {
			return string(b)
		}
		resp = r
		return ""
	})
	if resp.Header.Get("X-Back") != "" || resp.Header.Get("X-End") != "kept" {
		t.Errorf("client got %v: want X-End, no X-Back (named in the backend's Connection)", resp.Header)
	}
	mu.Lock()
	if seen.Get("X-Hop") != "" || seen.Get("X-Keep") != "kept" {
		t.Errorf("backend got %v: want X-Keep, no X-Hop (named in the client's Connection)", seen)
	}
	mu.Unlock()

	s.pointBackend(t, g, backend.URL+"/slow")
	// The route table reloads asynchronously: post until the slow
	// backend's answer comes, recognised by its first bytes.
	held.CheckStreamed(t, settle+5*time.Second, func() (*http.Response, []byte, error) {
		deadline := time.Now().Add(settle)
		for {
			r, err := post()
			if err != nil {
				return nil, nil, err
			}
			first, err := loopback.ReadFirst(r)
			if string(first) == loopback.HeldFirst || time.Now().After(deadline) {
				return r, first, err
			}
			r.Body.Close()
			time.Sleep(50 * time.Millisecond)
		}
	})
}
