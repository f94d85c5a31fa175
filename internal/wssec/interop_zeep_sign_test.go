package wssec

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// pyZeepSign signs a SOAP 1.1 envelope with zeep's WS-Security plugins in
// several ways and prints a JSON list of [name, envelope].
const pyZeepSign = `
import sys, json, datetime, xmlsec
from lxml import etree
from zeep.wsse.username import UsernameToken
from zeep.wsse.signature import Signature, BinarySignature
from zeep.wsse import utils
key, cert = sys.argv[1], sys.argv[2]
ENV = b'''<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Header/><soap-env:Body><ns0:Add xmlns:ns0="urn:calc"><a>1</a><b>2</b></ns0:Add></soap-env:Body></soap-env:Envelope>'''
def timestamp():
    now = datetime.datetime.now(datetime.timezone.utc)
    return utils.WSU.Timestamp(utils.WSU.Created(now.replace(microsecond=0).isoformat()),
        utils.WSU.Expires((now + datetime.timedelta(minutes=5)).replace(microsecond=0).isoformat()))
def build(*plugins):
    env = etree.fromstring(ENV)
    for p in plugins:
        env, _ = p.apply(env, {})
    return etree.tostring(env).decode()
sha256 = dict(signature_method=xmlsec.Transform.RSA_SHA256, digest_method=xmlsec.Transform.SHA256)
out = [
    ["text", build(UsernameToken("svc-user", "secret"))],
    ["digest", build(UsernameToken("svc-user", "secret", use_digest=True))],
    ["digest zulu", build(UsernameToken("svc-user", "secret", use_digest=True, zulu_timestamp=True))],
    ["signature", build(UsernameToken("svc-user", "secret", timestamp_token=timestamp()), Signature(key, cert))],
    ["signature sha256", build(UsernameToken("svc-user", "secret", timestamp_token=timestamp()), Signature(key, cert, **sha256))],
    ["binary signature", build(UsernameToken("svc-user", "secret", timestamp_token=timestamp()), BinarySignature(key, cert))],
    ["binary signature sha256", build(BinarySignature(key, cert, **sha256))],
]
json.dump(out, sys.stdout)
`

func TestInteropWeVerifyZeep(t *testing.T) {
	needPython(t, "zeep", "xmlsec", "lxml")
	ids := testIdentities(t)
	certFile, keyFile := ids[0].writeFiles(t, t.TempDir())
	out, err := runPythonWith(t, pyZeepSign, nil, keyFile, certFile)
	if err != nil {
		t.Fatal(err)
	}
	var envs [][2]string
	if err := json.Unmarshal(out, &envs); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, e := range envs {
		name, env := e[0], e[1]
		t.Run(name, func(t *testing.T) {
			res, err := mustVerifier(t, policy(ids[0])).Verify(ctx, []byte(env))
			if err != nil {
				t.Fatalf("%v\n%s", err, env)
			}
			if res.Identity == "" {
				t.Errorf("no identity: %+v", res)
			}
			if strings.Contains(name, "signature") {
				if res.CertificateSubject == "" {
					t.Errorf("the signature was not checked: %+v", res)
				}
				_, err = mustVerifier(t, policy(ids[1])).Verify(ctx, []byte(env))
				wantFault(t, err, FailedAuthentication, "")
				bad := strings.Replace(env, "<a>1</a>", "<a>7</a>", 1)
				_, err = mustVerifier(t, policy(ids[0])).Verify(ctx, []byte(bad))
				wantFault(t, err, FailedAuthentication, "digest")
			}
			p := policy(ids[0])
			p.UsernameTokens[0].Password = "other"
			if _, err := mustVerifier(t, p).Verify(ctx, []byte(env)); err == nil && !strings.HasPrefix(name, "binary signature sha256") {
				t.Errorf("a wrong password was accepted")
			}
		})
	}
}
