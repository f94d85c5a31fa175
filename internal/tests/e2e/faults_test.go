package e2e

import "testing"

// TestFaultExposure: a declared fault is reduced to its code in safe mode
// and passed whole, detail converted by the fault contract, in full mode.
func TestFaultExposure(t *testing.T) {
	corpusDir(t)
	t.Parallel()
	s := startServer(t, nil)
	be := newSOAPBackend(t)
	o := s.onboard(t, corpusFile(t, cxfDir+"hello_world.wsdl"), nil, "hw", "", be.srv.URL+"/h")
	be.mu.Lock()
	be.answers = append(be.answers, cannedAnswer{"testDocLitFault", 500, "text/xml", envelope11(`<soap:Fault><faultcode>soap:Server</faultcode><faultstring>no such code</faultstring><detail><x1:NoSuchCodeLit xmlns:x1="http://apache.org/hello_world_soap_http/types"><x1:code><x1:minor>1</x1:minor><x1:major>2</x1:major></x1:code></x1:NoSuchCodeLit></detail></soap:Fault>`)})
	be.mu.Unlock()
	r := s.settledCall(t, "hw", "test-doc-lit-fault", `{"faultType":"NoSuchCodeLitFault"}`).want(t, 502)
	if d, _ := r.json(t)["error"].(map[string]any)["details"].(map[string]any); len(d) != 1 || d["faultCode"] != "Receiver" {
		t.Errorf("safe mode details: %s", r.body)
	}
	s.admin(t, "PATCH", "/services/"+o.serviceID, map[string]any{"faultDetailExposureMode": "full"}).want(t, 200)
	eventually(t, "full fault", func() string {
		r = s.publishCall(t, "hw", "test-doc-lit-fault", `{"faultType":"NoSuchCodeLitFault"}`)
		if str(r.json(t), "error", "details", "faultString") == "no such code" {
			return ""
		}
		return string(r.body)
	})
	wantJSON(t, resp{body: []byte(mustJSON(t, r.json(t)["error"].(map[string]any)["details"]))},
		`{"detail":{"code":{"major":2,"minor":1}},"faultCode":"Receiver","faultString":"no such code"}`)
}
