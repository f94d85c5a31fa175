package interop

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// Shared checks of the stacks added in issue 16 (PHP ext/soap, Perl
// SOAP::Lite): each is a backend of publish for the same two contracts of
// test/interop/wsdl, and a client of the same orders consume service.

// ledgerEntry is the Post request of ledger.wsdl (document/literal): the
// backend echoes it, so it is also the exact expected answer. It holds
// unicode and XML special characters, a decimal beyond float64, the
// largest 64-bit integer, a date, a nested structure, an array of one and
// a nil.
const ledgerEntry = `{"entry":{"text":"Grüße <&> \"q\" 'a' ✓ 𝄞","amount":12345678901234567890.000000001,` +
	`"count":9223372036854775807,"flag":false,"booked":"2024-02-29","payee":{"name":"Zoë & Co","iban":"DE89 3704 0044"},` +
	`"items":["only one"],"note":null}}`

// storedAccount is getAccount's answer in accounts-rpc.wsdl (rpc/encoded),
// as both backends store it.
const storedAccount = `{"return":{"id":9223372036854775807,"owner":{"name":"Zoë <&> \"q\"","since":"2001-02-03"},` +
	`"balance":12345678901234567890.000000001,"tags":["only one"],"closed":false,"note":null}}`

// checkStackBackend onboards ledger.wsdl and accounts-rpc.wsdl as publish
// services (keys ledger-<stack>, accounts-<stack>) calling the stack's
// backends at ledgerURL and accountsURL, and checks exact values both
// ways and each contract's Fault: in safe mode only the code and its
// subcodes (the backends write Client.CardDeclined and Server.Frozen, each
// in its own way), in full mode the fault string and the declared detail.
func checkStackBackend(t *testing.T, base, stack, ledgerURL, accountsURL string) {
	t.Run("backend of publish/document-literal", func(t *testing.T) {
		key := "ledger-" + stack
		auto := importWSDL(t, base, "ledger.wsdl", key, "publish", ledgerURL)
		auto.activate(t, base)
		post := base + "/publish/dev/" + key + "/" + auto.operationKey(t, "Post")
		status, got := settledPost(t, post, ledgerEntry)
		if status != 200 || !jsonEqual(t, got, ledgerEntry) {
			t.Errorf("Post = %d\n got %s\nwant %s", status, got, ledgerEntry)
		}

		reject := base + "/publish/dev/" + key + "/" + auto.operationKey(t, "Reject")
		status, got = postJSON(t, reject, `{"reason":"over <limit>"}`)
		e := decodeError(t, status, got, http.StatusBadGateway, "S2R-RUN-0502")
		want := map[string]any{"faultCode": "Sender", "faultSubcodes": []any{"CardDeclined"}}
		if d := cmp.Diff(want, e.Error.Details); d != "" {
			t.Errorf("safe fault details (-want +got):\n%s\n%s", d, got)
		}

		e = fullFault(t, base, auto, reject, `{"reason":"over <limit>"}`)
		want["faultString"] = "declined: over <limit>"
		want["detail"] = map[string]any{"Decline": map[string]any{"reason": "over <limit>", "limit": json.Number("100.50")}}
		delete(e.Error.Details, "faultRole") // SOAP::Lite names itself in faultactor
		if d := cmp.Diff(want, e.Error.Details); d != "" {
			t.Errorf("full fault details (-want +got):\n%s", d)
		}
	})

	t.Run("backend of publish/rpc-encoded", func(t *testing.T) {
		key := "accounts-" + stack
		auto := importWSDL(t, base, "accounts-rpc.wsdl", key, "publish", accountsURL)
		auto.activate(t, base)
		get := base + "/publish/dev/" + key + "/" + auto.operationKey(t, "getAccount")
		status, got := settledPost(t, get, `{"id":9223372036854775807}`)
		if status != 200 || !jsonEqual(t, got, storedAccount) {
			t.Errorf("getAccount = %d\n got %s\nwant %s", status, got, storedAccount)
		}

		freeze := base + "/publish/dev/" + key + "/" + auto.operationKey(t, "freeze")
		status, got = postJSON(t, freeze, `{"id":7,"reason":"cold & <dark>"}`)
		e := decodeError(t, status, got, http.StatusBadGateway, "S2R-RUN-0502")
		want := map[string]any{"faultCode": "Receiver", "faultSubcodes": []any{"Frozen"}}
		if d := cmp.Diff(want, e.Error.Details); d != "" {
			t.Errorf("safe fault details (-want +got):\n%s\n%s", d, got)
		}
		e = fullFault(t, base, auto, freeze, `{"id":7,"reason":"cold & <dark>"}`)
		if e.Error.Details["faultString"] != "frozen: cold & <dark>" || e.Error.Details["faultCode"] != "Receiver" {
			t.Errorf("full fault details = %v", e.Error.Details)
		}
	})
}

// settledPost posts body to url until the route answers (activation is
// applied asynchronously) and returns the answer.
func settledPost(t *testing.T, url, body string) (int, string) {
	t.Helper()
	var status int
	var got string
	poll.Until(t, 5*time.Second, "activation served", func() bool {
		status, got = postJSON(t, url, body)
		return status != http.StatusNotFound
	})
	return status, got
}

// fullFault switches the service to faultDetailExposureMode full and
// returns the 502 error of posting body to url once it is served so.
func fullFault(t *testing.T, base string, auto autopilotResult, url, body string) errorBody {
	t.Helper()
	admin(t, base, "PATCH", "/services/"+auto.Service.ServiceID, map[string]any{"faultDetailExposureMode": "full"},
		http.StatusOK, nil)
	var status int
	var got string
	poll.Until(t, 5*time.Second, "full fault mode served", func() bool {
		status, got = postJSON(t, url, body)
		return strings.Contains(got, "faultString")
	})
	var e errorBody
	dec := json.NewDecoder(strings.NewReader(got))
	dec.UseNumber()
	if err := dec.Decode(&e); err != nil || status != http.StatusBadGateway || e.Error.Code != "S2R-RUN-0502" {
		t.Fatalf("full fault answer = %d %s (%v)", status, got, err)
	}
	return e
}

// jsonEqual reports whether two JSON texts hold the same value, numbers
// compared by their digits.
func jsonEqual(t *testing.T, a, b string) bool {
	t.Helper()
	var va, vb any
	decode(t, []byte(a), &va)
	decode(t, []byte(b), &vb)
	return cmp.Equal(va, vb)
}

// stackResult is what the PHP and Perl clients print: the answer (R in
// each client's shape) or a Fault, with the HTTP status.
type stackResult[R any] struct {
	Result R           `json:"result"`
	Fault  *stackFault `json:"fault"`
	Status int         `json:"status"`
}

// stackFault is a Fault as the PHP and Perl clients report it.
type stackFault struct {
	Code   string `json:"code"`
	String string `json:"string"`
	S2R    string `json:"s2r"`
	Status int    `json:"status"`
}

// checkStackFault checks a Fault a client read from consume: the S2R code
// is in it, and its HTTP status and code follow the SOAP version's rules
// (SOAP 1.1: 500; SOAP 1.2: 400 for env:Sender, 500 otherwise).
func checkStackFault(t *testing.T, f *stackFault, version, s2rCode string, sender bool) {
	t.Helper()
	if f == nil {
		t.Fatalf("want a Fault with %s, got an answer", s2rCode)
	}
	wantStatus, wantCode := 500, map[bool]string{true: "Client", false: "Server"}[sender]
	if version == "1.2" {
		wantCode = map[bool]string{true: "Sender", false: "Receiver"}[sender]
		if sender {
			wantStatus = 400
		}
	}
	if f.S2R != s2rCode || f.Status != wantStatus || !strings.HasSuffix(f.Code, ":"+wantCode) ||
		!strings.HasPrefix(f.String, s2rCode+": ") {
		t.Errorf("Fault = %+v, want %s with status %d and code %s", *f, s2rCode, wantStatus, wantCode)
	}
}

// importOrdersForStacks imports the orders consume service as key with a
// request rule on GetOrder's id (digits only), so that a negative id is a
// client's mistake: 400 S2R-VAL-0411, a Sender Fault.
func importOrdersForStacks(t *testing.T, base string, rest *restOrders, key string) string {
	t.Helper()
	auto := importOrdersDraft(t, base, rest, key, "orders.wsdl", "xsd/orders-types.xsd")
	admin(t, base, "PATCH", "/operations/"+auto.operationID(t, "GetOrder")+"/validation-rules", map[string]any{
		"rules": []any{map[string]any{"field": "/id", "pattern": "^[0-9]+$", "target": "request"}}}, http.StatusOK, nil)
	return activateOrders(t, base, auto, key)
}
