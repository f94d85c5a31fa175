package async

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

const cbSecret = "cb-Secret-7!x"

// TestAsyncFlow walks async executions end to end on each database: the
// 202 answer and the WS-Addressing headers the backend receives, polls
// with single-use tokens, SOAP 1.1 and 1.2 callbacks correlated by
// RelatesTo and by MessageID (with and without urn:uuid:), authenticated
// by header and by bearer token, a callback in the 2004/08 WS-Addressing
// namespace, a fault callback, a second callback
// after the end, and the runtime records of it all.
func TestAsyncFlow(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s := newStack(t, st)
		be := newBackend(t)
		s.onboard("calc", be.srv.URL+"/calc", cbSecret, "add", "echo")

		acc := s.start("calc", "add", `{"a": 2, "b": 3}`, "X-Correlation-Id", "order-42")
		if acc.CorrelationID != "order-42" {
			t.Fatalf("correlation id %q", acc.CorrelationID)
		}
		req := be.last(t)
		for _, want := range []string{
			`<wsa:MessageID xmlns:wsa="` + nsWSA + `">urn:uuid:order-42</wsa:MessageID>`,
			`<wsa:Address>` + s.base + `/_s2r/callback/dev/calc/add</wsa:Address>`,
			`<wsa:To xmlns:wsa="` + nsWSA + `">` + be.srv.URL + `/calc</wsa:To>`,
			`<wsa:Action xmlns:wsa="` + nsWSA + `">http://example.com/calc/Add</wsa:Action>`,
			`>2</`, `>3</`,
		} {
			if !strings.Contains(req.body, want) {
				t.Errorf("backend request lacks %s:\n%s", want, req.body)
			}
		}
		if req.header.Get("SOAPAction") != `"http://example.com/calc/Add"` {
			t.Errorf("SOAPAction %q", req.header.Get("SOAPAction"))
		}
		e := s.execution("order-42")
		if e.Status != model.AsyncWaiting || !e.ExpiresAt.Equal(acc.ExpiresAt) || e.BackendTarget != be.srv.URL+"/calc" {
			t.Fatalf("stored execution %+v", e)
		}

		// Polls: a missing, wrong or used token is 401; each poll rotates it.
		s.pollAnswer(acc.PollPath, "").WantError(t, http.StatusUnauthorized, "S2R-RUN-0401")
		s.pollAnswer(acc.PollPath, "nope").WantError(t, http.StatusUnauthorized, "S2R-RUN-0401")
		a, p := s.poll(acc.PollPath, acc.PollToken)
		a.WantStatus(t, http.StatusOK)
		if p.Status != model.AsyncWaiting || p.CorrelationID != "order-42" || p.Result != nil || !p.ExpiresAt.Equal(acc.ExpiresAt) {
			t.Fatalf("poll while waiting: %s", a.Body)
		}
		s.pollAnswer(acc.PollPath, acc.PollToken).WantError(t, http.StatusUnauthorized, "S2R-RUN-0401")
		s.pollAnswer("/publish/dev/calc/echo/async/order-42", p.PollToken).WantError(t, http.StatusNotFound, "S2R-RUN-0404")
		s.pollAnswer("/publish/dev/calc/add/async/unknown", p.PollToken).WantError(t, http.StatusNotFound, "S2R-RUN-0404")
		token := p.PollToken

		// SOAP 1.1 callback by RelatesTo with urn:uuid:, secret header.
		cb := callback11(relatesTo("urn:uuid:order-42"), addResponse("5"))
		s.callback("calc", "add", "text/xml", cb).WantError(t, http.StatusUnauthorized, "S2R-RUN-0401")
		a = s.callback("calc", "add", "text/xml", cb, "X-S2R-Callback-Secret", cbSecret).WantStatus(t, http.StatusOK)
		if string(a.Body) != `{"correlationId":"order-42","status":"completed"}` {
			t.Errorf("callback answer %s", a.Body)
		}
		s.callback("calc", "add", "text/xml", cb, "X-S2R-Callback-Secret", cbSecret).
			WantError(t, http.StatusConflict, "S2R-RUN-0431")
		a, p = s.poll(acc.PollPath, token)
		a.WantStatus(t, http.StatusOK)
		if p.Status != model.AsyncCompleted || string(p.Result) != `{"result":5}` || p.Fault != nil {
			t.Fatalf("poll after callback: %s", a.Body)
		}
		a, p2 := s.poll(acc.PollPath, p.PollToken)
		if a.WantStatus(t, http.StatusOK); string(p2.Result) != `{"result":5}` {
			t.Errorf("second completed poll: %s", a.Body)
		}

		// SOAP 1.2 callback by MessageID without urn:uuid:, bearer token;
		// an array of one item stays an array.
		acc2 := s.start("calc", "echo", `{"items":[{"sku":"A-1","qty":2,"price":9.50}]}`)
		cb12 := callback12(messageID(acc2.CorrelationID), `<c:EchoResponse xmlns:c="`+nsCalc+`"><c:items><c:sku>A-1</c:sku>`+
			`<c:qty>2</c:qty><c:price>9.50</c:price></c:items></c:EchoResponse>`)
		s.callback("calc", "echo", "application/soap+xml", cb12, "Authorization", "Bearer "+cbSecret).WantStatus(t, http.StatusOK)
		a, p = s.poll(acc2.PollPath, acc2.PollToken)
		if a.WantStatus(t, http.StatusOK); p.Status != model.AsyncCompleted ||
			string(p.Result) != `{"items":[{"sku":"A-1","qty":2,"price":9.50}]}` {
			t.Fatalf("SOAP 1.2 result: %s", a.Body)
		}

		// A fault callback fails the execution; safe mode shows the code.
		acc3 := s.start("calc", "add", `{"a": 1, "b": 1}`)
		a = s.callback("calc", "add", "text/xml", callback11(relatesTo(acc3.CorrelationID), fault11),
			"X-S2R-Callback-Secret", cbSecret).WantStatus(t, http.StatusOK)
		if !strings.Contains(string(a.Body), `"status":"failed"`) {
			t.Errorf("fault callback answer %s", a.Body)
		}
		a, p = s.poll(acc3.PollPath, acc3.PollToken)
		if a.WantStatus(t, http.StatusOK); p.Status != model.AsyncFailed || string(p.Fault) != `{"faultCode":"Sender"}` || p.Result != nil {
			t.Fatalf("fault poll: %s", a.Body)
		}
		if !strings.Contains(s.logs.String(), "refused: card declined") {
			t.Error("the full fault is not in the operator log")
		}

		// A stack that speaks the 2004/08 member submission of WS-Addressing
		// correlates the same way.
		acc4 := s.start("calc", "add", `{"a": 4, "b": 4}`)
		old := `<wsa:RelatesTo xmlns:wsa="http://schemas.xmlsoap.org/ws/2004/08/addressing">urn:uuid:` + acc4.CorrelationID + `</wsa:RelatesTo>`
		s.callback("calc", "add", "text/xml", callback11(old, addResponse("8")), "X-S2R-Callback-Secret", cbSecret).WantStatus(t, http.StatusOK)
		if a, p = s.poll(acc4.PollPath, acc4.PollToken); p.Status != model.AsyncCompleted || string(p.Result) != `{"result":8}` {
			t.Fatalf("2004/08 callback: %s", a.Body)
		}

		// The requests naming the execution are recorded under its id: the
		// publish 202, the polls at its path and the callbacks that passed
		// authentication (the refused one is recorded under its own id).
		want := map[string]int{"POST 202": 1, "GET 200": 3, "GET 401": 3, "POST 200": 1, "POST 409": 1}
		var got map[string]int
		var logs []model.TxLog
		poll.Until(t, 10*time.Second, "records of order-42", func() bool {
			logs = s.txLogs("order-42", 0)
			got = map[string]int{}
			for _, l := range logs {
				got[l.Method+" "+itoa(l.HTTPStatus)]++
			}
			for k, n := range want {
				if got[k] != n {
					return false
				}
			}
			return true
		})
		for _, l := range logs {
			if strings.HasPrefix(l.Path, "/_s2r/callback/") && (l.ServiceKey != "calc" || l.OperationKey != "add" || l.Direction != "publish") {
				t.Errorf("callback record %+v", l)
			}
		}
		if strings.Contains(s.logs.String(), cbSecret) {
			t.Error("the callback secret appears in the log")
		}
		stored := s.execution("order-42")
		if !stored.HasCallback || !strings.Contains(string(stored.Callback), "urn:uuid:order-42") {
			t.Errorf("stored callback %q", stored.Callback)
		}
	})
}

// TestAsyncBackendRefusal: a backend that refuses the request before
// acknowledging it fails the execution with the error recorded, and the
// client gets the usual error, not a 202.
func TestAsyncBackendRefusal(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s := newStack(t, st)
		be := newBackend(t)
		s.onboard("calc", be.srv.URL+"/calc", "", "add")
		s.start("calc", "add", `{"a":1,"b":2}`) // the route is served

		for _, tc := range []struct {
			name, id   string
			status     int
			ct, body   string
			wantStatus int
			code       string
			fault      string
		}{
			{"html 500", "r-1", 500, "text/html", "<html>down</html>", 502, "S2R-RUN-0502", ""},
			{"fault 500", "r-2", 500, "text/xml", callback11("", fault11), 502, "S2R-RUN-0502", `{"faultCode":"Sender"}`},
			{"fault in 200", "r-3", 200, "application/soap+xml", callback12("", fault12), 502, "S2R-RUN-0502", `{"faultCode":"Receiver"}`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				be.set(tc.status, tc.ct, tc.body)
				s.publish("calc", "add", `{"a":1,"b":2}`, "X-Correlation-Id", tc.id).WantError(t, tc.wantStatus, tc.code)
				e := s.execution(tc.id)
				if e.Status != model.AsyncFailed || string(e.Fault) != tc.fault {
					t.Errorf("execution %+v", e)
				}
				if tc.fault == "" {
					var ee struct{ Code string }
					if json.Unmarshal(e.Error, &ee) != nil || ee.Code != tc.code {
						t.Errorf("recorded error %s", e.Error)
					}
				}
			})
		}
		be.set(http.StatusOK, "text/xml", "")
		acc := s.start("calc", "add", `{"a":1,"b":2}`) // 200 with an empty body acknowledges
		be.set(http.StatusOK, "text/xml", callback11("", addResponse("3")))
		acc2 := s.start("calc", "add", `{"a":1,"b":2}`) // an answer in the acknowledgement is not the result
		for _, id := range []string{acc.CorrelationID, acc2.CorrelationID} {
			if e := s.execution(id); e.Status != model.AsyncWaiting {
				t.Errorf("acknowledged execution %s is %s", id, e.Status)
			}
		}
		be.srv.Close()
		s.publish("calc", "add", `{"a":1,"b":2}`, "X-Correlation-Id", "r-down").WantError(t, http.StatusBadGateway, "S2R-RUN-0502")
		if e := s.execution("r-down"); e.Status != model.AsyncFailed || e.Error == nil {
			t.Errorf("unreachable backend: %+v", e)
		}
	})
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
