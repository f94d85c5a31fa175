package interop

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// TestGatewayNodeAndZeep: real SOAP stacks on both sides of the gateway
// passthrough. The npm soap package and python3-zeep load the WSDL from
// the gateway (?wsdl, soap:address rewritten to the gateway) and call the
// npm soap backend through it, in SOAP 1.1 and 1.2: values and faults
// arrive as the backend sent them.
func TestGatewayNodeAndZeep(t *testing.T) {
	dir := nodeDir(t)
	py := zeepPython(t)
	base := startS2R(t)
	for _, tc := range []struct{ version, file, key string }{
		{"1.1", "echo11.wsdl", "gw11"},
		{"1.2", "echo12.wsdl", "gw12"},
	} {
		t.Run("SOAP "+tc.version, func(t *testing.T) {
			auto := importEcho(t, base, dir, tc.file, tc.version, tc.key, "gateway")
			admin(t, base, "PUT", "/services/"+auto.Service.ServiceID+"/consumer-grants",
				map[string]any{"cidrs": []string{"127.0.0.0/8"}}, http.StatusOK, nil)
			auto.activate(t, base)
			gw := base + "/gateway/dev/" + tc.key
			poll.Until(t, 5*time.Second, "gateway WSDL served", func() bool {
				resp, err := http.Get(gw + "?wsdl")
				if err != nil {
					return false
				}
				defer resp.Body.Close()
				b := make([]byte, 64<<10)
				n, _ := resp.Body.Read(b)
				return resp.StatusCode == 200 && strings.Contains(string(b[:n]), `location="`+gw+`"`)
			})

			var got struct {
				Result map[string]any `json:"result"`
				Fault  map[string]any `json:"fault"`
			}
			values := map[string]any{"text": "Grüße <&> \"q\" 'a' ✓ 𝄞", "amount": "12345678901234567890.000000001",
				"count": "9223372036854775807", "flag": false, "items": []any{"only one"}, "note": nil}
			decode(t, runNode(t, dir, "client.js", gw+"?wsdl", "Echo", mustJSON(map[string]any{"values": values}), tc.version), &got)
			if d := cmp.Diff(map[string]any{"values": values}, got.Result); d != "" {
				t.Errorf("node Echo through the gateway (-want +got):\n%s", d)
			}
			got.Result = nil
			decode(t, runNode(t, dir, "client.js", gw+"?wsdl", "Fail", `{"reason":"bad <input>"}`, tc.version), &got)
			if got.Fault == nil || !strings.Contains(fmt.Sprint(got.Fault), "refused: bad <input>") {
				t.Errorf("node Fail through the gateway: want the backend's fault, got %+v", got)
			}

			got.Result, got.Fault = nil, nil
			decode(t, runZeep(t, py, gw+"?wsdl", "Echo", `{"values":{"text":"Grüße <&> \"q\" 'a' ✓ 𝄞","amount":"12345678901234567890.000000001",`+
				`"count":9223372036854775807,"flag":false,"items":["only one"],"note":null}}`, tc.version, "EchoService", "EchoPort"), &got)
			zeepValues := map[string]any{}
			for k, v := range values {
				zeepValues[k] = v
			}
			zeepValues["count"] = json.Number("9223372036854775807")
			if d := cmp.Diff(zeepValues, got.Result); d != "" {
				t.Errorf("zeep Echo through the gateway (-want +got):\n%s", d)
			}
			got.Result = nil
			decode(t, runZeep(t, py, gw+"?wsdl", "Fail", `{"reason":"bad <input>"}`, tc.version, "EchoService", "EchoPort"), &got)
			if got.Fault == nil || !strings.Contains(fmt.Sprint(got.Fault), "refused: bad <input>") {
				t.Errorf("zeep Fail through the gateway: want the backend's fault, got %+v", got)
			}
		})
	}
}
