package resilience

import (
	"net/http"
	"testing"

	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// TestAsyncAcrossInstances runs two s2r serve processes on one PostgreSQL
// database, as a load balancer in front of them would reach them: an
// async execution started through instance A is completed by a SOAP
// callback that reaches instance B, then polled through A; a second
// callback to A is the 409 of a finished execution.
func TestAsyncAcrossInstances(t *testing.T) {
	t.Parallel()
	cfg := storetest.PostgresConfig(t)
	env := []string{"S2R_DATABASE_URL=" + cfg.URL}
	a, b := startInstance(t, "s2r-a", env...), startInstance(t, "s2r-b", env...)
	calc := startCalc(t)
	svc := onboardAsyncCalc(t, a.base, "calcasync", calc.url())

	var acc struct{ CorrelationID, PollPath, PollToken string }
	r := svc.add(a.base, 20, 22)
	if r.status != http.StatusAccepted {
		t.Fatalf("async start through A: %s", r)
	}
	r.decode(t, &acc)

	callback := `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">` +
		`<soap:Header><wsa:RelatesTo xmlns:wsa="http://www.w3.org/2005/08/addressing">urn:uuid:` + acc.CorrelationID + `</wsa:RelatesTo></soap:Header>` +
		`<soap:Body><c:AddResponse xmlns:c="http://example.com/calc"><c:result>42</c:result></c:AddResponse></soap:Body></soap:Envelope>`
	path := "/_s2r/callback/dev/calcasync/add"
	// B learns of A's activation through the database's change signal, a
	// moment after A answered: until then B has no such publish service.
	poll.UntilOK(t, propagationWindow, "callback to B", func() string {
		if r := call("POST", b.base+path, callback, "Content-Type", "text/xml"); r.status != http.StatusOK {
			return r.String()
		}
		return ""
	})
	r = call("GET", a.base+acc.PollPath, nil, "X-S2R-Poll-Token", acc.PollToken)
	var poll struct {
		Status string
		Result map[string]any
	}
	if r.decode(t, &poll); r.status != http.StatusOK || poll.Status != "completed" || poll.Result["result"] != 42.0 {
		t.Fatalf("poll through A after B's callback: %s", r)
	}
	if r := call("POST", a.base+path, callback, "Content-Type", "text/xml"); r.status != http.StatusConflict || r.code() != "S2R-RUN-0431" {
		t.Fatalf("second callback to A: %s", r)
	}
}
