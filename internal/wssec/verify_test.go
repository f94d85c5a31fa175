package wssec

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

func policy(ids ...*testIdentity) *model.InboundWSSecurity {
	p := &model.InboundWSSecurity{Mode: model.WSSModeRequired,
		UsernameTokens: []model.WSSUserPassword{{Username: "svc-user", Password: "secret"}}}
	for _, id := range ids {
		p.TrustedCertificatesPEM = append(p.TrustedCertificatesPEM, id.certPEM)
	}
	return p
}

func mustVerifier(t testing.TB, p *model.InboundWSSecurity) *Verifier {
	t.Helper()
	v, err := NewVerifier(p, &MemoryNonces{})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// wantFault checks that err is a *Fault with the code.
func wantFault(t *testing.T, err error, code FaultCode, msgPart string) {
	t.Helper()
	var f *Fault
	if !errors.As(err, &f) {
		t.Fatalf("got %v, want a %s fault", err, code)
	}
	if f.Code != code || !strings.Contains(f.Message, msgPart) {
		t.Fatalf("got %s %q, want %s containing %q", f.Code, f.Message, code, msgPart)
	}
	if strings.Contains(f.Message, "secret") {
		t.Fatalf("the fault message leaks the password: %q", f.Message)
	}
}

func TestSignThenVerify(t *testing.T) {
	ids := testIdentities(t)
	ctx := context.Background()
	for _, env := range []string{env11, env12NoHeader, envDefaultNS} {
		for _, kid := range []string{model.WSSKeyIdentifierBST, model.WSSKeyIdentifierIssuer, model.WSSKeyIdentifierSKI} {
			for _, key := range []string{ids[0].keyPEM, ids[0].pkcs1} {
				cfg := signingConfig(ids[0], kid)
				out, err := mustSigner(t, cfg, "secret", key).Sign([]byte(env))
				if err != nil {
					t.Fatal(err)
				}
				res, err := mustVerifier(t, policy(ids[0])).Verify(ctx, out)
				if err != nil {
					t.Fatalf("%s: %v\n%s", kid, err, out)
				}
				if res.Username != "svc-user" || !strings.Contains(res.CertificateSubject, "s2r test signer") {
					t.Errorf("%s: result %+v", kid, res)
				}
				_, err = mustVerifier(t, policy(ids[1])).Verify(ctx, out)
				wantFault(t, err, FailedAuthentication, "")
			}
		}
	}
}

func TestVerifyPolicies(t *testing.T) {
	ids := testIdentities(t)
	ctx := context.Background()
	sign := func(cfg *model.WSSecurity, pw string) []byte {
		out, err := mustSigner(t, cfg, pw, ids[0].keyPEM).Sign([]byte(env11))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	text := &model.WSSecurity{UsernameToken: &model.WSSUsernameToken{Username: "svc-user"}}
	digest := &model.WSSecurity{UsernameToken: &model.WSSUsernameToken{Username: "svc-user", PasswordType: model.WSSPasswordDigest}}
	tsOnly := &model.WSSecurity{Timestamp: &model.WSSTimestamp{TTLSeconds: 60}}
	bodyOnly := &model.WSSecurity{Signature: &model.WSSSignature{CertificatePEM: ids[0].certPEM, SignParts: []string{"Body"}}}
	tsUnsigned := &model.WSSecurity{Timestamp: &model.WSSTimestamp{TTLSeconds: 60},
		Signature: &model.WSSSignature{CertificatePEM: ids[0].certPEM, SignParts: []string{"Body"}}}
	for _, tc := range []struct {
		name   string
		mode   string
		mutate func(*model.InboundWSSecurity)
		env    []byte
		code   FaultCode
		msg    string
		ident  string
	}{
		{name: "text ok", env: sign(text, "secret"), ident: "svc-user"},
		{name: "digest ok", env: sign(digest, "secret"), ident: "svc-user"},
		{name: "text wrong password", env: sign(text, "nope"), code: FailedAuthentication, msg: "wrong password"},
		{name: "digest wrong password", env: sign(digest, "nope"), code: FailedAuthentication, msg: "wrong password"},
		{name: "unknown user", env: sign(text, "secret"), mutate: func(p *model.InboundWSSecurity) { p.UsernameTokens[0].Username = "x" }, code: FailedAuthentication},
		{name: "no header required", env: []byte(env11), code: InvalidSecurity, msg: "required"},
		{name: "no header optional", mode: model.WSSModeOptional, env: []byte(env11)},
		{name: "off ignores garbage", mode: model.WSSModeOff, env: []byte("<not xml")},
		{name: "timestamp alone is no identity", env: sign(tsOnly, ""), code: InvalidSecurity, msg: "UsernameToken or a signature"},
		{name: "timestamp alone optional", mode: model.WSSModeOptional, env: sign(tsOnly, "")},
		{name: "signature required", env: sign(text, "secret"), mutate: func(p *model.InboundWSSecurity) { p.RequireSignature = true }, code: InvalidSecurity, msg: "signature is required"},
		{name: "timestamp required", env: sign(text, "secret"), mutate: func(p *model.InboundWSSecurity) { p.RequireTimestamp = true }, code: InvalidSecurity, msg: "Timestamp is required"},
		{name: "body-only signature", env: sign(bodyOnly, ""), ident: "CN=s2r test signer,O=s2r"},
		{name: "unsigned timestamp", env: sign(tsUnsigned, ""), code: InvalidSecurity, msg: "cover the Timestamp"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := policy(ids[0])
			if tc.mode != "" {
				p.Mode = tc.mode
			}
			if tc.mutate != nil {
				tc.mutate(p)
			}
			res, err := mustVerifier(t, p).Verify(ctx, tc.env)
			if tc.code != "" {
				wantFault(t, err, tc.code, tc.msg)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Identity != tc.ident {
				t.Errorf("identity %q, want %q", res.Identity, tc.ident)
			}
		})
	}
}

func TestVerifyTimeAndReplay(t *testing.T) {
	ids := testIdentities(t)
	ctx := context.Background()
	cfg := &model.WSSecurity{Timestamp: &model.WSSTimestamp{TTLSeconds: 60},
		UsernameToken: &model.WSSUsernameToken{Username: "svc-user", PasswordType: model.WSSPasswordDigest}}
	s := mustSigner(t, cfg, "secret", "")
	out, err := s.Sign([]byte(env11))
	if err != nil {
		t.Fatal(err)
	}
	v := mustVerifier(t, policy(ids[0]))
	if _, err := v.Verify(ctx, out); err != nil {
		t.Fatal(err)
	}
	_, err = v.Verify(ctx, out)
	wantFault(t, err, InvalidSecurity, "Nonce was used before")

	v2 := mustVerifier(t, policy(ids[0]))
	v2.now = func() time.Time { return time.Now().Add(10 * time.Minute) }
	_, err = v2.Verify(ctx, out)
	wantFault(t, err, MessageExpired, "expired")
	v2.now = func() time.Time { return time.Now().Add(-10 * time.Minute) }
	_, err = v2.Verify(ctx, out)
	wantFault(t, err, MessageExpired, "future")
}

func TestVerifyRefusesAttacks(t *testing.T) {
	ids := testIdentities(t)
	ctx := context.Background()
	out, err := mustSigner(t, signingConfig(ids[0], model.WSSKeyIdentifierBST), "secret", ids[0].keyPEM).Sign([]byte(env11))
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	bodyStart := strings.Index(s, "<soapenv:Body")
	bodyEnd := strings.Index(s, "</soapenv:Body>") + len("</soapenv:Body>")
	body := s[bodyStart:bodyEnd]
	bodyID := body[strings.Index(body, `wsu:Id="`)+8:]
	bodyID = bodyID[:strings.IndexByte(bodyID, '"')]
	evil := `<soapenv:Body><calc:Add><calc:a>666</calc:a></calc:Add></soapenv:Body>`
	wrapped := strings.Replace(s, body, evil, 1)
	wrapped = strings.Replace(wrapped, "<x:Other", "<x:Wrapper xmlns:x=\"urn:x\">"+body+"</x:Wrapper><x:Other", 1)
	for _, tc := range []struct {
		name, env string
		code      FaultCode
		msg       string
	}{
		{"tampered body", strings.Replace(s, "<calc:a>1<", "<calc:a>2<", 1), FailedAuthentication, "digest"},
		{"tampered signed info", strings.Replace(s, `<ds:Reference URI="#`+bodyID+`"`, `<ds:Reference Id="r" URI="#`+bodyID+`"`, 1), FailedAuthentication, "does not verify"},
		{"white space in signed info", strings.Replace(s, `<ds:Reference URI="#`+bodyID+`"`, `<ds:Reference   URI="#`+bodyID+`" `, 1), "", ""},
		{"wrapped body", wrapped, InvalidSecurity, "cover the SOAP Body"},
		{"duplicate id", strings.Replace(s, "<x:Other ", `<x:Other wsu:Id="`+bodyID+`" xmlns:wsu="`+NSWSU+`" `, 1), InvalidSecurity, "more than once"},
		{"duplicate plain id of a signed element", strings.Replace(s, "<x:Other ", `<x:Other Id="`+bodyID+`" `, 1), InvalidSecurity, "more than once"},
		{"duplicate business ids", strings.Replace(s, "<calc:Add>", `<calc:Add><calc:i ID="1"/><calc:i ID="1"/>`, 1), FailedAuthentication, "digest"},
		{"second body", strings.Replace(s, "</soapenv:Envelope>", evil+"</soapenv:Envelope>", 1), InvalidSecurity, "more than one Body"},
		{"unknown reference", strings.Replace(s, `URI="#`+bodyID, `URI="#nope`, 1), InvalidSecurity, ""},
		{"encrypted body", strings.Replace(s, "<calc:Add>", `<xenc:EncryptedData xmlns:xenc="`+NSXEnc+`"/><calc:Add>`, 1), InvalidSecurity, "encryption"},
		{"saml", strings.Replace(s, "<wsu:Timestamp", `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"/><wsu:Timestamp`, 1), InvalidSecurity, "SAML"},
		{"kerberos", strings.Replace(s, "<wsu:Timestamp", `<wsse:BinarySecurityToken ValueType="http://docs.oasis-open.org/wss/oasis-wss-kerberos-token-profile-1.1#GSS_Kerberosv5_AP_REQ">AA==</wsse:BinarySecurityToken><wsu:Timestamp`, 1), InvalidSecurity, "Kerberos"},
		{"huge token", strings.Replace(s, "<wsu:Timestamp", `<wsse:BinarySecurityToken>`+strings.Repeat("A", 10<<20)+`</wsse:BinarySecurityToken><wsu:Timestamp`, 1), InvalidSecurity, "longer than"},
		{"inclusive c14n", strings.Replace(s, `<ds:CanonicalizationMethod Algorithm="`+NSExcC14N, `<ds:CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315`, 1), InvalidSecurity, "canonicalization"},
		{"xpath transform", strings.Replace(s, `<ds:Transform Algorithm="`+NSExcC14N, `<ds:Transform Algorithm="http://www.w3.org/TR/1999/REC-xpath-19991116"></ds:Transform><ds:Transform Algorithm="`+NSExcC14N, 1), InvalidSecurity, "not supported"},
		{"two security headers", strings.Replace(s, "<x:Other", `<wsse:Security xmlns:wsse="`+NSWSSE+`"/><x:Other`, 1), InvalidSecurity, "more than one wsse:Security"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mustVerifier(t, policy(ids[0])).Verify(ctx, []byte(tc.env))
			if tc.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantFault(t, err, tc.code, tc.msg)
		})
	}
	if _, err := mustVerifier(t, policy(ids[0])).Verify(ctx, bytes.Clone(out)); err != nil {
		t.Fatalf("the untouched envelope fails: %v", err)
	}
}

func TestCheckTimestamp(t *testing.T) {
	v := mustVerifier(t, policy())
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		created, expires string
		code             FaultCode
	}{
		{"2026-05-01T11:59:00Z", "2026-05-01T12:04:00Z", ""},
		{"2026-05-01T11:59:00.123456+00:00", "", ""},
		{"", "2026-05-01T11:56:00Z", ""},
		{"2026-05-01T11:50:00Z", "", MessageExpired},
		{"2026-05-01T12:06:00Z", "2026-05-01T12:10:00Z", MessageExpired},
		{"2026-05-01T11:40:00Z", "2026-05-01T11:54:00Z", MessageExpired},
		{"2026-05-01T11:59:00Z", "2026-05-01T11:58:00Z", InvalidSecurity},
		{"2026-05-01T11:59:00", "", InvalidSecurity},
	} {
		err := v.checkTimestamp(&timestamp{created: tc.created, expires: tc.expires}, now)
		if tc.code == "" {
			if err != nil {
				t.Errorf("%s..%s: %v", tc.created, tc.expires, err)
			}
			continue
		}
		var f *Fault
		if !errors.As(err, &f) || f.Code != tc.code {
			t.Errorf("%s..%s: got %v, want %s", tc.created, tc.expires, err, tc.code)
		}
	}
}
