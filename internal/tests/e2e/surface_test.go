package e2e

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// TestQuickStart is the README quick start from the outside: health,
// readiness, metrics and the caller's identity.
func TestQuickStart(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *server) {
		wantJSON(t, s.do(t, "GET", "/health/live", "", nil).WantStatus(t, 200), `{"status":"UP"}`)
		ready := s.do(t, "GET", "/health/ready", "", nil).WantStatus(t, 200).JSON(t)
		if ready["status"] != "UP" || admintest.Dig(ready, "checks", "database") != "UP" {
			t.Errorf("ready: %v", ready)
		}
		m := s.do(t, "GET", "/metrics", "", nil).WantStatus(t, 200)
		if !strings.Contains(string(m.Body), "# TYPE ") || !strings.HasPrefix(m.Header.Get("Content-Type"), "text/plain") {
			t.Errorf("metrics: %s %.300s", m.Header.Get("Content-Type"), m.Body)
		}
		me := s.admin(t, "GET", "/me", nil).WantStatus(t, 200).JSON(t)
		if me["email"] != adminEmail || me["role"] != "admin" {
			t.Errorf("me: %v", me)
		}
		if r := s.do(t, "GET", "/admin/v1/me", "", nil); r.Status != 401 || r.Code() != "S2R-ADM-0401" {
			t.Errorf("me without identity: %d %s", r.Status, r.Body)
		}
		if r := s.do(t, "GET", "/admin/v1/me", "nobody@example.com", nil); r.Status != 403 && r.Status != 200 {
			t.Errorf("me as an unknown user: %d %s", r.Status, r.Body)
		}
		if r := s.admin(t, "POST", "/wsdl/import-xml:autopilot", `{"xml": "<definitions", "environment": "dev"}`); r.Status != 400 || r.Code() != "S2R-VAL-0400" {
			t.Errorf("truncated WSDL: %d %s", r.Status, r.Body)
		}
		if r := s.admin(t, "POST", "/wsdl/import-xml:autopilot", `{"xml": `); r.Status != 400 {
			t.Errorf("invalid JSON: %d %s", r.Status, r.Body)
		}
		if r := s.admin(t, "POST", "/wsdl/import-xml:autopilot", `{"environment": "dev"}`); r.Status != 400 {
			t.Errorf("no xml: %d %s", r.Status, r.Body)
		}
	})
}

// multipartZIP posts a ZIP of a WSDL folder to /wsdl/import:autopilot.
func (s *server) multipartZIP(t *testing.T, zipBody []byte, fields map[string]string) resp {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	fw, err := mw.CreateFormFile("file", "service.zip")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = fw.Write(zipBody)
	mw.Close()
	return s.api.For(t).Send("POST", "/admin/v1/wsdl/import:autopilot", adminEmail, mw.FormDataContentType(), buf.Bytes())
}

// zipFolder zips the files of one corpus folder (flat).
func zipFolder(t *testing.T, folder string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	ents, err := os.ReadDir(folder)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		b, _ := os.ReadFile(filepath.Join(folder, e.Name()))
		w, _ := zw.Create(e.Name())
		_, _ = w.Write(b)
	}
	zw.Close()
	return buf.Bytes()
}

// TestZIPOnboarding onboards multi-file WSDLs as a ZIP through the
// multipart autopilot, and checks that a broken ZIP is a clear 400.
func TestZIPOnboarding(t *testing.T) {
	dir := corpusDir(t)
	forEachBackend(t, func(t *testing.T, s *server) {
		// WSDLs at the top of a ZIP that import each other: the root is the
		// one no other file imports. Two unrelated WSDLs side by side are a
		// genuine tie, refused with both names.
		if r := s.multipartZIP(t, zipFolder(t, filepath.Join(dir, "vpulim+node-soap/test/wsdl/wsdlImport")),
			map[string]string{"environment": "dev", "serviceKey": "zip-root"}); r.Status != 201 || admintest.Dig(r.JSON(t), "artifact", "rootPath") != "main.wsdl" {
			t.Errorf("root by imports: %d %.500s", r.Status, r.Body)
		}
		if r := s.multipartZIP(t, zipFolder(t, filepath.Join(repoRoot(), "internal/wsdl/testdata/rootzip/tie")), map[string]string{"environment": "dev"}); r.Status != 400 ||
			r.Code() != "S2R-VAL-0400" || !strings.Contains(string(r.Body), `\"Alpha.wsdl\", \"Beta.wsdl\"`) {
			t.Errorf("ambiguous root: %d %.500s", r.Status, r.Body)
		}
		roots := []string{"main.wsdl", "main.wsdl", "recursive_schema_main.wsdl"}
		for i, folder := range []string{"vpulim+node-soap/test/wsdl/wsdlImport", "vpulim+node-soap/test/wsdl/nsTypeConflict", "mvantellingen+python-zeep/tests/integration"} {
			r := s.multipartZIP(t, zipFolder(t, filepath.Join(dir, folder)), map[string]string{"environment": "dev", "serviceKey": "zip" + string(rune('a'+i)), "rootPath": roots[i]})
			switch {
			case folder == "mvantellingen+python-zeep/tests/integration":
				// Its only port binds no operation: a clear 400.
				if r.Status != 400 || r.Code() != "S2R-VAL-0400" {
					t.Errorf("%s: %d %.500s", folder, r.Status, r.Body)
				}
			case r.Status != 201:
				t.Errorf("%s: %d %.500s", folder, r.Status, r.Body)
			}
		}
		r := s.multipartZIP(t, []byte("PK\x03\x04 not a zip"), map[string]string{"environment": "dev"})
		if r.Status != 400 || r.Code() != "S2R-VAL-0400" {
			t.Errorf("broken ZIP: %d %.500s", r.Status, r.Body)
		}
	})
}

// TestConsumeTraffic onboards the calculator as a consume service over a
// REST backend run by the test, fetches its WSDL and calls it in SOAP.
func TestConsumeTraffic(t *testing.T) {
	corpusDir(t)
	forEachBackend(t, func(t *testing.T, s *server) {
		var mu sync.Mutex
		var gotPath, gotBody string
		rest := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			gotPath, gotBody = r.Method+" "+r.URL.Path, string(b)
			mu.Unlock()
			var in map[string]json.Number
			d := json.NewDecoder(bytes.NewReader(b))
			d.UseNumber()
			_ = d.Decode(&in)
			a, _ := in["intA"].Int64()
			bb, _ := in["intB"].Int64()
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"AddResult": a + bb})
		}))
		t.Cleanup(rest.Close)
		calc := s.onboard(t, corpusFile(t, postmanDir+"calculator-soap11and12.wsdl"), nil, "calc", "consume", rest.URL+"/initial")
		s.pointBackend(t, calc, rest.URL+"/api")

		var w resp
		poll.UntilOK(t, settle, "consume WSDL", func() string {
			w = s.do(t, "GET", "/consume/dev/calc?wsdl", "", nil)
			if w.Status == 200 {
				return ""
			}
			return string(w.Body)
		})
		if !strings.Contains(string(w.Body), "definitions") || !strings.Contains(string(w.Body), "/consume/dev/calc") {
			t.Errorf("consume WSDL: %.800s", w.Body)
		}
		env := envelope11(`<t:Add xmlns:t="http://tempuri.org/"><intA>40</intA><intB>2</intB></t:Add>`)
		// The backend PATCH reaches the route table asynchronously.
		var res resp
		poll.UntilOK(t, settle, "consume Add", func() string {
			res = s.soapPost(t, "/consume/dev/calc", "text/xml; charset=utf-8", `"http://tempuri.org/Add"`, env)
			mu.Lock()
			defer mu.Unlock()
			if res.Status == 200 && gotPath == "POST /api/add" {
				return ""
			}
			return string(res.Body)
		})
		b := res.Body
		if !strings.Contains(string(b), "<AddResult>42</AddResult>") {
			t.Errorf("consume Add: %s", b)
		}
		mu.Lock()
		defer mu.Unlock()
		if gotPath != "POST /api/add" || !strings.Contains(gotBody, `"intA":40`) {
			t.Errorf("REST backend got %s %s", gotPath, gotBody)
		}
		// Malformed XML is a Client SOAP Fault S2R-VAL-0400 (SOAP 1.1 sends
		// every Fault with HTTP 500, docs/decisions-consume.md).
		res = s.soapPost(t, "/consume/dev/calc", "text/xml; charset=utf-8", `"http://tempuri.org/Add"`, envelope11(`<t:Add xmlns:t="http://tempuri.org/"><intA>`))
		b = res.Body
		if res.Status != 500 || !strings.Contains(string(b), "<faultcode>soap:Client</faultcode>") || !strings.Contains(string(b), "<s2r:code>S2R-VAL-0400</s2r:code>") {
			t.Errorf("consume malformed: %d %s", res.Status, b)
		}
	})
}
