package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestGetRedirects(t *testing.T) {
	var srvURL string
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, "/chain/"):
			n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/chain/"))
			if n == 0 {
				fmt.Fprint(w, "end")
				return
			}
			http.Redirect(w, r, "/chain/"+strconv.Itoa(n-1), http.StatusFound)
		case r.URL.Path == "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case r.URL.Path == "/to":
			http.Redirect(w, r, r.URL.Query().Get("u"), http.StatusMovedPermanently)
		}
	})
	srvURL = srv.URL
	port := strings.TrimPrefix(srvURL, "http://127.0.0.1:")
	tests := []struct {
		name   string
		max    int
		path   string
		reason Reason
		msg    string
	}{
		{name: "chain within limit", max: 3, path: "/chain/3"},
		{name: "default limit 5", path: "/chain/5"},
		{name: "chain over limit", max: 3, path: "/chain/4", reason: ReasonTooManyRedirects,
			msg: "fetch " + srvURL + "/chain/4: more than 3 redirects"},
		{name: "default over limit", path: "/loop", reason: ReasonTooManyRedirects,
			msg: "fetch " + srvURL + "/loop: more than 5 redirects"},
		{name: "no redirects allowed", max: -1, path: "/chain/1", reason: ReasonTooManyRedirects,
			msg: "fetch " + srvURL + "/chain/1: more than 0 redirects"},
		{name: "to other loopback", path: "/to?u=http://127.0.0.2:" + port + "/chain/0", reason: ReasonBlockedAddress,
			msg: "fetch " + srvURL + "/to?u=http://127.0.0.2:" + port + "/chain/0: address 127.0.0.2 is not allowed (loopback)"},
		{name: "to metadata", path: "/to?u=http://169.254.169.254/latest/", reason: ReasonBlockedAddress,
			msg: "fetch " + srvURL + "/to?u=http://169.254.169.254/latest/: address 169.254.169.254 is not allowed (link-local)"},
		{name: "to ipv6 loopback", path: "/to?u=http://[::1]:" + port + "/chain/0", reason: ReasonBlockedAddress,
			msg: "fetch " + srvURL + "/to?u=http://[::1]:" + port + "/chain/0: address ::1 is not allowed (loopback)"},
		{name: "to file scheme", path: "/to?u=file:///etc/passwd", reason: ReasonBadScheme,
			msg: "fetch " + srvURL + "/to?u=file:///etc/passwd: redirect to file:///etc/passwd refused: scheme \"file\" is not allowed; only http and https URLs can be fetched"},
		{name: "to userinfo", path: "/to?u=http://a:topsecret@127.0.0.1:" + port + "/", reason: ReasonBadURL,
			msg: "fetch " + srvURL + "/to?u=REDACTED: redirect to http://127.0.0.1:" + port + "/ refused: URL must not contain a user name or password"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := New(Policy{AllowedCIDRs: allowLoopback, MaxRedirects: tt.max, Timeout: 2 * time.Second})
			res, err := f.Get(context.Background(), srvURL+tt.path)
			if tt.reason == "" {
				if err != nil {
					t.Fatal(err)
				}
				if string(res.Body) != "end" || res.FinalURL != srvURL+"/chain/0" {
					t.Errorf("body %q final %q", res.Body, res.FinalURL)
				}
				return
			}
			wantFetchError(t, err, tt.reason, tt.msg)
			if strings.Contains(err.Error(), "topsecret") {
				t.Errorf("error leaks a password: %v", err)
			}
		})
	}
}

func TestGetSizeLimit(t *testing.T) {
	body := strings.Repeat("x", 2000)
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/chunked" {
			// Flushing before the end leaves Content-Length unset.
			fmt.Fprint(w, body[:10])
			w.(http.Flusher).Flush()
		} else {
			w.Header().Set("Content-Length", "2000")
			fmt.Fprint(w, body[:10])
		}
		fmt.Fprint(w, body[10:])
	})
	for _, path := range []string{"/declared", "/chunked"} {
		t.Run(path, func(t *testing.T) {
			f := New(Policy{AllowedCIDRs: allowLoopback, MaxBytes: 1000})
			_, err := f.Get(context.Background(), srv.URL+path)
			wantFetchError(t, err, ReasonTooLarge, "fetch "+srv.URL+path+": response body exceeds the limit of 1000 bytes")
		})
	}
	t.Run("exactly at limit", func(t *testing.T) {
		res, err := New(Policy{AllowedCIDRs: allowLoopback, MaxBytes: 2000}).Get(context.Background(), srv.URL+"/chunked")
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Body) != 2000 {
			t.Errorf("len = %d", len(res.Body))
		}
	})
}

func TestGetTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow-body" {
			w.Header().Set("Content-Length", "100")
			fmt.Fprint(w, "partial")
			w.(http.Flusher).Flush()
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	for _, path := range []string{"/hang", "/slow-body"} {
		t.Run(path, func(t *testing.T) {
			f := New(Policy{AllowedCIDRs: allowLoopback, Timeout: 150 * time.Millisecond})
			start := time.Now()
			_, err := f.Get(context.Background(), srv.URL+path)
			wantFetchError(t, err, ReasonTimeout, "fetch "+srv.URL+path+": no complete answer within 150ms")
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("timeout took %v", d)
			}
		})
	}
}

// TestGetGzipBomb checks the limit applies to the decoded body when the
// transport decompresses gzip transparently.
func TestGetGzipBomb(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(make([]byte, 8<<20))
	zw.Close()
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gz.Bytes())
	})
	f := New(Policy{AllowedCIDRs: allowLoopback, MaxBytes: 1 << 20})
	_, err := f.Get(context.Background(), srv.URL)
	wantFetchError(t, err, ReasonTooLarge, "fetch "+srv.URL+": response body exceeds the limit of 1048576 bytes")
}

// hangingResolver answers only when the context ends, like a DNS server
// that never replies.
type hangingResolver struct{}

func (hangingResolver) LookupNetIP(ctx context.Context, _, _ string) ([]netip.Addr, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func TestGetDNSTimeout(t *testing.T) {
	f := New(Policy{Timeout: 150 * time.Millisecond, Resolver: hangingResolver{}})
	_, err := f.Get(context.Background(), "http://slow.example/")
	wantFetchError(t, err, ReasonTimeout, "fetch http://slow.example/: no complete answer within 150ms")
}
