package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// TestFaultExposure: a declared fault is reduced to its code and subcodes
// in safe mode and passed whole in full mode, both as the generated
// OpenAPI document's 502 schema describes them, its detail keyed by the detail element's
// name so the caller can tell the declared faults apart: converted by the
// fault's contract (a structure or a simple value), naively with the same
// keys when the contract does not fit, and pruned by a fault mapping's
// pick paths.
func TestFaultExposure(t *testing.T) {
	corpusDir(t)
	t.Parallel()
	s := startServer(t, nil)
	be := newSOAPBackend(t)
	o := s.onboard(t, corpusFile(t, cxfDir+"hello_world.wsdl"), nil, "hw", "", be.srv.URL+"/h")
	faultCoded := func(code, detail string) {
		be.mu.Lock()
		defer be.mu.Unlock()
		be.answers = []cannedAnswer{{"testDocLitFault", 500, "text/xml", envelope11(`<soap:Fault><faultcode>` + code +
			`</faultcode><faultstring>no such code</faultstring><detail>` + detail + `</detail></soap:Fault>`)}}
	}
	fault := func(detail string) { faultCoded("soap:Server", detail) }
	const noSuchCode = `<x1:NoSuchCodeLit xmlns:x1="http://apache.org/hello_world_soap_http/types"><x1:code><x1:minor>1</x1:minor><x1:major>2</x1:major></x1:code></x1:NoSuchCodeLit>`
	fault(noSuchCode)
	r := s.settledCall(t, "hw", "test-doc-lit-fault", `{"faultType":"NoSuchCodeLitFault"}`).WantStatus(t, 502)
	if d, _ := r.JSON(t)["error"].(map[string]any)["details"].(map[string]any); len(d) != 1 || d["faultCode"] != "Receiver" {
		t.Errorf("safe mode details: %s", r.Body)
	}
	checkFaultSchema(t, s, o, "test-doc-lit-fault", r.Body)
	// The specific code comes through in safe mode, as subcodes.
	faultCoded("Server.Database.Timeout", noSuchCode)
	r = s.settledCall(t, "hw", "test-doc-lit-fault", `{"faultType":"NoSuchCodeLitFault"}`).WantStatus(t, 502)
	wantJSON(t, resp{Body: []byte(mustJSON(t, r.JSON(t)["error"].(map[string]any)["details"]))},
		`{"faultCode":"Receiver","faultSubcodes":["Database","Timeout"]}`)
	checkFaultSchema(t, s, o, "test-doc-lit-fault", r.Body)
	fault(noSuchCode)
	s.admin(t, "PATCH", "/services/"+o.serviceID, map[string]any{"faultDetailExposureMode": "full"}).WantStatus(t, 200)
	poll.UntilOK(t, settle, "full fault", func() string {
		r = s.publishCall(t, "hw", "test-doc-lit-fault", `{"faultType":"NoSuchCodeLitFault"}`)
		if admintest.Dig(r.JSON(t), "error", "details", "faultString") == "no such code" {
			return ""
		}
		return string(r.Body)
	})
	details := func(t *testing.T, want string) {
		t.Helper()
		r := s.publishCall(t, "hw", "test-doc-lit-fault", `{"faultType":"NoSuchCodeLitFault"}`).WantStatus(t, 502)
		wantJSON(t, resp{Body: []byte(mustJSON(t, r.JSON(t)["error"].(map[string]any)["details"]))}, want)
	}
	details(t, `{"detail":{"NoSuchCodeLit":{"code":{"major":2,"minor":1}}},"faultCode":"Receiver","faultString":"no such code"}`)
	checkFaultSchema(t, s, o, "test-doc-lit-fault", s.publishCall(t, "hw", "test-doc-lit-fault", `{"faultType":"NoSuchCodeLitFault"}`).WantStatus(t, 502).Body)
	fault(`<x1:BadRecordLit xmlns:x1="http://apache.org/hello_world_soap_http/types">no such record</x1:BadRecordLit>`)
	details(t, `{"detail":{"BadRecordLit":"no such record"},"faultCode":"Receiver","faultString":"no such code"}`)
	// A child the contract lacks: converted naively, keyed the same way.
	fault(noSuchCode + `<trace>at x</trace>`)
	details(t, `{"detail":{"NoSuchCodeLit":{"code":{"major":"2","minor":"1"}},"trace":"at x"},"faultCode":"Receiver","faultString":"no such code"}`)

	// A fault mapping (on a new draft, then activated) picks detail paths,
	// which name the detail element.
	var draft struct {
		Version    struct{ VersionID string }
		Operations []struct{ OperationID, OperationKey string }
	}
	if err := json.Unmarshal(s.admin(t, "POST", "/services/"+o.serviceID+"/versions", map[string]any{}).WantStatus(t, 201).Body, &draft); err != nil {
		t.Fatal(err)
	}
	var opID string
	for _, op := range draft.Operations {
		if op.OperationKey == "test-doc-lit-fault" {
			opID = op.OperationID
		}
	}
	s.admin(t, "PUT", "/operations/"+opID+"/mapping", map[string]any{"faultMapping": map[string]any{"pick": []string{"detail/code"}}}).WantStatus(t, 400)
	s.admin(t, "PUT", "/operations/"+opID+"/mapping", map[string]any{"faultMapping": map[string]any{"pick": []string{"detail/NoSuchCodeLit/code/major"}}}).WantStatus(t, 200)
	s.admin(t, "POST", "/services/"+o.serviceID+"/versions/"+draft.Version.VersionID+":activate", nil).WantStatus(t, 200)
	fault(noSuchCode)
	poll.UntilOK(t, settle, "picked fault", func() string {
		r = s.publishCall(t, "hw", "test-doc-lit-fault", `{"faultType":"NoSuchCodeLitFault"}`)
		if got := mustJSON(t, r.JSON(t)["error"].(map[string]any)["details"].(map[string]any)["detail"]); got != `{"NoSuchCodeLit":{"code":{"major":2}}}` {
			return got
		}
		return ""
	})
}

// checkFaultSchema generates the OpenAPI document of o's active version
// (in the service's current exposure mode) and checks that body, the 502
// error of operation opKey for a SOAP Fault, fits its 502 schema and that
// every member of its details is one the schema declares (issue 16: the
// document and the runtime agree on the fault's shape).
func checkFaultSchema(t *testing.T, s *server, o onboarded, opKey string, body []byte) {
	t.Helper()
	vpath := "/services/" + o.serviceID + "/versions/" + o.versionID
	if g := s.admin(t, "POST", vpath+":generate-openapi", nil); g.Status != 200 && g.Status != 201 {
		t.Fatalf("generate-openapi: %d %s", g.Status, g.Body)
	}
	doc, err := openapi3.NewLoader().LoadFromData(s.admin(t, "GET", vpath+"/openapi", nil).WantStatus(t, 200).Body)
	if err != nil {
		t.Fatal(err)
	}
	var schema *openapi3.Schema
	for path, item := range doc.Paths.Map() {
		if !strings.HasSuffix(path, "/"+opKey) {
			continue
		}
		for _, op := range item.Operations() {
			if r := op.Responses.Status(502); r != nil && r.Value != nil {
				schema = r.Value.Content.Get("application/json").Schema.Value
			}
		}
	}
	if schema == nil {
		t.Fatalf("the OpenAPI document has no 502 schema for %s", opKey)
	}
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	if err := schema.VisitJSON(v); err != nil {
		t.Errorf("the 502 body does not fit the OpenAPI schema: %v\n%s", err, body)
	}
	declared := schema.Properties["error"].Value.Properties["details"].Value.Properties
	for k := range v["error"].(map[string]any)["details"].(map[string]any) {
		if declared[k] == nil {
			t.Errorf("details member %q is not in the OpenAPI 502 schema: %s", k, body)
		}
	}
}
