package backends

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/s2r-project/s2r/internal/model"
)

// FuzzProfileEdit feeds arbitrary JSON bodies through the backend profile
// body decoding and validation: no panic, and an accepted profile always
// has a valid endpoint URL and auth type.
func FuzzProfileEdit(f *testing.F) {
	for _, s := range []string{
		`{"endpointUrl":"http://10.0.0.5/calc","authType":"basic","username":"u","credentials":{"password":"p"}}`,
		`{"endpointUrl":"https://x/","mtlsEnabled":true,"clientCertPem":"-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----"}`,
		`{"credentials":{"token":null,"apiKey":5}}`,
		`{"authType":"oauth2_client_credentials","tokenUrl":"http://u:p@idp/t","clientId":"c"}`,
		`{"timeoutMs":null,"retryCount":-1,"routingWeight":1e9,"isDefault":true}`,
		`{"endpointUrl":"http://x/","maxConcurrentRequests":2,"maxRequestsPerSecond":0.5,"queueTimeoutMs":100}`,
		`{"endpointUrl":"http://x/","maxConcurrentRequests":-1e300,"maxRequestsPerSecond":null,"queueTimeoutMs":null}`,
		`{"endpointUrl":"http://x/","wsSecurity":{"usernameToken":{"username":"u","passwordType":"PasswordDigest"},` +
			`"timestamp":{"ttlSeconds":300},"mustUnderstand":true},"credentials":{"wssPassword":"p"},"wsAddressing":true}`,
		`{"endpointUrl":"http://x/","wsSecurity":{"signature":{"certificatePem":"x","signParts":["Body","Body"]}},` +
			`"credentials":{"wssSigningKeyPem":"-----BEGIN PRIVATE KEY-----\nAA==\n-----END PRIVATE KEY-----"}}`,
		`{"wsSecurity":null,"wsAddressing":1}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		var members map[string]jsontext.Value
		if json.Unmarshal([]byte(body), &members) != nil {
			return
		}
		edit, err := decodeProfileEdit(members)
		if err != nil {
			return
		}
		p := model.BackendProfile{ProfileID: "p", AuthType: model.AuthNone}
		if applyProfileMembers(&p, edit.members) != nil {
			return
		}
		model.ApplyBackendDefaults(&p)
		if checkProfile(p, edit.creds[model.CredClientKeyPEM].Value) != nil {
			return
		}
		if (&Handlers{}).checkWSSecurity(p, edit.creds) != nil {
			return
		}
		if p.WSSecurity != nil && p.WSSecurity.Validate() != nil {
			t.Fatalf("accepted wsSecurity %+v", p.WSSecurity)
		}
		u, err := url.Parse(p.EndpointURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil || u.Hostname() == "" {
			t.Fatalf("accepted endpoint %q", p.EndpointURL)
		}
		if !slices.Contains(model.AuthTypes, p.AuthType) {
			t.Fatalf("accepted auth type %q", p.AuthType)
		}
		if c := p.MaxConcurrentRequests; (c != nil && *c < 1) || p.QueueTimeoutMs < 0 {
			t.Fatalf("accepted protection %+v", p.Protection())
		}
	})
}

// FuzzRestTarget: an accepted test-rest path never leaves the profile's
// host or base path.
func FuzzRestTarget(f *testing.F) {
	for _, s := range []string{"/items?x=1", "/../etc", "//evil/", "/a/%2e%2e/b", "http://evil/", "/a#f", ""} {
		f.Add(s)
	}
	const base = "http://10.0.0.5/rest"
	f.Fuzz(func(t *testing.T, path string) {
		target, err := restTarget(base, path)
		if err != nil {
			return
		}
		u, err := url.Parse(target)
		if err != nil || u.Host != "10.0.0.5" || u.Scheme != "http" || !strings.HasPrefix(u.Path, "/rest") {
			t.Fatalf("path %q gives target %q", path, target)
		}
		for _, seg := range strings.Split(u.Path, "/") {
			if seg == ".." {
				t.Fatalf("path %q gives target %q with ..", path, target)
			}
		}
	})
}
