package main

import (
	"net/http"
	"strings"
	"testing"
)

// TestServeLogsConsoleURL: s2r serve logs the console's URL once the
// listener serving it is bound, and GET / there redirects to it.
func TestServeLogsConsoleURL(t *testing.T) {
	logs, stop := startServe(t, map[string]string{
		"S2R_LISTEN_ADDR": "127.0.0.1:0",
		"S2R_DATA_DIR":    t.TempDir(),
	})
	defer stop()
	base := logs.addr(t, "main")
	want := `"url":"` + base + `/console/"`
	found := false
	for _, line := range strings.Split(logs.String(), "\n") {
		found = found || (strings.Contains(line, `"msg":"console"`) && strings.Contains(line, want))
	}
	if !found {
		t.Errorf("no console line with %s:\n%s", want, logs)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/console/" {
		t.Errorf("GET / = %d Location %q, want 302 /console/", resp.StatusCode, resp.Header.Get("Location"))
	}
}

func TestListenerURL(t *testing.T) {
	for in, want := range map[string]string{
		"127.0.0.1:8080": "http://127.0.0.1:8080",
		"0.0.0.0:8080":   "http://127.0.0.1:8080",
		"[::]:8080":      "http://127.0.0.1:8080",
		"[::1]:9000":     "http://[::1]:9000",
		":8080":          "http://127.0.0.1:8080",
		"localhost:1":    "http://localhost:1",
	} {
		if got := listenerURL(in); got != want {
			t.Errorf("listenerURL(%q) = %q, want %q", in, got, want)
		}
	}
}
