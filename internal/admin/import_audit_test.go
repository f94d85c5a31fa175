package admin

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
)

// TestImportAndAutopilotAreAudited checks that imports and autopilot
// record their audit events under the request's correlation id and bump
// the configuration revision.
func TestImportAndAutopilotAreAudited(t *testing.T) {
	wsdlText := string(wsdlcorpus.Read(t, countryInfoWSDL))
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		api := newTestAPI(t, st)
		rev0, _ := st.Revision(ctx)

		r := api.Do("POST", "/admin/v1/wsdl/import-xml", operatorEmail, xmlBody(t, wsdlText, nil, nil))
		r.WantStatus(t, http.StatusCreated)
		var v artifactView
		r.Decode(t, &v)
		rev1, _ := st.Revision(ctx)
		if rev1 <= rev0 {
			t.Errorf("import did not bump the revision (%d → %d)", rev0, rev1)
		}
		events := auditActions(t, st, model.AuditFilter{EntityID: v.ArtifactID})
		if !slices.Equal(events, []string{"wsdl.import"}) {
			t.Errorf("import events %v", events)
		}

		r = api.Do("POST", "/admin/v1/wsdl/import-xml:autopilot", operatorEmail, xmlBody(t, wsdlText, nil, map[string]any{"environment": "dev"}))
		r.WantStatus(t, http.StatusCreated)
		if rev2, _ := st.Revision(ctx); rev2 <= rev1 {
			t.Errorf("autopilot did not bump the revision (%d → %d)", rev1, rev2)
		}
		got := auditActions(t, st, model.AuditFilter{CorrelationID: r.Header.Get("X-Correlation-Id")})
		slices.Sort(got)
		want := []string{"backend_profile.create", "service.create", "version.create", "wsdl.import"}
		if !slices.Equal(got, want) {
			t.Errorf("autopilot events %v, want %v", got, want)
		}
	})
}

func auditActions(t *testing.T, st *store.Store, f model.AuditFilter) []string {
	t.Helper()
	f.Page = model.PageRequest{Page: 1, PageSize: 50}
	page, err := st.AuditEvents(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range page.Items {
		if e.Result == model.AuditSuccess {
			out = append(out, e.ActionType)
		}
	}
	return out
}
