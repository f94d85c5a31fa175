package dataplane_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/upstream"
)

// BenchmarkGatewayPassthrough measures one 1 KB request through the
// gateway handler (guards, selection, breaker, streaming proxy, record)
// to a loopback backend, against the same request sent to the backend
// directly ("direct").
func BenchmarkGatewayPassthrough(b *testing.B) {
	body := bytes.Repeat([]byte("<a>x</a>"), 128)
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(w, r.Body)
	}))
	defer backend.Close()
	gw := newGW(b, gwService(upstream.RoutingSingle, backend.URL), 10, dataplane.GatewayConfig{})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	for _, c := range []struct{ name, url string }{{"direct", backend.URL}, {"gateway", gw.front.URL + "/gateway/dev/calc"}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					resp, err := client.Post(c.url, "text/xml", bytes.NewReader(body))
					if err != nil {
						b.Fatal(err)
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 {
						b.Fatalf("status %d", resp.StatusCode)
					}
				}
			})
		})
	}
}
