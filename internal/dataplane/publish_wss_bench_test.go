package dataplane

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/s2r-project/s2r/internal/httpx"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/tests/cputime"
	"github.com/s2r-project/s2r/internal/tests/loopback"
	"github.com/s2r-project/s2r/internal/upstream"
)

// inProcessSigned is inProcess that first applies the chosen backend's
// WS-Security as the upstream client does on every attempt.
type inProcessSigned struct{ answer []byte }

func (p inProcessSigned) Do(_ context.Context, svc *routing.Service, req upstream.Request) (*upstream.Response, *routing.Backend, error) {
	if s := svc.DefaultBackend.Signer; req.SOAP && s != nil {
		if _, err := s.Sign(req.Body); err != nil {
			return nil, svc.DefaultBackend, err
		}
	}
	return &upstream.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/xml"}}, Body: p.answer}, svc.DefaultBackend, nil
}

// BenchmarkPublishWSSecurity measures the publish handler (1 KB echo,
// in-process backend) without WS-Security, with a PasswordDigest
// UsernameToken and Timestamp, and with an RSA-SHA256 signature over the
// Body and the Timestamp as well.
func BenchmarkPublishWSSecurity(b *testing.B) {
	id := loopback.NewRSAIdentity(b, "bench signer")
	ut := &model.WSSecurity{UsernameToken: &model.WSSUsernameToken{Username: "u", PasswordType: model.WSSPasswordDigest},
		Timestamp: &model.WSSTimestamp{TTLSeconds: 300}}
	signed := *ut
	signed.Signature = &model.WSSSignature{CertificatePEM: id.CertPEM}
	for _, tc := range []struct {
		name string
		wss  *model.WSSecurity
	}{{"none", nil}, {"usernameToken", ut}, {"signature", &signed}} {
		b.Run(tc.name, func(b *testing.B) {
			env := &publishEnv{log: &txLog{}, routes: &staticTable{}, backend: newSOAPBackend(b)}
			env.setSource(b, func(src *routing.Source) {
				if tc.wss != nil {
					src.Backends = []upstream.Backend{signingBackendWith(b, src.Backends[0].Profile.EndpointURL, tc.wss, id)}
				}
			})
			body := echoItems(1 << 10)
			h := httpx.Correlation(New(Config{Routes: env.routes, Recorder: NopRecorder{},
				Backends: inProcessSigned{answer: echoAnswer(echoEnvelope(b, env, body))}, MaxPayloadMB: func() int { return 10 }}))
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			b.ResetTimer()
			defer cputime.Report(b)()
			for b.Loop() {
				req := httptest.NewRequest("POST", "/publish/dev/calc/echo", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != 200 {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
		})
	}
}
