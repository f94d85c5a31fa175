package policies

import (
	"encoding/json"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/wssec"
)

// FuzzInboundWSSBody: any PUT body either is refused with a field error or
// is a policy the runtime compiles (wssec.NewVerifier), so an accepted
// policy never takes its service out of the route table.
func FuzzInboundWSSBody(f *testing.F) {
	for _, s := range []string{
		`{"mode":"required","usernameTokens":[{"username":"a","password":"b"}],"maxClockSkewSeconds":300}`,
		`{"mode":"optional","trustedCertificatesPem":["-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n"]}`,
		`{"mode":"off","maxClockSkewSeconds":-1}`,
		`{"usernameTokens":[{"username":"a"},{"username":"a"}]}`,
		`{"mode":"sometimes","requireSignature":true,"requireTimestamp":true}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var b inboundWSSBody
		if json.Unmarshal(in, &b) != nil {
			return
		}
		if err := validateInboundWSS(b); err != nil {
			return
		}
		p := &model.InboundWSSecurity{Mode: b.Mode, TrustedCertificatesPEM: b.TrustedCertificatesPEM,
			RequireSignature: b.RequireSignature, RequireTimestamp: b.RequireTimestamp, MaxClockSkewSeconds: b.MaxClockSkewSeconds}
		for _, u := range b.UsernameTokens {
			p.UsernameTokens = append(p.UsernameTokens, model.WSSUserPassword{Username: u.Username, Password: "x"})
		}
		if _, err := wssec.NewVerifier(p, &wssec.MemoryNonces{}); err != nil {
			t.Fatalf("accepted body %s does not compile: %v", in, err)
		}
	})
}
