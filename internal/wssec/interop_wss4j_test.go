package wssec

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// wss4jJars are the Debian jars VerifyWithWSS4J needs (libwss4j-java,
// libxml-security-java and their dependencies commons-logging and slf4j).
var wss4jJars = []string{"wss4j.jar", "xmlsec.jar", "commons-logging.jar", "slf4j-api.jar", "slf4j-nop.jar"}

// needWSS4J compiles testdata/wss4j/*.java into dir and
// returns the classpath to run it, or skips (fails under CI) when javac or
// the jars are missing.
func needWSS4J(t *testing.T, dir string) string {
	t.Helper()
	missing := func(what string) {
		msg := what + " is not installed (scripts/interop-deps.sh installs libwss4j-java libxml-security-java)"
		if strictTools() {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	for _, tool := range []string{"javac", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing(tool)
		}
	}
	cp := []string{dir}
	for _, j := range wss4jJars {
		p := filepath.Join("/usr/share/java", j)
		if _, err := os.Stat(p); err != nil {
			missing(p)
		}
		cp = append(cp, p)
	}
	classpath := strings.Join(cp, string(os.PathListSeparator))
	srcs, _ := filepath.Glob("testdata/wss4j/*.java")
	args := append([]string{"-nowarn", "-cp", classpath, "-d", dir}, srcs...)
	if out, err := exec.Command("javac", args...).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	return classpath
}

// TestInteropWSS4J compiles the Java programs once and runs both
// directions and the canonicalization comparison.
func TestInteropWSS4J(t *testing.T) {
	dir := t.TempDir()
	classpath := needWSS4J(t, dir)
	t.Run("WSS4J verifies ours", func(t *testing.T) { wss4jVerifiesOurs(t, dir, classpath) })
	t.Run("we verify WSS4J", func(t *testing.T) { weVerifyWSS4J(t, dir, classpath) })
	t.Run("Santuario canonicalizes as we do", func(t *testing.T) { santuarioAgrees(t, dir, classpath) })
}

func wss4jVerifiesOurs(t *testing.T, dir, classpath string) {
	id := testIdentities(t)[0]
	certFile, _ := id.writeFiles(t, dir)
	type envCase struct{ name, file, want string }
	var cases []envCase
	add := func(name string, env []byte, want string) {
		f := filepath.Join(dir, fmt.Sprintf("env%d.xml", len(cases)))
		if err := os.WriteFile(f, env, 0o600); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, envCase{name, f, want})
	}
	for _, env := range []string{env11, env12NoHeader} {
		for _, kid := range []string{model.WSSKeyIdentifierBST, model.WSSKeyIdentifierIssuer, model.WSSKeyIdentifierSKI} {
			for _, alg := range [][2]string{{"rsa-sha256", "sha256"}, {"rsa-sha1", "sha1"}} {
				for _, pwType := range []string{model.WSSPasswordDigest, model.WSSPasswordText} {
					cfg := signingConfig(id, kid)
					cfg.UsernameToken.PasswordType = pwType
					cfg.Signature.SignatureAlgorithm, cfg.Signature.DigestAlgorithm = alg[0], alg[1]
					cfg.Signature.SignParts = []string{"Body", "Timestamp", "UsernameToken"}
					out, err := mustSigner(t, cfg, "secret", id.keyPEM).Sign([]byte(env))
					if err != nil {
						t.Fatal(err)
					}
					name := strings.Join([]string{kid, alg[0], pwType, env[:12]}, " ")
					add(name, out, "OK")
					add(name+" tampered", tamper(out), "FAIL")
				}
			}
		}
	}
	args := []string{"-cp", classpath, "VerifyWithWSS4J", certFile, "secret"}
	for _, c := range cases {
		args = append(args, c.file)
	}
	cmd := exec.Command("java", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("java: %v\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("WSS4J answered %d lines for %d envelopes:\n%s", len(lines), len(cases), out)
	}
	for i, line := range lines {
		t.Logf("%s: %s", cases[i].name, line)
		if !strings.HasPrefix(line, cases[i].want) {
			t.Errorf("%s: WSS4J says %q, want %s", cases[i].name, line, cases[i].want)
		}
	}
}

// weVerifyWSS4J: envelopes signed by WSS4J (BST, IssuerSerial, SKI and
// X509 key identifiers, InclusiveNamespaces prefix lists) verify with our
// inbound code.
func weVerifyWSS4J(t *testing.T, dir, classpath string) {
	id := testIdentities(t)[0]
	certFile := filepath.Join(dir, "cert.pem")
	keyFile := filepath.Join(dir, "key8.pem")
	envFile := filepath.Join(dir, "env.xml")
	for f, data := range map[string]string{certFile: id.certPEM, keyFile: id.keyPEM, envFile: env11} {
		if err := os.WriteFile(f, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("java", "-cp", classpath, "SignWithWSS4J", certFile, keyFile, envFile)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("java: %v\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 4 {
		t.Fatalf("WSS4J signed %d envelopes, want 4:\n%s%s", len(lines), out, stderr.String())
	}
	ctx := context.Background()
	for _, line := range lines {
		name, b64, _ := strings.Cut(line, "\t")
		env, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			p := policy(id)
			p.RequireSignature, p.RequireTimestamp = true, true
			res, err := mustVerifier(t, p).Verify(ctx, env)
			if err != nil {
				t.Fatalf("%v\n%s", err, env)
			}
			if !strings.Contains(res.CertificateSubject, "s2r test signer") {
				t.Errorf("result %+v", res)
			}
			_, err = mustVerifier(t, p).Verify(ctx, tamper(env))
			wantFault(t, err, FailedAuthentication, "digest")
			_, err = mustVerifier(t, policy(testIdentities(t)[1])).Verify(ctx, env)
			wantFault(t, err, FailedAuthentication, "")
		})
	}
}

// santuarioAgrees: every element of the SOAP corpus canonicalizes as
// Apache Santuario (WSS4J's XML security library) does, with and without
// InclusiveNamespaces prefix lists.
func santuarioAgrees(t *testing.T, dir, classpath string) {
	docs := soapCorpus(t)
	var files []string
	for i, d := range docs {
		f := filepath.Join(dir, fmt.Sprintf("c14n%d.xml", i))
		if err := os.WriteFile(f, []byte(d), 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	for _, list := range []string{"-", "#default", "#default env soap soapenv b"} {
		out, err := exec.Command("java", append([]string{"-cp", classpath, "CanonicalizeWithSantuario", list}, files...)...).Output()
		if err != nil {
			t.Fatalf("java: %v", err)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		var incl []string
		if list != "-" {
			incl = strings.Fields(list)
		}
		k := 0
		for i, d := range docs {
			for n := 1; ; n++ {
				got, err := canonicalAtOrdinal([]byte(d), xmlstream.Limits{}, n, incl)
				if err != nil {
					break // past the last element
				}
				if k >= len(lines) {
					t.Fatalf("Santuario printed %d elements, fewer than ours", len(lines))
				}
				want, _ := base64.StdEncoding.DecodeString(lines[k])
				k++
				if !bytes.Equal(got, want) {
					t.Errorf("%q doc %d element %d: got\n%s\nSantuario\n%s", list, i, n, got, want)
				}
			}
		}
		if k != len(lines) {
			t.Errorf("%q: we canonicalized %d elements, Santuario %d", list, k, len(lines))
		}
	}
}
