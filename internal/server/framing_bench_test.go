package server

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"testing"
)

// BenchmarkFraming measures a keep-alive POST of a 20 KB body through a
// real loopback listener, with and without the framing check, in one run
// (docs/PERFORMANCE.md, security section).
func BenchmarkFraming(b *testing.B) {
	body := bytes.Repeat([]byte("<a>0123456789</a>"), 20<<10/17)
	for _, bc := range []struct {
		name   string
		strict bool
	}{{"plain", false}, {"strict", true}} {
		b.Run(bc.name, func(b *testing.B) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			addr := ln.Addr().String()
			if bc.strict {
				ln = strictListener{Listener: ln, token: "t"}
			}
			srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n, _ := io.Copy(io.Discard, r.Body)
				w.Header().Set("X-N", string(rune('0'+n%10)))
			})}
			go srv.Serve(ln)
			defer srv.Close()
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
			b.SetBytes(int64(len(body)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				resp, err := client.Post("http://"+addr+"/gateway/dev/x", "text/xml", bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
}
