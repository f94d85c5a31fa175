package upstream_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/upstream"
)

const probeEnvelope = `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><m:Ping xmlns:m="urn:m"/></s:Body></s:Envelope>`

// wssProfile is a profile with a PasswordDigest UsernameToken whose
// password is sealed with box (nil: the credential is not set).
func wssProfile(t *testing.T, url string, box *secret.Box) model.BackendProfile {
	t.Helper()
	p := model.BackendProfile{ProfileID: "p-wss", EndpointURL: url, AuthType: model.AuthNone,
		WSSecurity: &model.WSSecurity{UsernameToken: &model.WSSUsernameToken{Username: "u", PasswordType: model.WSSPasswordDigest}}}
	if box != nil {
		sealed, err := box.Seal([]byte("pw-wss"), model.CredentialAAD(p.ProfileID, model.CredWSSPassword))
		if err != nil {
			t.Fatal(err)
		}
		p.Credentials.WSSPassword = model.NewCredential(sealed, time.Now(), "t")
	}
	return p
}

// TestSOAPRequestsCarryWSSecurity: a request marked SOAP gets the
// profile's header with a fresh nonce on every call; an unmarked one
// (REST, WSDL pulls) is sent as is; a profile whose wsSecurity cannot be
// prepared sends nothing and fails as an auth configuration error.
func TestSOAPRequestsCarryWSSecurity(t *testing.T) {
	var mu sync.Mutex
	var bodies [][]byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, b)
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	box, err := secret.NewBox(bytes.Repeat([]byte{3}, 32))
	if err != nil {
		t.Fatal(err)
	}
	b, err := upstream.Open(box, wssProfile(t, srv.URL, box))
	if err != nil || b.Signer == nil {
		t.Fatalf("open: %v, signer %v", err, b.Signer)
	}
	c := upstream.NewClient()
	t.Cleanup(c.Close)
	ctx := context.Background()
	for _, soap := range []bool{true, true, false} {
		if _, err := c.Do(ctx, b, upstream.Request{Body: []byte(probeEnvelope), SOAP: soap}); err != nil {
			t.Fatal(err)
		}
	}
	nonce := regexp.MustCompile(`<wsse:Nonce[^>]*>([^<]+)<`)
	n1, n2 := nonce.FindSubmatch(bodies[0]), nonce.FindSubmatch(bodies[1])
	if n1 == nil || n2 == nil || bytes.Equal(n1[1], n2[1]) {
		t.Errorf("nonces %q and %q in\n%s", n1, n2, bodies[0])
	}
	if string(bodies[2]) != probeEnvelope {
		t.Errorf("an unmarked request was changed: %s", bodies[2])
	}
	if bytes.Contains(bodies[0], []byte("pw-wss")) {
		t.Error("the digest password went out in clear")
	}

	// No password: Open fails; a backend built without it sends nothing.
	if _, err := upstream.Open(box, wssProfile(t, srv.URL, nil)); upstream.KindOf(err) != upstream.KindAuthConfig {
		t.Errorf("open without the password: %v", err)
	}
	_, err = c.Do(ctx, upstream.Backend{Profile: wssProfile(t, srv.URL, nil)}, upstream.Request{Body: []byte(probeEnvelope), SOAP: true})
	if upstream.KindOf(err) != upstream.KindAuthConfig || len(bodies) != 3 {
		t.Errorf("unprepared wsSecurity: %v, %d requests", err, len(bodies))
	}
}
