package wssec

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
)

// needNodeSoap returns test/interop/node/node_modules, or skips (fails
// under CI) when node or the npm soap package is missing.
func needNodeSoap(t *testing.T) string {
	t.Helper()
	dir, _ := filepath.Abs("../../test/interop/node/node_modules")
	_, errNode := exec.LookPath("node")
	_, errSoap := os.Stat(filepath.Join(dir, "soap", "package.json"))
	if errNode != nil || errSoap != nil {
		msg := "node or the npm soap package is not installed (scripts/interop-deps.sh installs them)"
		if strictTools() {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return dir
}

type nodeInput struct {
	Sign    []nodeSign `json:"sign"`
	Verify  []string   `json:"verify"`
	KeyPEM  string     `json:"keyPem"`
	CertPEM string     `json:"certPem"`
}

type nodeSign struct {
	Envelope    string `json:"envelope"`
	EnvelopeKey string `json:"envelopeKey"`
	SHA1        bool   `json:"sha1"`
}

// TestInteropNodeSoap: envelopes signed by the npm soap package's
// WSSecurityCert verify with our inbound code, and xml-crypto (soap's
// signature library) verifies ours.
func TestInteropNodeSoap(t *testing.T) {
	modules := needNodeSoap(t)
	id := testIdentities(t)[0]
	in := nodeInput{KeyPEM: id.pkcs1, CertPEM: id.certPEM}
	soapEnv := `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Header></soap:Header><soap:Body><tns:Add xmlns:tns="urn:calc"><a>1</a></tns:Add></soap:Body></soap:Envelope>`
	in.Sign = []nodeSign{{soapEnv, "soap", false}, {soapEnv, "soap", true}}
	for _, kid := range []string{model.WSSKeyIdentifierBST, model.WSSKeyIdentifierIssuer} {
		cfg := signingConfig(id, kid)
		out, err := mustSigner(t, cfg, "secret", id.keyPEM).Sign([]byte(env11))
		if err != nil {
			t.Fatal(err)
		}
		in.Verify = append(in.Verify, string(out), string(tamper(out)))
	}
	stdin, _ := json.Marshal(in)
	cmd := exec.Command("node", "testdata/node/wssec_interop.js")
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	cmd.Stdin = strings.NewReader(string(stdin))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var res struct {
		Signed   []string `json:"signed"`
		Verified []string `json:"verified"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	for i, want := range []string{"OK", "FAIL", "OK", "FAIL"} {
		if !strings.HasPrefix(res.Verified[i], want) {
			t.Errorf("xml-crypto on envelope %d: %s, want %s", i, res.Verified[i], want)
		}
	}
	p := policy(id)
	p.RequireSignature, p.RequireTimestamp = true, true
	for i, env := range res.Signed {
		r, err := mustVerifier(t, p).Verify(context.Background(), []byte(env))
		if err != nil {
			t.Errorf("node-soap envelope %d: %v\n%s", i, err, env)
			continue
		}
		if !strings.Contains(r.CertificateSubject, "s2r test signer") {
			t.Errorf("node-soap envelope %d: result %+v", i, r)
		}
		bad := strings.Replace(env, "<a>1</a>", "<a>2</a>", 1)
		_, err = mustVerifier(t, p).Verify(context.Background(), []byte(bad))
		wantFault(t, err, FailedAuthentication, "digest")
	}
}
