package dataplane

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/tests/loopback"
	"github.com/s2r-project/s2r/internal/upstream"
)

// needPython skips (or, under CI, fails) unless /usr/bin/python3 can
// import every module listed.
func needPython(t *testing.T, modules ...string) {
	t.Helper()
	for _, m := range modules {
		if err := exec.Command("/usr/bin/python3", "-c", "import "+m).Run(); err != nil {
			msg := "python3 module " + m + " is not installed (scripts/interop-deps.sh installs it)"
			if os.Getenv("CI") != "" || os.Getenv("S2R_REQUIRE_POSTGRES") != "" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
}

// startPython runs a Python server script that prints its port first and
// returns its base URL; the process is killed when the test ends.
func startPython(t *testing.T, script string, args ...string) string {
	t.Helper()
	cmd := exec.Command("/usr/bin/python3", append([]string{script}, args...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	port := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		port <- strings.TrimSpace(line)
	}()
	select {
	case p := <-port:
		if p == "" {
			t.Fatal("the python server did not start")
		}
		return "http://127.0.0.1:" + p
	case <-time.After(20 * time.Second):
		t.Fatal("the python server did not print its port")
	}
	return ""
}

// signingBackend is the calc backend at url with a PasswordDigest
// UsernameToken, a Timestamp and a BinarySecurityToken signature over
// Body, Timestamp and UsernameToken, its secrets sealed and opened as the
// route loader opens them (upstream.Open compiles the signer).
func signingBackend(t testing.TB, url, password string, id loopback.RSAIdentity) upstream.Backend {
	t.Helper()
	return signingBackendWith(t, url, &model.WSSecurity{
		UsernameToken:  &model.WSSUsernameToken{Username: "svc-user", PasswordType: model.WSSPasswordDigest},
		Timestamp:      &model.WSSTimestamp{TTLSeconds: 300},
		Signature:      &model.WSSSignature{CertificatePEM: id.CertPEM, SignParts: []string{"Body", "Timestamp", "UsernameToken"}},
		MustUnderstand: true,
	}, id, password)
}

// signingBackendWith is the calc backend at url with wss, its password
// (when given) and the signing key of id sealed and opened.
func signingBackendWith(t testing.TB, url string, wss *model.WSSecurity, id loopback.RSAIdentity, password ...string) upstream.Backend {
	t.Helper()
	box, err := secret.NewBox(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	p := model.BackendProfile{ProfileID: "b1", ServiceID: "svc-calc", Name: "primary", EndpointURL: url, WSSecurity: wss}
	model.ApplyBackendDefaults(&p)
	pw := "bench-password"
	if len(password) > 0 {
		pw = password[0]
	}
	for name, v := range map[string]string{model.CredWSSPassword: pw, model.CredWSSSigningKeyPEM: id.KeyPEM} {
		sealed, err := box.Seal([]byte(v), model.CredentialAAD(p.ProfileID, name))
		if err != nil {
			t.Fatal(err)
		}
		*p.Credentials.Field(name) = model.NewCredential(sealed, time.Now(), "test")
	}
	b, err := upstream.Open(box, p)
	if err != nil || b.Signer == nil {
		t.Fatalf("open: %v (signer %v)", err, b.Signer)
	}
	return b
}

// tamperProxy forwards to target with one digit of the signed Body changed.
func tamperProxy(t *testing.T, target string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		body = bytes.Replace(body, []byte(">1</"), []byte(">7</"), 1)
		resp, err := http.Post(target, r.Header.Get("Content-Type"), bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestPublishWSSecurityVerifiedByZeep: publish signs each call to a
// backend that checks the header with third-party code (zeep and
// python-xmlsec for the signature, the OASIS digest formula, a nonce
// cache); a wrong password and a Body changed on the way are refused, and
// the refusal reaches the client as the backend's fault.
func TestPublishWSSecurityVerifiedByZeep(t *testing.T) {
	needPython(t, "zeep", "xmlsec", "lxml")
	id := loopback.NewRSAIdentity(t, "s2r publish signer")
	certFile := filepath.Join(t.TempDir(), "cert.pem")
	if err := os.WriteFile(certFile, []byte(id.CertPEM), 0o600); err != nil {
		t.Fatal(err)
	}
	const password = "wss-pw-5f0c"
	verifier := startPython(t, "testdata/wss/verifier.py", certFile, password)
	for _, tc := range []struct {
		name, url, password string
		status              int
		fault               string
	}{
		{"signed", verifier + "/calc", password, http.StatusOK, ""},
		{"wrong password", verifier + "/calc", "not-the-password", http.StatusBadGateway, "FailedAuthentication"},
		{"tampered body", tamperProxy(t, verifier+"/calc"), password, http.StatusBadGateway, "FailedCheck"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newPublishEnv(t, func(src *routing.Source) {
				src.Backends = []upstream.Backend{signingBackend(t, tc.url, tc.password, id)}
				src.Service.FaultDetailExposureMode = model.FaultDetailFull
			})
			// Twice: every call carries a fresh nonce, or the second is a replay.
			for i := range 2 {
				res := e.call(t, "POST", "/publish/dev/calc/add", "application/json", `{"a":1,"b":2}`, "wss-"+tc.name)
				if res.status != tc.status || !strings.Contains(string(res.body), tc.fault) {
					t.Fatalf("call %d: %d %s, want %d with %q", i, res.status, res.body, tc.status, tc.fault)
				}
				if tc.status == http.StatusOK && !strings.Contains(string(res.body), `"result":3`) {
					t.Errorf("answer %s", res.body)
				}
			}
		})
	}
}
