package httpx

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestRecover(t *testing.T) {
	log, buf := newLogger()
	chain := func(h http.HandlerFunc) http.Handler { return Recover(log)(Correlation(AccessLog(log)(h))) }
	t.Run("before write", func(t *testing.T) {
		srv := serve(t, chain(func(w http.ResponseWriter, r *http.Request) { panic("kaboom secret-internal") }))
		req, _ := http.NewRequest("GET", srv.URL+"/x", nil)
		req.Header.Set("X-Correlation-Id", "cid-panic")
		resp, body := do(t, req)
		if resp.StatusCode != 500 {
			t.Errorf("status = %d, want 500", resp.StatusCode)
		}
		want := `{"error":{"code":"S2R-RUN-0500","message":"internal error","details":{},"correlationId":"cid-panic"}}`
		if strings.TrimSpace(body) != want {
			t.Errorf("body = %s, want %s", body, want)
		}
		if !strings.Contains(buf.String(), `"msg":"panic serving request"`) || !strings.Contains(buf.String(), "kaboom") {
			t.Errorf("panic not logged:\n%s", buf)
		}
		if !strings.Contains(buf.String(), `"status":500`) {
			t.Errorf("access log lacks status 500:\n%s", buf)
		}
	})
	t.Run("after write", func(t *testing.T) {
		srv := serve(t, chain(func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("partial"))
			panic("late")
		}))
		resp, err := http.Get(srv.URL)
		if err == nil {
			_, err = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		if err == nil {
			t.Error("a panic after the response started looked like a complete response")
		}
	})
	t.Run("abort handler", func(t *testing.T) {
		srv := serve(t, chain(func(w http.ResponseWriter, r *http.Request) { panic(http.ErrAbortHandler) }))
		resp, err := http.Get(srv.URL)
		if err == nil {
			resp.Body.Close()
			t.Errorf("ErrAbortHandler answered %d, want the connection aborted", resp.StatusCode)
		}
	})
}
