package dataplane

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/httpx"
)

// fuzzPublish serves one request through the dispatcher in process and
// checks that a bad input never becomes a 500 and is always recorded.
func fuzzPublish(t *testing.T, env *publishEnv, h http.Handler, path, body string) {
	req := httptest.NewRequest("POST", path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Correlation-Id", "fuzz")
	w := httptest.NewRecorder()
	before := len(env.log.byCID("fuzz"))
	h.ServeHTTP(w, req)
	if w.Code == 500 {
		t.Fatalf("500 for %q: %s", body, w.Body)
	}
	if got := len(env.log.byCID("fuzz")); got != before+1 {
		t.Fatalf("%d records for one request", got-before)
	}
}

func FuzzPublishRequest(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":2}`, `{"a":"x"}`, `[]`, `{"a":1e400,"b":-0}`, `{"a":1,"b":2,"a":3}`, "{\"a\":\"\x00\"}", `nul`} {
		f.Add(s)
	}
	env := newPublishEnv(f, nil)
	env.backend.set(answer(200, "text/xml", envelope11(addOK)))
	h := httpx.Correlation(env.srv.Config.Handler)
	f.Fuzz(func(t *testing.T, body string) {
		fuzzPublish(t, env, h, "/publish/dev/calc/add", body)
	})
}

func FuzzPublishResponse(f *testing.F) {
	for _, s := range []string{envelope11(addOK), envelope11(`<soap:Fault><faultcode>x:y</faultcode><faultstring/></soap:Fault>`),
		"<html>", envelope11(`<AddResponse xmlns="http://example.com/calc"><result>1e3</result></AddResponse>`), ""} {
		f.Add(s)
	}
	env := newPublishEnv(f, nil)
	h := httpx.Correlation(env.srv.Config.Handler)
	f.Fuzz(func(t *testing.T, answerBody string) {
		env.backend.set(answer(200, "text/xml", answerBody))
		fuzzPublish(t, env, h, "/publish/dev/calc/add", `{"a":1,"b":2}`)
	})
}
