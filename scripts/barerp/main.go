// Command barerp is the floor of scripts/bench-gateway.sh: a bare
// httputil.ReverseProxy to one backend, nothing else (no guards, routing,
// records, metrics or logs), so the benchmark can tell what the gateway
// adds from what Go's HTTP stack costs.
//
//	barerp -addr 127.0.0.1:18183 -backend http://127.0.0.1:18181/calc          net/http's Transport
//	barerp -addr 127.0.0.1:18184 -backend http://127.0.0.1:18181/calc -direct  s2r's upstream client
package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"log"
	"net/http"
	"net/http/httputil"
	"net/url"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/upstream"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18183", "listen address")
	backend := flag.String("backend", "", "backend URL")
	direct := flag.Bool("direct", false, "use s2r's upstream client (direct HTTP/1.1 path for small bodies)")
	flag.Parse()
	u, err := url.Parse(*backend)
	if err != nil || u.Host == "" {
		log.Fatal("-backend: an absolute URL is required")
	}
	var rt http.RoundTripper = &http.Transport{MaxIdleConnsPerHost: 64}
	if *direct {
		p := model.BackendProfile{ProfileID: "bare", EndpointURL: *backend, AuthType: model.AuthNone, UpdatedAt: time.Now()}
		model.ApplyBackendDefaults(&p)
		rt = &upstreamRT{c: upstream.NewClient(), b: upstream.Backend{Profile: p}}
	}
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(u)
			pr.Out.URL.Path = u.Path
			pr.SetXForwarded()
		},
		Transport: rt,
	}
	log.Fatal(http.ListenAndServe(*addr, rp))
}

// upstreamRT sends through upstream.Client's per-profile transport; the
// body is read first (as the gateway does for small bodies) so the direct
// client can take it.
type upstreamRT struct {
	c *upstream.Client
	b upstream.Backend
}

func (t *upstreamRT) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil && r.ContentLength > 0 && r.ContentLength <= 4<<10 {
		buf := make([]byte, r.ContentLength)
		if _, err := io.ReadFull(r.Body, buf); err != nil {
			return nil, err
		}
		r.Body = io.NopCloser(bytes.NewReader(buf))
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(buf)), nil }
	}
	rt, err := t.c.Prepare(context.Background(), t.b, r)
	if err != nil {
		return nil, err
	}
	return rt.RoundTrip(r)
}
