package upstream_test

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/tests/loopback"
	"github.com/s2r-project/s2r/internal/upstream"
)

// backend returns a profile calling url with auth type none.
func backend(url string) upstream.Backend {
	p := model.BackendProfile{ProfileID: "p-" + url, EndpointURL: url, AuthType: model.AuthNone,
		UpdatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	model.ApplyBackendDefaults(&p)
	return upstream.Backend{Profile: p}
}

func intp(v int) *int { return &v }

// echoAuth answers the auth-relevant request headers as the body.
func echoAuth(w http.ResponseWriter, r *http.Request) {
	io.WriteString(w, r.Header.Get("Authorization")+"|"+r.Header.Get("X-Api-Key")+"|"+r.Header.Get("X-Custom-Key"))
}

func TestAuthTypes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(echoAuth))
	defer srv.Close()
	tests := []struct {
		name string
		edit func(*upstream.Backend)
		want string
	}{
		{"none", func(*upstream.Backend) {}, "||"},
		{"basic", func(b *upstream.Backend) {
			b.Profile.AuthType, b.Profile.Username, b.Secrets.Password = model.AuthBasic, "user", "pa:ss"
		}, "Basic dXNlcjpwYTpzcw==||"},
		{"bearer", func(b *upstream.Backend) {
			b.Profile.AuthType, b.Secrets.Token = model.AuthBearer, "tok-123"
		}, "Bearer tok-123||"},
		{"api key default header", func(b *upstream.Backend) {
			b.Profile.AuthType, b.Secrets.APIKey = model.AuthAPIKeyHeader, "k-1"
		}, "|k-1|"},
		{"api key custom header", func(b *upstream.Backend) {
			b.Profile.AuthType, b.Profile.APIKeyHeaderName, b.Secrets.APIKey = model.AuthAPIKeyHeader, "x-custom-key", "k-2"
		}, "||k-2"},
	}
	c := upstream.NewClient()
	defer c.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := backend(srv.URL)
			b.Profile.ProfileID = tt.name
			tt.edit(&b)
			resp, err := c.Do(context.Background(), b, upstream.Request{Method: "GET"})
			if err != nil {
				t.Fatal(err)
			}
			if got := string(resp.Body); got != tt.want {
				t.Errorf("headers = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAuthConfigErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(echoAuth))
	defer srv.Close()
	tests := []struct {
		name string
		edit func(*upstream.Backend)
	}{
		{"basic without password", func(b *upstream.Backend) { b.Profile.AuthType, b.Profile.Username = model.AuthBasic, "u" }},
		{"basic without username", func(b *upstream.Backend) { b.Profile.AuthType, b.Secrets.Password = model.AuthBasic, "p" }},
		{"bearer without token", func(b *upstream.Backend) { b.Profile.AuthType = model.AuthBearer }},
		{"api key without key", func(b *upstream.Backend) { b.Profile.AuthType = model.AuthAPIKeyHeader }},
		{"api key bad header", func(b *upstream.Backend) {
			b.Profile.AuthType, b.Profile.APIKeyHeaderName, b.Secrets.APIKey = model.AuthAPIKeyHeader, "bad header", "k"
		}},
		{"oauth2 without token url", func(b *upstream.Backend) {
			b.Profile.AuthType, b.Profile.ClientID, b.Secrets.ClientSecret = model.AuthOAuth2ClientCredentials, "c", "s"
		}},
		{"oauth2 without secret", func(b *upstream.Backend) {
			b.Profile.AuthType, b.Profile.ClientID, b.Profile.TokenURL = model.AuthOAuth2ClientCredentials, "c", srv.URL
		}},
		{"unknown type", func(b *upstream.Backend) { b.Profile.AuthType = "kerberos" }},
		{"mtls without key", func(b *upstream.Backend) { b.Profile.MTLSEnabled, b.Profile.ClientCertPEM = true, "x" }},
		{"mtls bad pair", func(b *upstream.Backend) {
			b.Profile.MTLSEnabled, b.Profile.ClientCertPEM, b.Secrets.ClientKeyPEM = true, "x", "SECRET-KEY-TEXT"
		}},
		{"bad CA", func(b *upstream.Backend) { b.Profile.CACertPEM = "not a pem" }},
	}
	c := upstream.NewClient()
	defer c.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := backend(srv.URL)
			b.Profile.ProfileID = tt.name
			tt.edit(&b)
			_, err := c.Do(context.Background(), b, upstream.Request{})
			assertKind(t, err, upstream.KindAuthConfig, apierr.RunBackendAuth, http.StatusBadGateway)
			if strings.Contains(err.Error(), "SECRET-KEY-TEXT") {
				t.Errorf("error quotes the key: %v", err)
			}
		})
	}
}

// assertKind checks the kind of err and the S2R code and status it maps to.
func assertKind(t *testing.T, err error, kind upstream.Kind, code string, status int) {
	t.Helper()
	var ue *upstream.Error
	if !errors.As(err, &ue) {
		t.Fatalf("err = %v, want *upstream.Error", err)
	}
	if ue.Kind != kind {
		t.Errorf("kind = %s, want %s (%v)", ue.Kind, kind, err)
	}
	ae := ue.APIError()
	if ae.Code != code || ae.Status() != status {
		t.Errorf("maps to %s %d, want %s %d", ae.Code, ae.Status(), code, status)
	}
}

func TestOAuth2SingleFlight(t *testing.T) {
	var fetches atomic.Int32
	tokenSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, sec, ok := r.BasicAuth()
		// RFC 6749 2.3.1: client id and secret are form-urlencoded first.
		id, _ = url.QueryUnescape(id)
		sec, _ = url.QueryUnescape(sec)
		if err := r.ParseForm(); err != nil || !ok || id != "client 1" || sec != "s3cr&t" ||
			r.PostForm.Get("grant_type") != "client_credentials" || r.PostForm.Get("scope") != "read" {
			http.Error(w, "bad client", http.StatusUnauthorized)
			return
		}
		fetches.Add(1)
		time.Sleep(50 * time.Millisecond) // let every caller pile up
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"access_token":"at-1","token_type":"Bearer","expires_in":3600}`)
	}))
	defer tokenSrv.Close()
	api := httptest.NewServer(http.HandlerFunc(echoAuth))
	defer api.Close()
	b := backend(api.URL)
	b.Profile.AuthType, b.Profile.TokenURL, b.Profile.ClientID, b.Profile.Scope =
		model.AuthOAuth2ClientCredentials, tokenSrv.URL, "client 1", "read"
	b.Secrets.ClientSecret = "s3cr&t"
	c := upstream.NewClient()
	defer c.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for range 50 {
		wg.Go(func() {
			resp, err := c.Do(context.Background(), b, upstream.Request{Method: "GET"})
			if err == nil && string(resp.Body) != "Bearer at-1||" {
				err = errors.New("auth header " + string(resp.Body))
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := fetches.Load(); n != 1 {
		t.Errorf("token fetches = %d, want 1", n)
	}
	c.InvalidateToken(b)
	if _, err := c.Do(context.Background(), b, upstream.Request{Method: "GET"}); err != nil {
		t.Fatal(err)
	}
	if n := fetches.Load(); n != 2 {
		t.Errorf("token fetches after invalidation = %d, want 2", n)
	}
	c.Forget(b.Profile.ProfileID)
	if _, err := c.Do(context.Background(), b, upstream.Request{Method: "GET"}); err != nil {
		t.Fatal(err)
	}
	if n := fetches.Load(); n != 3 {
		t.Errorf("token fetches after Forget = %d, want 3", n)
	}
	b.Secrets.ClientSecret = "wrong"
	b.Profile.UpdatedAt = b.Profile.UpdatedAt.Add(time.Second)
	_, err := c.Do(context.Background(), b, upstream.Request{Method: "GET"})
	assertKind(t, err, upstream.KindAuthConfig, apierr.RunBackendAuth, http.StatusBadGateway)
	if strings.Contains(err.Error(), "wrong") {
		t.Errorf("error quotes the secret: %v", err)
	}
}

func TestMTLS(t *testing.T) {
	pki := loopback.NewPKI(t)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.TLS.PeerCertificates[0].Subject.CommonName)
	}))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{pki.ServerCert}, ClientCAs: pki.CAPool,
		ClientAuth: tls.RequireAndVerifyClientCert}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes are expected
	srv.StartTLS()
	defer srv.Close()
	c := upstream.NewClient()
	defer c.Close()

	b := backend(srv.URL)
	b.Profile.CACertPEM, b.Profile.MTLSEnabled, b.Profile.ClientCertPEM = pki.CAPEM, true, pki.ClientCertPEM
	b.Secrets.ClientKeyPEM = pki.ClientKeyPEM
	resp, err := c.Do(context.Background(), b, upstream.Request{Method: "GET"})
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Body) != "s2r client" {
		t.Errorf("server saw client %q", resp.Body)
	}

	noCert := backend(srv.URL)
	noCert.Profile.ProfileID, noCert.Profile.CACertPEM = "no-cert", pki.CAPEM
	_, err = c.Do(context.Background(), noCert, upstream.Request{Method: "GET"})
	assertKind(t, err, upstream.KindUnreachable, apierr.RunBackendFault, http.StatusBadGateway)

	noCA := backend(srv.URL)
	noCA.Profile.ProfileID = "no-ca"
	_, err = c.Do(context.Background(), noCA, upstream.Request{Method: "GET"})
	assertKind(t, err, upstream.KindUnreachable, apierr.RunBackendFault, http.StatusBadGateway)
}

func TestOpenSecrets(t *testing.T) {
	box, err := secret.NewBox(make([]byte, secret.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	p := model.BackendProfile{ProfileID: "p1", AuthType: model.AuthBearer}
	sealed, err := box.Seal([]byte("tok"), model.CredentialAAD("p1", model.CredToken))
	if err != nil {
		t.Fatal(err)
	}
	p.Credentials.Token = model.NewCredential(sealed, time.Time{}, "")
	b, err := upstream.Open(box, p)
	if err != nil || b.Secrets.Token != "tok" {
		t.Fatalf("Open = %q, %v", b.Secrets.Token, err)
	}
	p.ProfileID = "p2" // a ciphertext moved to another profile does not open
	_, err = upstream.Open(box, p)
	assertKind(t, err, upstream.KindAuthConfig, apierr.RunBackendAuth, http.StatusBadGateway)
}
