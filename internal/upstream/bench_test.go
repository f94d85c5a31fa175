package upstream_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/upstream"
)

// benchEnvelope is a small SOAP request; the server answers a small
// envelope, as a typical calculator call.
var benchEnvelope = []byte(`<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
	`<c:Add xmlns:c="urn:calc"><c:a>2</c:a><c:b>3</c:b></c:Add></soap:Body></soap:Envelope>`)

const benchAnswer = `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
	`<c:AddResponse xmlns:c="urn:calc"><c:result>5</c:result></c:AddResponse></soap:Body></soap:Envelope>`

func benchServer(b *testing.B) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/token" {
			io.WriteString(w, `{"access_token":"t","token_type":"bearer","expires_in":3600}`)
			return
		}
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/xml")
		io.WriteString(w, benchAnswer)
	}))
	b.Cleanup(srv.Close)
	return srv
}

// BenchmarkBaselineHTTPClient is the baseline: a keep-alive net/http
// client posting the same envelope and reading the answer.
func BenchmarkBaselineHTTPClient(b *testing.B) {
	srv := benchServer(b)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	b.ReportAllocs()
	for b.Loop() {
		req, _ := http.NewRequest("POST", srv.URL+"/calc", strings.NewReader(string(benchEnvelope)))
		req.Header.Set("Content-Type", "text/xml; charset=utf-8")
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.ReadAll(resp.Body)
		resp.Body.Close()
	}
}

// BenchmarkClientDo is the same call through upstream.Client with the
// given auth: transport cache, auth header, traceparent, size-limited read.
func BenchmarkClientDo(b *testing.B) {
	srv := benchServer(b)
	for _, tc := range []struct {
		name string
		edit func(*upstream.Backend)
	}{
		{"none", func(*upstream.Backend) {}},
		{"basic", func(be *upstream.Backend) {
			be.Profile.AuthType, be.Profile.Username, be.Secrets.Password = model.AuthBasic, "u", "p"
		}},
		{"oauth2-cached", func(be *upstream.Backend) {
			be.Profile.AuthType, be.Profile.TokenURL, be.Profile.ClientID = model.AuthOAuth2ClientCredentials, srv.URL+"/token", "c"
			be.Secrets.ClientSecret = "s"
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			c := upstream.NewClient()
			defer c.Close()
			be := backend(srv.URL + "/calc")
			tc.edit(&be)
			req := upstream.Request{Body: benchEnvelope, Header: http.Header{"Content-Type": {"text/xml; charset=utf-8"}}}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Do(ctx, be, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
