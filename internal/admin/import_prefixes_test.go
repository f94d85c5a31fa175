package admin

import (
	"slices"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestAutopilotUndeclaredPrefixes: WSDLs using namespace prefixes they
// never declare import through autopilot (docs/wsdl-support.md
// "Undeclared prefixes"): conventional prefixes and tns are read as
// their usual namespaces and the draft is ready; a prefix bound in
// another file of the import reads as that binding; an operation needing
// a name written with a prefix that has no known namespace is
// MANUAL_REQUIRED with file, line and name, the others stay ready. Each
// prefix is a warning of the artifact.
func TestAutopilotUndeclaredPrefixes(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		r := api.Do("POST", "/admin/v1/wsdl/import-xml:autopilot", operatorEmail,
			xmlBody(t, importFixture(t, "prefixes/conventional.wsdl"), nil, map[string]any{"environment": "dev"}))
		res := wantDraft(t, r, "files", "dev", 1)
		if res.PublishReadiness.Status == catalog.Blocked || len(res.Artifact.Warnings) != 6 ||
			!strings.HasPrefix(res.Artifact.Warnings[4], `root.wsdl:35: undeclared namespace prefix "soap": read as "http://schemas.xmlsoap.org/wsdl/soap/", its conventional namespace: a SOAP 1.1 binding assumed`) {
			t.Errorf("conventional: %+v, warnings %q", res.PublishReadiness, res.Artifact.Warnings)
		}
		if op := res.Artifact.Services[0].Ports[0].Operations[0]; res.DraftSuggestion.SOAPVersion != "1.1" || !op.MTOM {
			t.Errorf("conventional: suggestion %+v, operation %+v", res.DraftSuggestion, op)
		}

		r = api.Do("POST", "/admin/v1/wsdl/import-xml:autopilot", operatorEmail,
			xmlBody(t, importFixture(t, "prefixes/set/root.wsdl"), map[string]string{"common.wsdl": importFixture(t, "prefixes/set/common.wsdl")},
				map[string]any{"environment": "dev"}))
		res = wantDraft(t, r, "quotes", "dev", 1)
		if res.PublishReadiness.Status != catalog.ReadyToPublish || len(res.Artifact.Warnings) != 1 ||
			!strings.HasSuffix(res.Artifact.Warnings[0], `the namespace it is bound to at common.wsdl:4`) {
			t.Errorf("bound elsewhere: %s, warnings %q", res.PublishReadiness.Status, res.Artifact.Warnings)
		}

		r = api.Do("POST", "/admin/v1/wsdl/import-xml:autopilot", operatorEmail,
			xmlBody(t, importFixture(t, "prefixes/unknown.wsdl"), nil, map[string]any{"environment": "dev"}))
		res = wantDraft(t, r, "shop", "dev", 4)
		want := map[string]struct {
			line int
			name string
		}{"price": {16, "{urn:s2r:undeclared-prefix:acme}Money"}, "order": {22, "{urn:s2r:undeclared-prefix:acme}element"},
			"track": {35, "{urn:s2r:undeclared-prefix:acme}Tracking"}}
		for key, w := range want {
			d := res.MappingDiagnostics.Operations[key]
			if d.Status != catalog.ManualRequired || len(d.Reasons) == 0 {
				t.Errorf("%s: %+v", key, d)
				continue
			}
			if r := d.Reasons[0]; r.Code != catalog.ReasonUnresolved || r.File != "root.wsdl" || r.Line != w.line || r.Name != w.name {
				t.Errorf("%s: reason %+v", key, r)
			}
		}
		if got := res.MappingDiagnostics.Operations["ping"].Status; got != catalog.AutoReady {
			t.Errorf("ping %s", got)
		}
		if res.PublishReadiness.Status != catalog.Blocked || !slices.Contains(readinessCodes(res.PublishReadiness), "MANUAL_MAPPING_REQUIRED") {
			t.Errorf("readiness %+v", res.PublishReadiness)
		}
		if !strings.HasPrefix(res.Artifact.Warnings[0], `root.wsdl:22: undeclared namespace prefix "acme": no known namespace`) {
			t.Errorf("warnings %q", res.Artifact.Warnings)
		}
	})
}
