package e2e

import (
	"regexp"
	"testing"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// TestPublicBaseURL: with S2R_PUBLIC_BASE_URL the consume WSDL and the
// generated OpenAPI document point callers at the platform, not the
// backend.
func TestPublicBaseURL(t *testing.T) {
	corpusDir(t)
	t.Parallel()
	s := startServer(t, []string{"S2R_PUBLIC_BASE_URL=https://api.example.com/base"})
	s.onboard(t, corpusFile(t, postmanDir+"calculator-soap11and12.wsdl"), nil, "ccalc", "consume", "http://127.0.0.1:9/api")
	var w resp
	poll.UntilOK(t, settle, "consume WSDL", func() string {
		if w = s.do(t, "GET", "/consume/dev/ccalc?wsdl", "", nil); w.Status != 200 {
			return string(w.Body)
		}
		return ""
	})
	locs := regexp.MustCompile(`location="[^"]*"`).FindAllString(string(w.Body), -1)
	if len(locs) == 0 {
		t.Fatalf("consume WSDL has no address: %.500s", w.Body)
	}
	for _, l := range locs {
		if l != `location="https://api.example.com/base/consume/dev/ccalc"` {
			t.Errorf("consume WSDL address %s", l)
		}
	}
	o := s.onboard(t, corpusFile(t, cxfDir+"hello_world.wsdl"), nil, "hw", "", "http://127.0.0.1:9/x")
	s.admin(t, "POST", "/services/"+o.serviceID+"/versions/"+o.versionID+":generate-openapi", nil).WantStatus(t, 200)
	doc := s.admin(t, "GET", "/services/"+o.serviceID+"/versions/"+o.versionID+"/openapi", nil).WantStatus(t, 200).JSON(t)
	servers, _ := doc["servers"].([]any)
	if len(servers) != 1 || admintest.Dig(servers[0], "url") != "https://api.example.com/base/publish/dev/hw" {
		t.Errorf("OpenAPI servers %v", servers)
	}
}
