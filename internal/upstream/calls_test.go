package upstream_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/correlation"
	"github.com/s2r-project/s2r/internal/tests/loopback"
	"github.com/s2r-project/s2r/internal/upstream"
)

func TestRetries(t *testing.T) {
	c := upstream.NewClient()
	defer c.Close()
	t.Run("connect refused is retried", func(t *testing.T) {
		b := backend("http://" + loopback.FreeAddr(t) + "/")
		b.Profile.RetryCount = intp(2)
		_, err := c.Do(context.Background(), b, upstream.Request{})
		assertKind(t, err, upstream.KindUnreachable, apierr.RunBackendFault, http.StatusBadGateway)
		if ue := err.(*upstream.Error); ue.Attempts != 3 {
			t.Errorf("attempts = %d, want 3", ue.Attempts)
		}
	})
	var hits atomic.Int32
	hangup := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	defer hangup.Close()
	for _, tt := range []struct {
		name      string
		afterSend bool
		want      int32
	}{
		{"failure after sending is not retried", false, 1},
		{"failure after sending is retried on opt-in", true, 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			hits.Store(0)
			b := backend(hangup.URL)
			b.Profile.RetryCount = intp(2)
			_, err := c.Do(context.Background(), b, upstream.Request{RetryAfterSend: tt.afterSend})
			assertKind(t, err, upstream.KindUnreachable, apierr.RunBackendFault, http.StatusBadGateway)
			if got := hits.Load(); got != tt.want {
				t.Errorf("server hits = %d, want %d", got, tt.want)
			}
		})
	}
	t.Run("HTTP errors are answers, not retried", func(t *testing.T) {
		var n atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			http.Error(w, "boom", http.StatusInternalServerError)
		}))
		defer srv.Close()
		b := backend(srv.URL)
		b.Profile.RetryCount = intp(3)
		resp, err := c.Do(context.Background(), b, upstream.Request{RetryAfterSend: true})
		if err != nil || resp.StatusCode != 500 || n.Load() != 1 || resp.Attempts != 1 {
			t.Errorf("resp %+v, err %v, hits %d", resp, err, n.Load())
		}
	})
}

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	c := upstream.NewClient()
	defer c.Close()
	b := backend(srv.URL)
	b.Profile.TimeoutMs, b.Profile.RetryCount = intp(100), intp(3)
	start := time.Now()
	_, err := c.Do(context.Background(), b, upstream.Request{})
	assertKind(t, err, upstream.KindTimeout, apierr.RunBackendTimeout, http.StatusGatewayTimeout)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("call took %v with a 100 ms timeout", d)
	}
}

func TestResponseSizeLimit(t *testing.T) {
	body := strings.Repeat("x", 2048)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("chunked") == "" {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		} else {
			w.(http.Flusher).Flush()
		}
		io.WriteString(w, body)
	}))
	defer srv.Close()
	c := upstream.NewClient()
	defer c.Close()
	for _, q := range []string{"", "?chunked=1"} {
		t.Run("over"+q, func(t *testing.T) {
			_, err := c.Do(context.Background(), backend(srv.URL), upstream.Request{URL: srv.URL + q, MaxResponseBytes: 1024})
			assertKind(t, err, upstream.KindTooLarge, apierr.RunPayloadTooLarge, http.StatusRequestEntityTooLarge)
			if ae := err.(*upstream.Error).APIError(); ae.Details["maxPayloadMb"] != 1 {
				t.Errorf("details = %v", ae.Details)
			}
		})
		t.Run("at limit"+q, func(t *testing.T) {
			resp, err := c.Do(context.Background(), backend(srv.URL), upstream.Request{URL: srv.URL + q, MaxResponseBytes: 2048})
			if err != nil || len(resp.Body) != 2048 {
				t.Errorf("err %v", err)
			}
		})
	}
}

func TestTraceAndCorrelation(t *testing.T) {
	got := make(chan http.Header, 2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got <- r.Header }))
	defer srv.Close()
	c := upstream.NewClient()
	defer c.Close()
	in := "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	ctx := correlation.WithID(upstream.WithTraceParent(context.Background(), in), "corr-1")
	if _, err := c.Do(ctx, backend(srv.URL), upstream.Request{}); err != nil {
		t.Fatal(err)
	}
	h := <-got
	tp := h.Get("Traceparent")
	if !strings.HasPrefix(tp, "00-4bf92f3577b34da6a3ce929d0e0e4736-") || tp == in || !strings.HasSuffix(tp, "-01") {
		t.Errorf("traceparent = %q, want the incoming trace with a new span", tp)
	}
	if h.Get("X-Correlation-Id") != "corr-1" {
		t.Errorf("correlation id = %q", h.Get("X-Correlation-Id"))
	}
	if _, err := c.Do(context.Background(), backend(srv.URL), upstream.Request{}); err != nil {
		t.Fatal(err)
	}
	if tp := (<-got).Get("Traceparent"); len(tp) != 55 || strings.Contains(tp, "4bf92f35") {
		t.Errorf("generated traceparent = %q", tp)
	}
}

func TestTransportReuse(t *testing.T) {
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	c := upstream.NewClient()
	defer c.Close()
	b := backend(srv.URL)
	for range 5 {
		if _, err := c.Do(context.Background(), b, upstream.Request{}); err != nil {
			t.Fatal(err)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("connections for 5 sequential calls = %d, want 1 (keep-alive)", n)
	}
	b.Profile.UpdatedAt = b.Profile.UpdatedAt.Add(time.Minute)
	if _, err := c.Do(context.Background(), b, upstream.Request{}); err != nil {
		t.Fatal(err)
	}
	if n := conns.Load(); n != 2 {
		t.Errorf("connections after a profile update = %d, want 2 (fresh transport)", n)
	}
	c.Forget(b.Profile.ProfileID)
	if _, err := c.Do(context.Background(), b, upstream.Request{}); err != nil {
		t.Fatal(err)
	}
	if n := conns.Load(); n != 3 {
		t.Errorf("connections after Forget = %d, want 3", n)
	}
}
