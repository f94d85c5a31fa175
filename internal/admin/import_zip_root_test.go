package admin

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// zipOfFixture zips the files of internal/wsdl/testdata/rootzip/dir.
func zipOfFixture(t *testing.T, dir string) []byte {
	t.Helper()
	return zipOfDir(t, filepath.Join("..", "wsdl", "testdata", "rootzip", dir), "")
}

// TestZIPRootChosenAsAPersonWould: a ZIP of WSDLs at one level that import
// each other imports without rootPath, its root found by the imports (and
// recognised as a WSDL though saved as .xml); a genuine tie is refused
// naming the candidates.
func TestZIPRootChosenAsAPersonWould(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		for dir, root := range map[string]string{"crossimport": "Service.xml", "cycle": "Main.wsdl"} {
			r := api.upload("/admin/v1/wsdl/import:autopilot", formPart{"file", dir + ".zip", zipOfFixture(t, dir)},
				formPart{name: "environment", data: []byte("dev")}, formPart{name: "serviceKey", data: []byte(dir)})
			res := wantDraft(t, r, dir, "dev", 1)
			if res.Artifact.RootPath != root {
				t.Errorf("%s: root %q, want %q", dir, res.Artifact.RootPath, root)
			}
		}
		r := api.upload("/admin/v1/wsdl/import", formPart{"file", "tie.zip", zipOfFixture(t, "tie")})
		r.WantStatus(t, http.StatusBadRequest)
		e := r.ErrorOf(t).Error
		reason, _ := e.Details["reason"].(string)
		if e.Details["file"] != "tie.zip" || !strings.Contains(reason, `name the root with rootPath: "Alpha.wsdl", "Beta.wsdl"`) {
			t.Errorf("tie: %+v", e)
		}
		r = api.upload("/admin/v1/wsdl/import", formPart{"file", "tie.zip", zipOfFixture(t, "tie")},
			formPart{name: "rootPath", data: []byte("Beta.wsdl")})
		r.WantStatus(t, http.StatusCreated)
	})
}
