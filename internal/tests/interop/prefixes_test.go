package interop

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/tests/poll"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
)

// TestUndeclaredPrefixCorpusNodeSOAP calls, through s2r, corpus WSDLs that
// use namespace prefixes they never declare (imported by the rules of
// docs/wsdl-support.md "Undeclared prefixes"), served by the npm soap
// package from the same files: each is onboarded as a publish service by
// autopilot, activated, and called over REST; node-soap must receive the
// request values, and its answer must come back as JSON.
func TestUndeclaredPrefixCorpusNodeSOAP(t *testing.T) {
	dir := nodeDir(t)
	base := startS2R(t)
	tests := []struct {
		rel, key, operation string
		answer              string // what node-soap answers, as its JSON
		request, want       string // the REST request and answer
		wantArgs            string // the arguments node-soap receives
	}{
		{
			// A WS-Policy block pasted without its wsp: and wsu:
			// declarations; the messages come from Name.xsd and
			// Common.xsd beside it.
			rel: "vpulim+node-soap/test/wsdl/ws-policy.wsdl", key: "ws-policy", operation: "Dummy",
			// The answer leaves out the optional DummyList: node-soap
			// writes it in the namespace of Name.xsd, though Common.xsd
			// declares it (qualified) in its own, and s2r rightly refuses
			// that answer (S2R-RUN-0506).
			answer:   `{"DummyResult":{"attributes":{"code":"OK"}}}`,
			request:  `{"DummyRequest":{"DummyField1":"un","DummyField2":"deux"}}`,
			want:     `{"DummyResult":{"@code":"OK"}}`,
			wantArgs: `{"operation":"Dummy","args":{"DummyField1":"un","DummyField2":"deux"}}`,
		},
		{
			// soap: undeclared (only soap12 is): imported as a SOAP 1.1
			// binding, as node-soap serves it; the elements have no type.
			rel: "vpulim+node-soap/test/wsdl/default_namespace_soap12.wsdl", key: "default-ns", operation: "MyOperation",
			answer:   `{"status":"done"}`,
			request:  `{"parameter":{"note":"hello"}}`,
			want:     `{"parameter":{"status":"done"}}`,
			wantArgs: `{"operation":"MyOperation","args":{"note":"hello"}}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.key, func(t *testing.T) {
			port := startListener(t, dir, "node", "corpus_backend.js", wsdlcorpus.Path(t, tc.rel),
				`{"`+tc.operation+`":`+tc.answer+`}`)
			backend := "http://127.0.0.1:" + port
			var auto autopilotResult
			admin(t, base, "POST", "/wsdl/import-xml:autopilot", map[string]any{
				"xml": string(wsdlcorpus.Read(t, tc.rel)), "files": wsdlcorpus.Siblings(t, tc.rel),
				"environment": "dev", "serviceKey": tc.key, "direction": "publish", "backendUrl": backend + "/service",
			}, http.StatusCreated, &auto)
			auto.activate(t, base)

			url := base + "/publish/dev/" + tc.key + "/" + auto.operationKey(t, tc.operation)
			var status int
			var got string
			poll.Until(t, 5*time.Second, "activation served", func() bool {
				status, got = postJSON(t, url, tc.request)
				return status != http.StatusNotFound
			})
			if status != http.StatusOK || !jsonEqual(t, got, tc.want) {
				t.Errorf("POST %s = %d %s, want 200 %s", url, status, got, tc.want)
			}
			resp, err := http.Get(backend + "/last")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			var gotArgs, wantArgs any
			if err := json.Unmarshal(b, &gotArgs); err != nil {
				t.Fatalf("node-soap's last call %q: %v", b, err)
			}
			_ = json.Unmarshal([]byte(tc.wantArgs), &wantArgs)
			if diff := cmp.Diff(wantArgs, gotArgs); diff != "" {
				t.Errorf("node-soap received (-want +got):\n%s", diff)
			}
			if strings.Contains(got, "S2R-") {
				t.Errorf("answer is an s2r error: %s", got)
			}
		})
	}
}
