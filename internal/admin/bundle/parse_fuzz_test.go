package bundle

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
)

// FuzzParseBundle: any body, JSON or YAML, is read or refused with 400
// S2R-VAL-0400 and a pointer, never a panic; a bundle that reads is
// checked (WSDL files imported) without a panic either.
func FuzzParseBundle(f *testing.F) {
	for _, s := range []string{
		`{"apiVersion":"s2r/v1","kind":"Bundle","services":[]}`,
		"apiVersion: s2r/v1\nkind: Bundle\nservices: []\n",
		`{"apiVersion":"s2r/v1","kind":"Bundle","services":[{"serviceKey":"a","environment":"dev","direction":"publish",` +
			`"callbackSecret":"x","backendProfiles":[{"name":"default","endpointUrl":"http://b","credentials":{"password":{"set":true}}}],` +
			`"version":{"wsdl":{"rootPath":"r.wsdl","files":{"r.wsdl":"<definitions/>"}},"operations":[]}}]}`,
		`{"apiVersion":"s2r/v1","kind":"Bundle","services":[{"serviceKey":"a","environment":"dev","direction":"publish",` +
			`"rateLimits":{"clientKey":"header:X-C","requestsPerMinute":60},"backendProfiles":[{"name":"p","endpointUrl":"http://b",` +
			`"maxConcurrentRequests":2,"maxRequestsPerSecond":0.5,"queueTimeoutMs":10,"wsAddressing":true,` +
			`"wsSecurity":{"usernameToken":{"username":"u"},"signature":{"certificatePem":"x","signParts":["Body"]}},` +
			`"credentials":{"wssPassword":"p","wssSigningKeyPem":{"set":true}}}]}]}`,
		`{"apiVersion":"s2r/v1","kind":"Bundle","services":[{"x":1}]}`,
		"a: &a [*a]\n", "{", "- 1\n- 2\n", `{"apiVersion":"s2r/v1","kind":"Bundle","services":[],"services":[]}`,
	} {
		f.Add([]byte(s), "")
		f.Add([]byte(s), "application/yaml")
	}
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		b, err := ParseBundle(body, contentType)
		if err != nil {
			e, ok := apierr.As(err)
			if !ok || e.Code != apierr.ValBadRequest {
				t.Fatalf("error %v is not S2R-VAL-0400", err)
			}
			if _, ok := e.Details["pointer"]; !ok {
				t.Fatalf("error %v has no pointer", err)
			}
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := (checker{now: time.Unix(0, 0)}).check(ctx, &b); err != nil {
			if _, ok := apierr.As(err); !ok {
				t.Fatalf("check: %v is not an API error", err)
			}
		}
	})
}

// TestSecretSetPrinting: printing a secret given as a value never shows it.
func TestSecretSetPrinting(t *testing.T) {
	s := Service{CallbackSecret: &SecretSet{Set: true, Value: "never-printed"},
		BackendProfiles: []BackendProfile{{Credentials: map[string]SecretSet{"password": {Set: true, Value: "never-printed"}}}}}
	for _, f := range []string{"%v", "%+v", "%#v", "%s"} {
		if out := fmt.Sprintf(f, s); strings.Contains(out, "never-printed") {
			t.Errorf("%s shows the secret: %s", f, out)
		}
	}
}
