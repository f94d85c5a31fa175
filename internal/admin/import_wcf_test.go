package admin

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// wcfServer serves the WCF layout of internal/wsdl/testdata/wcf: the WSDL
// at Service.svc?wsdl (its second schema import using query xsd1) and the
// schemas at ?xsd=xsd0 and ?xsd=xsd1; anything else is 404.
func wcfServer(t *testing.T, xsd1 string) *httptest.Server {
	t.Helper()
	wsdlText, xsd0, broken := importFixture(t, "wcf/Service.wsdl"), importFixture(t, "wcf/xsd0.xsd"), importFixture(t, "wcf/xsd1.xsd")
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path != "/Service.svc":
			http.NotFound(w, r)
		case r.URL.RawQuery == "wsdl":
			w.Write([]byte(strings.NewReplacer("{{BASE}}", srv.URL, "{{XSD1}}", strings.ReplaceAll(xsd1, "&", "&amp;")).Replace(wsdlText)))
		case r.URL.RawQuery == "xsd=xsd0":
			w.Write([]byte(xsd0))
		case r.URL.RawQuery == "xsd=xsd1":
			w.Write([]byte(broken))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestImportErrorsShowTheQuery: an import error naming a remote schema of
// a WCF layout shows its query (Service.svc?xsd=xsd1), and redacts only
// parameters whose names suggest a secret.
func TestImportErrorsShowTheQuery(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		api.Do("PATCH", "/admin/v1/settings", adminEmail, `{"outbound_allowed_cidrs":["127.0.0.0/8"]}`).WantStatus(t, http.StatusOK)
		tests := []struct {
			xsd1, file, reason, url string
		}{
			{xsd1: "xsd=xsd1", file: "/Service.svc?xsd=xsd1", reason: "not well-formed XML"},
			{xsd1: "xsd=xsd9", file: "/Service.svc?wsdl", reason: `cannot load "{{BASE}}/Service.svc?xsd=xsd9"`, url: "/Service.svc?xsd=xsd9"},
			{xsd1: "xsd=xsd9&access_token=s3cr3t-value", file: "/Service.svc?wsdl",
				reason: `cannot load "{{BASE}}/Service.svc?xsd=xsd9&access_token=REDACTED"`, url: "/Service.svc?xsd=xsd9&access_token=REDACTED"},
		}
		for _, tt := range tests {
			srv := wcfServer(t, tt.xsd1)
			r := api.Do("POST", "/admin/v1/wsdl/import-url", operatorEmail, `{"url":"`+srv.URL+`/Service.svc?wsdl"}`)
			r.WantStatus(t, http.StatusBadRequest)
			if strings.Contains(string(r.Body), "s3cr3t") {
				t.Errorf("%s: the secret leaked: %s", tt.xsd1, r.Body)
			}
			d := r.ErrorOf(t).Error.Details
			reason, _ := d["reason"].(string)
			if d["file"] != srv.URL+tt.file || !strings.HasPrefix(reason, strings.ReplaceAll(tt.reason, "{{BASE}}", srv.URL)) {
				t.Errorf("%s: file %v reason %q", tt.xsd1, d["file"], reason)
			}
			if tt.url != "" && d["url"] != srv.URL+tt.url {
				t.Errorf("%s: url %v", tt.xsd1, d["url"])
			}
		}
		// The layout imports when every schema is there.
		srv := wcfServer(t, "xsd=xsd0")
		api.Do("POST", "/admin/v1/wsdl/import-url", operatorEmail, `{"url":"`+srv.URL+`/Service.svc?wsdl"}`).WantStatus(t, http.StatusCreated)
	})
}
