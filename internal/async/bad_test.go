package async

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// TestAsyncBadCallbacks: each bad callback gets a clear error with the
// spec's code, never a 500; the execution stays as it was (nothing is
// stored but the transaction record).
func TestAsyncBadCallbacks(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s := newStack(t, st)
		be := newBackend(t)
		s.onboard("calc", be.srv.URL+"/calc", cbSecret, "add")
		acc := s.start("calc", "add", `{"a":1,"b":2}`, "X-Correlation-Id", "bad-1")
		good := callback11(relatesTo("bad-1"), addResponse("3"))
		auth := []string{"X-S2R-Callback-Secret", cbSecret}
		huge := callback11(relatesTo("bad-1"), "<!--"+strings.Repeat("x", 1<<20)+"-->"+addResponse("3"))

		for _, tc := range []struct {
			name, path, method, body string
			hdr                      []string
			status                   int
			code                     string
		}{
			{"malformed XML", "add", "POST", `<soap:Envelope xmlns:soap="` + ns11 + `"><soap:Body><x></soap:Body>`, auth, 400, "S2R-VAL-0400"},
			{"not an envelope", "add", "POST", `<a>b</a>`, auth, 400, "S2R-VAL-0400"},
			{"not XML", "add", "POST", `{"result":3}`, auth, 400, "S2R-VAL-0400"},
			{"empty", "add", "POST", ``, auth, 400, "S2R-VAL-0400"},
			{"entity bomb", "add", "POST", `<!DOCTYPE x [<!ENTITY a "aaaa">]>` + good, auth, 400, "S2R-VAL-0400"},
			{"no correlation header", "add", "POST", callback11("", addResponse("3")), auth, 400, "S2R-VAL-0400"},
			{"unknown id", "add", "POST", callback11(relatesTo("urn:uuid:nobody"), addResponse("3")), auth, 404, "S2R-RUN-0404"},
			{"id with bad characters", "add", "POST", callback11(relatesTo("a/b"), addResponse("3")), auth, 404, "S2R-RUN-0404"},
			{"other operation", "echo", "POST", good, auth, 404, "S2R-RUN-0404"},
			{"unknown operation", "nope", "POST", good, auth, 404, "S2R-RUN-0404"},
			{"wrong secret", "add", "POST", good, []string{"X-S2R-Callback-Secret", cbSecret + "x"}, 401, "S2R-RUN-0401"},
			{"wrong bearer", "add", "POST", good, []string{"Authorization", "Bearer nope"}, 401, "S2R-RUN-0401"},
			{"basic auth", "add", "POST", good, []string{"Authorization", "Basic " + cbSecret}, 401, "S2R-RUN-0401"},
			{"no secret", "add", "POST", good, nil, 401, "S2R-RUN-0401"},
			{"huge body", "add", "POST", huge, auth, 413, "S2R-RUN-0413"},
			{"GET", "add", "GET", "", auth, 405, "S2R-RUN-0411"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var body []byte
				if tc.body != "" || tc.method == "POST" {
					body = []byte(tc.body)
				}
				a := s.do(tc.method, "/_s2r/callback/dev/calc/"+tc.path, "text/xml", body, tc.hdr...)
				a.WantError(t, tc.status, tc.code)
				if e := s.execution("bad-1"); e.Status != model.AsyncWaiting || e.HasCallback || e.UpdatedAt != e.CreatedAt {
					t.Fatalf("execution changed: %+v", e)
				}
			})
		}
		for _, path := range []string{"/_s2r/callback/dev/calc", "/_s2r/callback/dev/calc/add/x", "/_s2r/callback/", "/_s2r/callback/dev/nosvc/add"} {
			s.do("POST", path, "text/xml", []byte(good), auth...).WantError(t, http.StatusNotFound, "S2R-RUN-0404")
		}
		// The refused callbacks were recorded, under their own correlation
		// ids (before the execution was known) or the execution's.
		poll.Until(t, 10*time.Second, "records of refused callbacks", func() bool {
			p, err := st.TxLogs(context.Background(), model.TxLogFilter{ServiceKey: "calc", OperationKey: "add",
				Since: time.Now().Add(-time.Hour)}, model.PageRequest{Page: 1, PageSize: 200})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, l := range p.Items {
				if strings.HasPrefix(l.Path, "/_s2r/callback/") && l.HTTPStatus >= 400 && l.HTTPStatus < 500 && l.ResultCode == "failed" {
					n++
				}
			}
			return n >= 14
		})
		// The execution still completes with a good callback.
		s.callback("calc", "add", "text/xml", good, auth...).WantStatus(t, http.StatusOK)
		if _, p := s.poll(acc.PollPath, acc.PollToken); string(p.Result) != `{"result":3}` {
			t.Errorf("result after bad callbacks: %+v", p)
		}
	})
}

// TestAsyncCorrelationHeader: an X-Correlation-Id that cannot name an
// async execution is 400 S2R-VAL-0400, and nothing is stored or sent.
func TestAsyncCorrelationHeader(t *testing.T) {
	s := newStack(t, storetest.SQLite(t))
	be := newBackend(t)
	s.onboard("calc", be.srv.URL+"/calc", "", "add")
	s.start("calc", "add", `{"a":1,"b":2}`, "X-Correlation-Id", "taken")
	sent := be.count()
	for _, id := range []string{"has space", "slash/inside", "question?", strings.Repeat("x", 129), "taken", "ümlaut"} {
		a := s.publish("calc", "add", `{"a":1,"b":2}`, "X-Correlation-Id", id)
		a.WantError(t, http.StatusBadRequest, "S2R-VAL-0400")
	}
	if be.count() != sent {
		t.Errorf("the backend was called for refused requests")
	}
	p, err := s.st.AsyncExecutions(context.Background(), model.AsyncFilter{}, model.PageRequest{Page: 1, PageSize: 10})
	if err != nil || p.TotalItems != 1 {
		t.Errorf("executions: %+v, %v", p, err)
	}
	// A sync operation keeps accepting any usable correlation id.
	be.set(http.StatusOK, "text/xml", callback11("", `<c:LookupResponse xmlns:c="`+nsCalc+`"><c:id>1</c:id><c:name>n</c:name><c:total>1</c:total></c:LookupResponse>`))
	s.publish("calc", "lookup", `{"code":"x"}`, "X-Correlation-Id", "slash/inside").WantStatus(t, http.StatusOK)
	// Validation failures come before the execution is created.
	s.publish("calc", "add", `{"a":"x"}`, "X-Correlation-Id", "invalid-body").WantError(t, http.StatusBadRequest, "S2R-VAL-0410")
	if _, err := s.st.AsyncExecution(context.Background(), "invalid-body"); err == nil {
		t.Error("an execution was stored for an invalid request")
	}
}
