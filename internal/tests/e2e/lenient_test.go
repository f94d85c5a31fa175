package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/admin/admintest"
)

// TestPublishAnyTypeStandIn onboards the lenient-import fixture whose
// PlaceOrder needs a type no schema defines (tns:Address) and whose Cancel
// names an undeclared element: both are MANUAL_REQUIRED, so the draft is
// BLOCKED until their mappings are reviewed (saved). Then the runtime
// passes the JSON of an xs:anyType stand-in as naive XML (docs/conversion.md
// section 11) and reads the answer back, while the rest of the contract
// still converts typed. SQLite only: no database code is under test.
func TestPublishAnyTypeStandIn(t *testing.T) {
	wsdlText, err := os.ReadFile(filepath.Join(repoRoot(), "internal/wsdl/testdata/lenient/missing-type.wsdl"))
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, nil)
	be := newSOAPBackend(t)
	be.answer11("PlaceOrder", `<PlaceOrderResponse xmlns="urn:orders"><orderId>42</orderId></PlaceOrderResponse>`)
	be.answer11("Cancel", `<GetStatusResponse xmlns="urn:orders"><status>cancelled</status></GetStatusResponse>`)
	m := s.admin(t, "POST", "/wsdl/import-xml:autopilot", map[string]any{
		"xml": string(wsdlText), "environment": "dev", "serviceKey": "orders", "backendUrl": be.srv.URL + "/orders",
	}).WantStatus(t, 201).JSON(t)
	if got := admintest.Dig(m, "publishReadiness", "status"); got != "BLOCKED" {
		t.Fatalf("readiness %s, want BLOCKED", got)
	}
	path := "/services/" + admintest.Dig(m, "service", "serviceId") + "/versions/" + admintest.Dig(m, "version", "versionId")
	s.admin(t, "POST", path+":activate", nil).WantStatus(t, 409)
	if got := s.reviewManualMappings(t, m); got != 2 {
		t.Errorf("%d operations MANUAL_REQUIRED, want place-order and cancel", got)
	}
	s.admin(t, "POST", path+":activate", nil).WantStatus(t, 200)

	r := s.settledCall(t, "orders", "place-order", map[string]any{
		"item": "pen", "quantity": 2, "shipTo": map[string]any{"street": "Main 1", "city": "Oslo"},
	}).WantStatus(t, 200)
	wantJSON(t, r, `{"orderId":"42"}`)
	sent, _ := be.request("PlaceOrder")
	if !strings.Contains(sent, "<quantity>2</quantity>") && !strings.Contains(sent, ":quantity>2</") {
		t.Errorf("typed members not sent: %s", sent)
	}
	if !strings.Contains(sent, "shipTo><city>Oslo</city><street>Main 1</street></") { // members in JSON order
		t.Errorf("the xs:anyType stand-in is not naive XML: %s", sent)
	}

	r = s.settledCall(t, "orders", "cancel", map[string]any{"parameters": map[string]any{"orderId": "7"}}).WantStatus(t, 200)
	wantJSON(t, r, `{"status":"cancelled"}`)
	sent, _ = be.request("Cancel")
	if !strings.Contains(sent, "Cancel") || !strings.Contains(sent, "<orderId>7</orderId>") {
		t.Errorf("the stand-in part is not naive XML: %s", sent)
	}
}

// reviewManualMappings saves (unchanged, as a person reviewing them would)
// the mapping of every operation an autopilot answer m reports
// MANUAL_REQUIRED, in every service it created, and returns how many.
func (s *server) reviewManualMappings(t *testing.T, m map[string]any) int {
	t.Helper()
	ids := map[string]string{} // serviceId + operationKey → operationId
	ops, _ := m["operations"].([]any)
	for _, op := range ops {
		ids[admintest.Dig(op, "serviceId")+" "+admintest.Dig(op, "operationKey")] = admintest.Dig(op, "operationId")
	}
	n := 0
	services, _ := m["services"].([]any)
	for _, svc := range services {
		diags, _ := svc.(map[string]any)["mappingDiagnostics"].(map[string]any)["operations"].(map[string]any)
		for key, d := range diags {
			if admintest.Dig(d, "status") != "MANUAL_REQUIRED" {
				continue
			}
			n++
			s.admin(t, "PUT", "/operations/"+ids[admintest.Dig(svc, "service", "serviceId")+" "+key]+"/mapping", map[string]any{
				"requestMapping": map[string]any{"mode": "identity"}, "responseMapping": map[string]any{"mode": "identity"},
				"faultMapping": map[string]any{"mode": "identity"},
			}).WantStatus(t, 200)
		}
	}
	return n
}
