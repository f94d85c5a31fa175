package interop

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// echoValues exercises exact values: unicode and XML special characters,
// a decimal beyond float64, the largest 64-bit integer, a boolean, an
// array of one and a nil.
const echoValues = `{"values":{"text":"Grüße <&> \"q\" 'a' ✓ 𝄞","amount":12345678901234567890.000000001,` +
	`"count":9223372036854775807,"flag":false,"items":["only one"],"note":null}}`

// postJSON posts body as JSON to url with no identity (a runtime call)
// and returns the status and body.
func postJSON(t *testing.T, url, body string) (int, string) {
	t.Helper()
	r := admintest.NewClient(t, "").Do(http.MethodPost, url, "", body)
	return r.Status, string(r.Body)
}

// errorBody is the SPEC 7.1 error shape.
type errorBody struct {
	Error struct {
		Code    string         `json:"code"`
		Details map[string]any `json:"details"`
	} `json:"error"`
}

// TestPublishNodeSOAPBackend: the npm soap package is the SOAP backend of
// a publish service imported by autopilot from the same WSDL, in SOAP 1.1
// and 1.2. Values come back exactly; a SOAP Fault becomes 502
// S2R-RUN-0502 with only the fault code and subcodes in safe mode and the
// whole fault in full mode.
func TestPublishNodeSOAPBackend(t *testing.T) {
	dir := nodeDir(t)
	base := startS2R(t)
	for _, tc := range []struct {
		version, file, key, faultCode string
		safe                          map[string]any
	}{
		{"1.1", "echo11.wsdl", "echo11", "Sender", map[string]any{"faultCode": "Sender"}},
		{"1.2", "echo12.wsdl", "echo12", "Sender", map[string]any{"faultCode": "Sender", "faultSubcodes": []any{"InvalidReason"}}},
	} {
		t.Run("SOAP "+tc.version, func(t *testing.T) {
			auto := importEcho(t, base, dir, tc.file, tc.version, tc.key, "publish")
			auto.activate(t, base)

			echo := base + "/publish/dev/" + tc.key + "/echo"
			var status int
			var got string
			poll.Until(t, 5*time.Second, "activation served", func() bool {
				status, got = postJSON(t, echo, echoValues)
				return status != http.StatusNotFound
			})
			if status != 200 {
				t.Fatalf("echo = %d %s", status, got)
			}
			if got != echoValues {
				t.Errorf("echo round trip:\n got %s\nwant %s", got, echoValues)
			}

			fail := base + "/publish/dev/" + tc.key + "/fail"
			status, got = postJSON(t, fail, `{"reason":"bad <input>"}`)
			e := decodeError(t, status, got, http.StatusBadGateway, "S2R-RUN-0502")
			if d := cmp.Diff(tc.safe, e.Error.Details); d != "" {
				t.Errorf("safe fault details (-want +got):\n%s", d)
			}

			admin(t, base, "PATCH", "/services/"+auto.Service.ServiceID, map[string]any{"faultDetailExposureMode": "full"},
				http.StatusOK, nil)
			poll.Until(t, 5*time.Second, "full fault mode served", func() bool {
				status, got = postJSON(t, fail, `{"reason":"bad <input>"}`)
				return strings.Contains(got, "faultString")
			})
			e = decodeError(t, status, got, http.StatusBadGateway, "S2R-RUN-0502")
			if e.Error.Details["faultString"] != "refused: bad <input>" || e.Error.Details["faultCode"] != tc.faultCode {
				t.Errorf("full fault details = %v", e.Error.Details)
			}
			want := map[string]any{"problem": map[string]any{"reason": "refused: bad <input>"}}
			if d := cmp.Diff(want, e.Error.Details["detail"]); d != "" {
				t.Errorf("full fault detail (-want +got):\n%s", d)
			}
		})
	}
}

func decodeError(t *testing.T, status int, body string, wantStatus int, wantCode string) errorBody {
	t.Helper()
	var e errorBody
	if err := json.Unmarshal([]byte(body), &e); err != nil {
		t.Fatalf("error body %q: %v", body, err)
	}
	if status != wantStatus || e.Error.Code != wantCode {
		t.Fatalf("answer = %d %s, want %d %s", status, body, wantStatus, wantCode)
	}
	return e
}
