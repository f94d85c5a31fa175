package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestRootRedirectsToConsole: GET and HEAD / redirect to /console/ on the
// listener that serves the console, and only there; other methods keep
// the runtime's answer.
func TestRootRedirectsToConsole(t *testing.T) {
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, c := range []struct {
		name     string
		handler  http.Handler
		method   string
		wantCode int
	}{
		{"main GET", testConfig(t, false).MainHandler(), http.MethodGet, http.StatusFound},
		{"main HEAD", testConfig(t, false).MainHandler(), http.MethodHead, http.StatusFound},
		{"main POST", testConfig(t, false).MainHandler(), http.MethodPost, http.StatusBadRequest},
		{"admin listener GET", testConfig(t, true).AdminHandler(), http.MethodGet, http.StatusFound},
		{"main with separate admin GET", testConfig(t, true).MainHandler(), http.MethodGet, http.StatusBadRequest},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(c.handler)
			defer srv.Close()
			req, _ := http.NewRequest(c.method, srv.URL+"/", strings.NewReader(""))
			resp, err := noRedirect.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != c.wantCode {
				t.Fatalf("%s / = %d, want %d", c.method, resp.StatusCode, c.wantCode)
			}
			if c.wantCode == http.StatusFound && resp.Header.Get("Location") != "/console/" {
				t.Errorf("Location = %q, want /console/", resp.Header.Get("Location"))
			}
		})
	}
}
