package wssec

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
)

// pyVerify verifies each envelope of a JSON list [{env, cert}] twice: with
// zeep's verify_envelope and with python-xmlsec directly (ids registered
// for every wsu:Id). It prints a JSON list of [zeep, xmlsec] results, each
// "OK" or "FAIL".
const pyVerify = `
import sys, json, xmlsec
from lxml import etree
from zeep.wsse.signature import verify_envelope
from zeep.exceptions import SignatureVerificationFailed
WSU = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"
def direct(env, cert):
    ctx = xmlsec.SignatureContext()
    for el in env.xpath("//*[@wsu:Id]", namespaces={"wsu": WSU}):
        ctx.register_id(el, "Id", WSU)
    ctx.key = xmlsec.Key.from_file(cert, xmlsec.KeyFormat.CERT_PEM, None)
    sig = env.xpath("//ds:Signature", namespaces={"ds": "http://www.w3.org/2000/09/xmldsig#"})[0]
    try:
        ctx.verify(sig)
        return "OK"
    except xmlsec.Error:
        return "FAIL"
def viazeep(env, cert):
    try:
        verify_envelope(env, cert)
        return "OK"
    except SignatureVerificationFailed:
        return "FAIL"
out = []
for c in json.load(sys.stdin):
    out.append([viazeep(etree.fromstring(c["env"].encode()), c["cert"]),
                direct(etree.fromstring(c["env"].encode()), c["cert"])])
json.dump(out, sys.stdout)
`

type pyCase struct {
	Name string `json:"-"`
	Env  string `json:"env"`
	Cert string `json:"cert"`
	Want string `json:"-"`
}

func runPyVerify(t *testing.T, cases []pyCase) {
	t.Helper()
	in, _ := json.Marshal(cases)
	out, err := runPython(t, pyVerify, in)
	if err != nil {
		t.Fatal(err)
	}
	var got [][2]string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for i, c := range cases {
		if got[i][0] != c.Want || got[i][1] != c.Want {
			t.Errorf("%s: zeep %s, xmlsec %s, want %s\n%s", c.Name, got[i][0], got[i][1], c.Want, c.Env)
		}
	}
}

// tamper changes one character inside the signed Body of each test
// envelope.
func tamper(b []byte) []byte {
	for _, r := range [][2]string{{"<calc:a>1<", "<calc:a>9<"}, {`<m:Ping xmlns:m="urn:m"`, `<m:Ping xmlns:m="urn:n"`}, {">x<", ">y<"}} {
		b = bytes.Replace(b, []byte(r[0]), []byte(r[1]), 1)
	}
	return b
}

func TestInteropZeepVerifiesOurSignature(t *testing.T) {
	needPython(t, "zeep", "xmlsec", "lxml")
	id := testIdentities(t)[0]
	certFile, _ := id.writeFiles(t, t.TempDir())
	var cases []pyCase
	for _, env := range []string{env11, env12NoHeader, envDefaultNS} {
		for _, kid := range []string{model.WSSKeyIdentifierBST, model.WSSKeyIdentifierIssuer, model.WSSKeyIdentifierSKI} {
			for _, alg := range [][2]string{{"rsa-sha256", "sha256"}, {"rsa-sha1", "sha1"}} {
				cfg := signingConfig(id, kid)
				cfg.Signature.SignatureAlgorithm, cfg.Signature.DigestAlgorithm = alg[0], alg[1]
				cfg.Signature.SignParts = []string{"Body", "Timestamp", "UsernameToken"}
				out, err := mustSigner(t, cfg, "pw", id.keyPEM).Sign([]byte(env))
				if err != nil {
					t.Fatal(err)
				}
				name := kid + " " + alg[0] + " " + env[:20]
				cases = append(cases, pyCase{Name: name, Env: string(out), Cert: certFile, Want: "OK"},
					pyCase{Name: name + " tampered", Env: string(tamper(out)), Cert: certFile, Want: "FAIL"})
			}
		}
	}
	runPyVerify(t, cases)
}
