package async

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// detailAnswer is a decoded executionDetail.
type detailAnswer struct {
	Execution        model.AsyncExecution
	Callback         *string
	Replayable       bool
	PayloadsWithheld bool
}

func decodeJSON[T any](t *testing.T, a answer) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(a.Body, &v); err != nil {
		t.Fatalf("%v: %s", err, a.Body)
	}
	return v
}

// TestAsyncAdmin exercises every admin route of DESIGN 9: list filters,
// detail with payloads for operators only, the previews (which change
// nothing), reprocess of a stored and of a provided callback, manual
// complete and fail, reopen, the state rules (422 S2R-OBS-0422), unknown
// ids (400 S2R-OBS-0400), and an audit event per action.
func TestAsyncAdmin(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s := newStack(t, st)
		be := newBackend(t)
		s.onboard("calc", be.srv.URL+"/calc", cbSecret, "add")
		auth := []string{"X-S2R-Callback-Secret", cbSecret}
		waiting := s.start("calc", "add", `{"a":1,"b":2}`, "X-Correlation-Id", "adm-waiting")
		s.start("calc", "add", `{"a":1,"b":2}`, "X-Correlation-Id", "adm-failed")
		security := `<wsse:Security xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd">` +
			`<wsse:UsernameToken><wsse:Password>hunter2</wsse:Password></wsse:UsernameToken></wsse:Security>`
		s.callback("calc", "add", "text/xml", callback11(security+relatesTo("adm-failed"), fault11), auth...).WantStatus(t, http.StatusOK)
		s.start("calc", "add", `{"a":1,"b":2}`, "X-Correlation-Id", "adm-done")
		s.callback("calc", "add", "text/xml", callback11(relatesTo("adm-done"), addResponse("3")), auth...).WantStatus(t, http.StatusOK)
		path := func(id, action string) string {
			p := "/async-executions/" + id
			if action != "" {
				p += "/" + action
			}
			return p
		}

		// List.
		list := func(query string) []string {
			a := s.admin("GET", "/async-executions"+query, readerEmail, nil).WantStatus(t, http.StatusOK)
			p := decodeJSON[model.ObservabilityPageRecord[model.AsyncExecution]](t, a)
			var ids []string
			for _, e := range p.Items {
				if e.Result != nil || e.Fault != nil {
					t.Errorf("list item with payloads: %s", a.Body)
				}
				ids = append(ids, e.CorrelationID)
			}
			return ids
		}
		if got := list(""); strings.Join(got, ",") != "adm-done,adm-failed,adm-waiting" {
			t.Errorf("list = %v", got)
		}
		if got := list("?status=failed,completed&serviceKey=calc&environment=dev&operationKey=add&window=1h"); strings.Join(got, ",") != "adm-done,adm-failed" {
			t.Errorf("filtered list = %v", got)
		}
		if got := list("?operationKey=echo"); len(got) != 0 {
			t.Errorf("other operation = %v", got)
		}
		if got := list("?pageSize=1&page=2"); strings.Join(got, ",") != "adm-failed" {
			t.Errorf("page 2 = %v", got)
		}
		s.admin("GET", "/async-executions?status=running", readerEmail, nil).WantError(t, 400, "S2R-VAL-0400")
		s.admin("GET", "/async-executions?window=2h", readerEmail, nil).WantError(t, 400, "S2R-VAL-0400")

		// Detail: payloads for operators, never the WS-Security header.
		d := decodeJSON[detailAnswer](t, s.admin("GET", path("adm-failed", ""), operatorEmail, nil).WantStatus(t, 200))
		if d.Execution.Status != model.AsyncFailed || string(d.Execution.Fault) != `{"faultCode":"Sender"}` || d.Callback == nil ||
			!strings.Contains(*d.Callback, "RelatesTo") || strings.Contains(*d.Callback, "hunter2") || !d.Replayable || d.PayloadsWithheld {
			t.Fatalf("operator detail %+v", d)
		}
		d = decodeJSON[detailAnswer](t, s.admin("GET", path("adm-done", ""), readerEmail, nil).WantStatus(t, 200))
		if d.Execution.Result != nil || d.Callback != nil || !d.PayloadsWithheld || d.Replayable {
			t.Errorf("reader detail %+v", d)
		}
		for _, action := range []string{"", "replay-preview"} {
			s.admin("GET", path("nope", action), readerEmail, nil).WantError(t, 400, "S2R-OBS-0400")
		}
		for _, action := range []string{"callback-preview", "reprocess", "complete", "fail", "reopen"} {
			s.admin("POST", path("nope", action), operatorEmail, nil).WantError(t, 400, "S2R-OBS-0400")
		}

		// Previews change nothing.
		type previewAnswer struct {
			Status, RelatesTo string
			Matches           bool
			Outcome           *struct {
				Status        string
				Result, Fault json.RawMessage
				Error         json.RawMessage
			}
			PayloadsWithheld bool
		}
		p := decodeJSON[previewAnswer](t, s.admin("GET", path("adm-failed", "replay-preview"), operatorEmail, nil).WantStatus(t, 200))
		if p.Outcome == nil || p.Outcome.Status != model.AsyncFailed || string(p.Outcome.Fault) != `{"faultCode":"Sender"}` || !p.Matches {
			t.Errorf("replay preview %+v", p)
		}
		p = decodeJSON[previewAnswer](t, s.admin("GET", path("adm-waiting", "replay-preview"), readerEmail, nil).WantStatus(t, 200))
		if p.Outcome != nil || p.Status != model.AsyncWaiting {
			t.Errorf("replay preview without callback %+v", p)
		}
		good := callback11(relatesTo("urn:uuid:adm-waiting"), addResponse("7"))
		a := s.do("POST", "/admin/v1"+path("adm-waiting", "callback-preview"), "application/xml", []byte(good),
			"X-Idp-Authenticated-User-Email", operatorEmail).WantStatus(t, 200)
		p = decodeJSON[previewAnswer](t, a)
		if p.Outcome == nil || p.Outcome.Status != model.AsyncCompleted || string(p.Outcome.Result) != `{"result":7}` || !p.Matches {
			t.Errorf("callback preview %s", a.Body)
		}
		a = s.do("POST", "/admin/v1"+path("adm-waiting", "callback-preview"), "text/plain",
			[]byte(callback11(relatesTo("adm-done"), addResponse("7"))), "X-Idp-Authenticated-User-Email", operatorEmail).WantStatus(t, 200)
		if p = decodeJSON[previewAnswer](t, a); p.Matches {
			t.Errorf("preview of another execution's callback matches: %s", a.Body)
		}
		s.do("POST", "/admin/v1"+path("adm-waiting", "callback-preview"), "text/plain", []byte("<x"),
			"X-Idp-Authenticated-User-Email", operatorEmail).WantError(t, 400, "S2R-VAL-0400")
		s.do("POST", "/admin/v1"+path("adm-waiting", "callback-preview"), "image/png", []byte(good),
			"X-Idp-Authenticated-User-Email", operatorEmail).WantError(t, 415, "S2R-VAL-0415")
		if e := s.execution("adm-waiting"); e.Status != model.AsyncWaiting || e.HasCallback {
			t.Fatalf("preview changed the execution: %+v", e)
		}

		// State rules.
		s.admin("POST", path("adm-done", "reprocess"), operatorEmail, nil).WantError(t, 422, "S2R-OBS-0422")
		s.admin("POST", path("adm-done", "complete"), operatorEmail, map[string]any{"x": 1}).WantError(t, 422, "S2R-OBS-0422")
		s.admin("POST", path("adm-done", "fail"), operatorEmail, "why").WantError(t, 422, "S2R-OBS-0422")
		s.admin("POST", path("adm-waiting", "reopen"), operatorEmail, nil).WantError(t, 422, "S2R-OBS-0422")
		s.admin("POST", path("adm-waiting", "reprocess"), operatorEmail, nil).WantError(t, 422, "S2R-OBS-0422") // nothing stored
		s.do("POST", "/admin/v1"+path("adm-waiting", "reprocess"), "application/xml", []byte(callback11(relatesTo("adm-done"), addResponse("1"))),
			"X-Idp-Authenticated-User-Email", operatorEmail).WantError(t, 400, "S2R-VAL-0400")

		// Reprocess the failed execution with a provided callback.
		a = s.do("POST", "/admin/v1"+path("adm-failed", "reprocess"), "application/xml",
			[]byte(callback11(security+relatesTo("adm-failed"), addResponse("11"))), "X-Idp-Authenticated-User-Email", operatorEmail).WantStatus(t, 200)
		d = decodeJSON[detailAnswer](t, a)
		if d.Execution.Status != model.AsyncCompleted || string(d.Execution.Result) != `{"result":11}` || d.Execution.Fault != nil ||
			strings.Contains(string(a.Body), "hunter2") {
			t.Errorf("reprocess: %s", a.Body)
		}
		// Reopen it, then reprocess the stored callback.
		d = decodeJSON[detailAnswer](t, s.admin("POST", path("adm-failed", "reopen"), operatorEmail, nil).WantStatus(t, 200))
		if d.Execution.Status != model.AsyncWaiting || d.Execution.Result != nil || !d.Execution.HasCallback ||
			!d.Execution.ExpiresAt.After(s.clock.now().Add(23*60*60*1e9)) {
			t.Errorf("reopen: %+v", d.Execution)
		}
		d = decodeJSON[detailAnswer](t, s.admin("POST", path("adm-failed", "reprocess"), operatorEmail, nil).WantStatus(t, 200))
		if string(d.Execution.Result) != `{"result":11}` {
			t.Errorf("reprocess of the stored callback: %+v", d.Execution)
		}

		// Manual complete (a JSON string holding JSON is unwrapped) and fail.
		s.admin("POST", path("adm-waiting", "complete"), operatorEmail, nil).WantError(t, 400, "S2R-VAL-0400")
		d = decodeJSON[detailAnswer](t, s.admin("POST", path("adm-waiting", "complete"), operatorEmail, `{"result": 99}`).WantStatus(t, 200))
		if d.Execution.Status != model.AsyncCompleted || string(d.Execution.Result) != `{"result":99}` {
			t.Errorf("complete: %+v", d.Execution)
		}
		_, pa := s.poll(waiting.PollPath, waiting.PollToken)
		if string(pa.Result) != `{"result":99}` {
			t.Errorf("poll after manual complete: %+v", pa)
		}
		s.admin("POST", path("adm-waiting", "reopen"), operatorEmail, nil).WantStatus(t, 200)
		a = s.do("POST", "/admin/v1"+path("adm-waiting", "fail"), "text/plain", []byte("the partner cancelled"),
			"X-Idp-Authenticated-User-Email", operatorEmail).WantStatus(t, 200)
		d = decodeJSON[detailAnswer](t, a)
		if d.Execution.Status != model.AsyncFailed ||
			string(d.Execution.Error) != `{"code":"S2R-RUN-0502","message":"the partner cancelled","details":{"manual":true}}` {
			t.Errorf("fail: %s", a.Body)
		}
		s.admin("POST", path("adm-waiting", "fail"), operatorEmail, "  ").WantError(t, 400, "S2R-VAL-0400")
		s.admin("POST", path("adm-waiting", "fail"), operatorEmail, map[string]any{"reason": 1}).WantError(t, 400, "S2R-VAL-0400")
		d = decodeJSON[detailAnswer](t, s.admin("POST", path("adm-waiting", "fail"), operatorEmail, "a JSON reason").WantStatus(t, 200))
		if !strings.Contains(string(d.Execution.Error), `"message":"a JSON reason"`) {
			t.Errorf("fail with a JSON string: %s", d.Execution.Error)
		}

		// Audit: one success event per action, failures recorded, no secrets.
		page, err := st.AuditEvents(context.Background(), model.AuditFilter{EntityType: "async_execution",
			Page: model.PageRequest{Page: 1, PageSize: 200}})
		if err != nil {
			t.Fatal(err)
		}
		counts := map[string]int{}
		for _, e := range page.Items {
			counts[e.ActionType+" "+e.Result]++
			for _, text := range []string{e.Message, string(e.BeforeState), string(e.AfterState)} {
				if strings.Contains(text, "hunter2") || strings.Contains(text, cbSecret) || strings.Contains(text, `"result":`) {
					t.Errorf("audit event carries a payload or secret: %s", text)
				}
			}
			if e.Result == model.AuditSuccess && (e.BeforeState == nil || e.AfterState == nil || e.ActorEmail != operatorEmail) {
				t.Errorf("audit event %+v", e)
			}
		}
		for k, n := range map[string]int{"async.reprocess success": 2, "async.complete success": 1, "async.fail success": 2,
			"async.reopen success": 2, "async.reprocess failure": 4, "async.reopen failure": 2} {
			if counts[k] != n {
				t.Errorf("audit counts %v: want %s = %d", counts, k, n)
				break
			}
		}
	})
}
