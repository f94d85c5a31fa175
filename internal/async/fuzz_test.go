package async

import (
	"context"
	"net/http"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// FuzzCallbackEndpoint posts untrusted bodies to the real callback
// endpoint (SQLite): never a 500, and an execution changes only when the
// answer is 200.
func FuzzCallbackEndpoint(f *testing.F) {
	for _, s := range []string{
		callback11(relatesTo("fz"), addResponse("5")),
		callback12(messageID("urn:uuid:fz"), addResponse("x")),
		callback11(relatesTo("fz"), fault11),
		callback11(relatesTo("other"), addResponse("5")),
		callback11("", addResponse("5")),
		`<a/>`, ``, `<!DOCTYPE x [<!ENTITY e "e">]><x>&e;</x>`,
	} {
		f.Add(s)
	}
	s := newStack(f, storetest.SQLite(f))
	be := newBackend(f)
	s.onboard("calc", be.srv.URL+"/calc", "", "add")
	s.start("calc", "add", `{"a":1,"b":2}`, "X-Correlation-Id", "fz")
	f.Fuzz(func(t *testing.T, body string) {
		before, err := s.st.AsyncExecution(context.Background(), "fz")
		if err != nil {
			t.Fatal(err)
		}
		a := s.c.For(t).Send("POST", "/_s2r/callback/dev/calc/add", "", "text/xml", []byte(body))
		if a.Status >= 500 {
			t.Fatalf("%d for %q: %s", a.Status, body, a.Body)
		}
		after, err := s.st.AsyncExecution(context.Background(), "fz")
		if err != nil {
			t.Fatal(err)
		}
		if a.Status != http.StatusOK && (after.Status != before.Status || !after.UpdatedAt.Equal(before.UpdatedAt)) {
			t.Fatalf("execution changed by a refused callback (%d %s)", a.Status, a.Body)
		}
		if after.Status != model.AsyncWaiting { // reopen for the next input
			s.c.For(t).Send("POST", "/admin/v1/async-executions/fz/reopen", "", "", nil,
				"X-Idp-Authenticated-User-Email", operatorEmail).WantStatus(t, http.StatusOK)
		}
	})
}
