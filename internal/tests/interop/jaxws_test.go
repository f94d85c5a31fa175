package interop

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/tests/poll"
	"github.com/s2r-project/s2r/internal/tests/serveproc"
)

// jaxwsJars are the jars of /usr/share/java that JAX-WS RI 2.3 (Debian
// libjaxws-java and its dependencies) needs on Java 17, whose JDK no
// longer carries JAX-WS, JAXB, SAAJ or JavaBeans Activation.
var jaxwsJars = []string{"jaxws-rt.jar", "jaxws-api.jar", "jws-api.jar", "jaxb-api.jar", "jaxb-runtime.jar",
	"jaxb-core.jar", "jaxb-impl.jar", "javax.activation.jar", "javax.xml.soap-api.jar", "saaj-impl.jar",
	"stax-ex.jar", "streambuffer.jar", "metro-policy.jar", "mimepull.jar", "istack-commons-runtime.jar",
	"gmbal.jar", "glassfish-management-api.jar", "glassfish-pfl-basic.jar", "glassfish-pfl-tf.jar"}

// startJAXWS compiles test/interop/jaxws/FilesEndpoint.java against
// JAX-WS RI, runs it and returns its endpoint URL, or skips (fails under
// CI) without java, javac or the jars.
func startJAXWS(t *testing.T) string {
	t.Helper()
	skipShort(t)
	for _, tool := range []string{"javac", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing(t, tool+" (Debian default-jdk-headless)")
		}
	}
	dir := t.TempDir()
	cp := []string{dir}
	for _, j := range jaxwsJars {
		p := filepath.Join("/usr/share/java", j)
		if _, err := os.Stat(p); err != nil {
			missing(t, "JAX-WS RI (Debian libjaxws-java): "+p)
		}
		cp = append(cp, p)
	}
	classpath := strings.Join(cp, string(os.PathListSeparator))
	src := filepath.Join(serveproc.RepoRoot(), "test", "interop", "jaxws", "FilesEndpoint.java")
	runTool(t, "", "javac", "-nowarn", "-cp", classpath, "-d", dir, src)
	port := startListener(t, dir, "java", "-cp", classpath, "FilesEndpoint")
	return "http://127.0.0.1:" + port + "/files"
}

// filePattern is what FilesEndpoint.getFile(size) answers.
func filePattern(size int) []byte {
	b := make([]byte, size)
	for i := range b {
		b[i] = byte((i*7 + 3) % 251)
	}
	return b
}

// getText fetches url and returns its body.
func getText(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s = %d %v", url, resp.StatusCode, err)
	}
	return string(b)
}

// jaxwsWSDL returns the endpoint's WSDL with its schema, which JAX-WS RI
// serves apart at ?xsd=1 and imports by URL, put inline in its types.
func jaxwsWSDL(t *testing.T, endpoint string) string {
	t.Helper()
	wsdl := getText(t, endpoint+"?wsdl")
	xsd := getText(t, endpoint+"?xsd=1")
	xsd = regexp.MustCompile(`^(<\?xml[^>]*\?>)?(<!--[^>]*-->)*`).ReplaceAllString(xsd, "")
	imp := regexp.MustCompile(`(?s)<xsd:schema>\s*<xsd:import [^>]*/>\s*</xsd:schema>`)
	if !imp.MatchString(wsdl) {
		t.Fatalf("the WSDL imports no schema the expected way:\n%s", wsdl)
	}
	return imp.ReplaceAllLiteralString(wsdl, xsd)
}

// checkJAXWSAnswersMTOM calls getFile directly and checks that JAX-WS RI
// answers MTOM: multipart/related of type application/xop+xml, the bytes
// in a part the body refers to by xop:Include.
func checkJAXWSAnswersMTOM(t *testing.T, endpoint string) {
	t.Helper()
	env := `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>` +
		`<f:getFile xmlns:f="urn:s2r:interop:files"><arg0>1024</arg0></f:getFile></s:Body></s:Envelope>`
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(env))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", `text/xml; charset=utf-8`)
	req.Header.Set("SOAPAction", `""`)
	req.Header.Set("Accept", "text/xml, multipart/related, application/xop+xml")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	ct := resp.Header.Get("Content-Type")
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "multipart/related" || params["type"] != "application/xop+xml" {
		t.Fatalf("JAX-WS RI answered %d with Content-Type %q, not MTOM:\n%.600s", resp.StatusCode, ct, body)
	}
	if !strings.Contains(string(body), "xop:Include") && !strings.Contains(string(body), "Include xmlns") {
		t.Errorf("the MTOM answer has no xop:Include:\n%.600s", body)
	}
	t.Logf("JAX-WS RI MTOM answer: Content-Type %s", ct)
}

// contentTypes is a reverse proxy to a backend that records the
// Content-Type of every answer, so that a test sees what s2r received.
type contentTypes struct {
	mu  sync.Mutex
	got []string
}

// proxy starts the proxy to backend and returns its URL.
func (c *contentTypes) proxy(t *testing.T, backend string) string {
	t.Helper()
	u, err := url.Parse(backend)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.ModifyResponse = func(r *http.Response) error {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.got = append(c.got, r.Header.Get("Content-Type"))
		return nil
	}
	srv := httptest.NewServer(rp)
	t.Cleanup(srv.Close)
	return srv.URL + u.Path
}

// last returns the Content-Type of the latest answer.
func (c *contentTypes) last() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.got) == 0 {
		return ""
	}
	return c.got[len(c.got)-1]
}

// TestPublishJAXWSMTOM: a real JAX-WS RI endpoint (Debian libjaxws-java,
// @MTOM) is the backend of a publish service imported by autopilot from
// its own WSDL. Its 5 MB byte[] answer, an XOP attachment (the RI answers
// MTOM only because s2r's Accept lists application/xop+xml; a proxy
// checks that s2r received it so), comes back as the JSON base64 field,
// byte for byte (issue 23).
func TestPublishJAXWSMTOM(t *testing.T) {
	endpoint := startJAXWS(t)
	checkJAXWSAnswersMTOM(t, endpoint)

	var seen contentTypes
	backend := seen.proxy(t, endpoint)
	base := startS2R(t)
	admin(t, base, "PATCH", "/settings", map[string]any{"max_payload_mb": 32}, http.StatusOK, nil)
	var auto autopilotResult
	admin(t, base, "POST", "/wsdl/import-xml:autopilot", map[string]any{"xml": jaxwsWSDL(t, endpoint),
		"environment": "dev", "serviceKey": "jaxws-files", "direction": "publish", "backendUrl": backend},
		http.StatusCreated, &auto)
	auto.activate(t, base)

	const size = 5 * 1024 * 1024
	url := base + "/publish/dev/jaxws-files/" + auto.operationKey(t, "getFile")
	var status int
	var got string
	poll.Until(t, 5*time.Second, "activation served", func() bool {
		status, got = postJSON(t, url, `{"arg0":1}`)
		return status != http.StatusNotFound
	})
	if status != 200 {
		t.Fatalf("getFile(1) = %d %s", status, got)
	}
	start := time.Now()
	status, got = postJSON(t, url, `{"arg0":5242880}`)
	if status != 200 {
		t.Fatalf("getFile(5 MB) = %d %.600s", status, got)
	}
	t.Logf("getFile(5 MB) through s2r: %v, %d bytes of JSON", time.Since(start), len(got))
	if mt, params, _ := mime.ParseMediaType(seen.last()); mt != "multipart/related" || params["type"] != "application/xop+xml" {
		t.Errorf("s2r received Content-Type %q from JAX-WS RI, not MTOM", seen.last())
	}
	var answer struct {
		Return string `json:"return"`
	}
	if err := json.Unmarshal([]byte(got), &answer); err != nil {
		t.Fatalf("answer %.300s: %v", got, err)
	}
	b, err := base64.StdEncoding.DecodeString(answer.Return)
	if err != nil {
		t.Fatalf("return is not base64: %v", err)
	}
	if len(b) != size || string(b) != string(filePattern(size)) {
		t.Errorf("return decodes to %d bytes, not the %d bytes getFile sent", len(b), size)
	}
}
