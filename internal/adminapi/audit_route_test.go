package adminapi

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestAuditedRecordsFailuresOnce: a route's Audit is recorded once per
// failed call, with the entity id fixed or taken from the path parameter
// it names; a successful call and a route without Audit record nothing.
func TestAuditedRecordsFailuresOnce(t *testing.T) {
	st := storetest.SQLite(t)
	fail := func(http.ResponseWriter, *http.Request) error {
		return apierr.New(apierr.AdmNotFound, "thing not found")
	}
	ok := func(http.ResponseWriter, *http.Request) error { return nil }
	mux := http.NewServeMux()
	for pattern, h := range map[string]apierr.AdminHandlerFunc{
		"DELETE /things/{thingId}": Audited(st, slog.Default(), OnFailure("thing.delete", "thing", "{thingId}"), fail),
		"POST /things":             Audited(st, slog.Default(), OnFailure("thing.create", "thing", ""), fail),
		"PUT /things":              Audited(st, slog.Default(), OnFailure("thing.replace", "things", "things"), ok),
		"PATCH /things":            Audited(st, slog.Default(), nil, fail),
	} {
		mux.Handle(pattern, h)
	}
	for _, c := range []struct{ method, path string }{
		{"DELETE", "/things/t1"}, {"POST", "/things"}, {"PUT", "/things"}, {"PATCH", "/things"},
	} {
		mux.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(c.method, c.path, nil))
	}
	page, err := st.AuditEvents(context.Background(), model.AuditFilter{Page: model.PageRequest{Page: 1, PageSize: 50}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]model.AuditEvent{}
	for _, e := range page.Items {
		got[e.ActionType] = e
	}
	if len(page.Items) != 2 || len(got) != 2 {
		t.Fatalf("%d events %v, want thing.delete and thing.create once each", len(page.Items), got)
	}
	for action, id := range map[string]string{"thing.delete": "t1", "thing.create": ""} {
		e := got[action]
		if e.EntityType != "thing" || e.EntityID != id || e.Result != model.AuditFailure || e.Message != "refused: thing not found" {
			t.Errorf("%s: event %+v", action, e)
		}
	}
}

// TestAuditedNilIsTheHandler: a route without Audit runs its handler as is.
func TestAuditedNilIsTheHandler(t *testing.T) {
	want := errors.New("x")
	h := Audited(nil, nil, nil, func(http.ResponseWriter, *http.Request) error { return want })
	if err := h(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil)); err != want {
		t.Fatalf("err = %v", err)
	}
}
