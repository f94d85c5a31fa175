package upstream_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/fetch"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/tests/loopback"
	"github.com/s2r-project/s2r/internal/upstream"
)

// TestClientPolicy: with the backend policy set, a call to the metadata
// address or to a denied range is refused before connecting (502, and
// fast: no connect timeout), OAuth2 token URLs included; a loopback
// backend is called. A changed policy applies to cached transports.
func TestClientPolicy(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte(`{"access_token":"t","expires_in":60}`))
	}))
	defer srv.Close()
	c := upstream.NewClient()
	defer c.Close()
	c.SetPolicy(fetch.Policy{}.ForBackends())
	ctx := context.Background()

	if _, err := c.Do(ctx, backend(srv.URL), upstream.Request{}); err != nil || hits.Load() != 1 {
		t.Fatalf("loopback backend: %v (hits %d)", err, hits.Load())
	}
	// A legacy spelling is the address it spells (not left to DNS).
	if _, err := c.Do(ctx, backend("http://2130706433:"+port(srv.URL)+"/"), upstream.Request{}); err != nil || hits.Load() != 2 {
		t.Fatalf("loopback backend spelled 2130706433: %v (hits %d)", err, hits.Load())
	}
	for _, u := range []string{"http://169.254.169.254/latest/meta-data/", "http://2852039166/", "http://[fe80::1]/", "http://0.0.0.0:" + port(srv.URL) + "/"} {
		start := time.Now()
		b := backend(u)
		b.Profile.RetryCount = intp(2)
		_, err := c.Do(ctx, b, upstream.Request{})
		assertKind(t, err, upstream.KindUnreachable, apierr.RunBackendFault, http.StatusBadGateway)
		if !strings.Contains(err.Error(), "not allowed") || time.Since(start) > 2*time.Second {
			t.Errorf("%s: %v after %v, want refused at once", u, err, time.Since(start))
		}
		ue := err.(*upstream.Error)
		if msg := ue.APIError().Message; !strings.Contains(msg, "outbound policy") || ue.Attempts != 1 {
			t.Errorf("%s: %q after %d attempts, want the policy named and no retry", u, msg, ue.Attempts)
		}
	}
	oauth := backend(srv.URL)
	oauth.Profile.AuthType, oauth.Profile.TokenURL, oauth.Profile.ClientID = model.AuthOAuth2ClientCredentials, "http://169.254.169.254/token", "id"
	oauth.Secrets.ClientSecret = "s"
	if _, err := c.Do(ctx, oauth, upstream.Request{}); err == nil || !strings.Contains(err.Error(), "not allowed") {
		t.Errorf("token URL on the metadata address: %v", err)
	}

	// Denied wins over the loopback allowance, also for the cached transport.
	c.SetPolicy(fetch.Policy{DeniedCIDRs: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}.ForBackends())
	hits.Store(0)
	b := backend(srv.URL)
	b.Profile.ProfileID = "cached"
	if _, err := c.Do(ctx, b, upstream.Request{}); err == nil || hits.Load() != 0 {
		t.Errorf("denied loopback: %v (hits %d)", err, hits.Load())
	}
}

// TestHealthProbesPolicy: tcp and ping checks refuse what the backend
// policy refuses, before any packet is sent.
func TestHealthProbesPolicy(t *testing.T) {
	ln := loopback.Listen(t, nil)
	policy := fetch.Policy{}.ForBackends()
	denied := fetch.Policy{DeniedCIDRs: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}.ForBackends()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, mode := range []string{upstream.HealthTCP, upstream.HealthPing} {
		check := func(p *fetch.Policy, endpoint string) error {
			b := &upstream.Backend{Profile: model.BackendProfile{ProfileID: "p", EndpointURL: endpoint}}
			return upstream.Check(ctx, upstream.Probes{Policy: p}, upstream.HealthTarget{Mode: mode, Backend: b})
		}
		if err := check(&policy, "http://"+ln.Addr().String()+"/"); err != nil {
			t.Errorf("%s loopback backend: %v", mode, err)
		}
		for _, endpoint := range []string{"http://169.254.169.254/", "http://2852039166/", "http://[fe80::1]/"} {
			if err := check(&policy, endpoint); err == nil || !strings.Contains(err.Error(), "not allowed") {
				t.Errorf("%s %s: %v, want refused", mode, endpoint, err)
			}
		}
		if err := check(&denied, "http://"+ln.Addr().String()+"/"); err == nil || !strings.Contains(err.Error(), "not allowed") {
			t.Errorf("%s denied loopback: %v, want refused", mode, err)
		}
	}
}

func port(rawURL string) string {
	_, p, _ := net.SplitHostPort(strings.TrimPrefix(rawURL, "http://"))
	return p
}
