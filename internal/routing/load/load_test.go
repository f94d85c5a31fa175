package load

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin"
	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

const adminEmail = admintest.RootEmail

// adminClient calls the admin API as the bootstrap admin.
type adminClient struct {
	t testing.TB
	c *admintest.Client
}

// newAdminClient serves the real admin handler for st, with box and
// adminEmail as its bootstrap admin, until the end of the test.
func newAdminClient(t testing.TB, st *store.Store, box *secret.Box) adminClient {
	h := admin.New(admin.Config{Store: st, Secrets: box, Logger: slog.New(slog.DiscardHandler),
		BootstrapAdmins: []string{adminEmail}, Version: "test"})
	return adminClient{t: t, c: admintest.Serve(t, h)}
}

// do sends body (JSON, none when "") to path under /admin/v1, checks the
// status and decodes the answer into out (when not nil).
func (a adminClient) do(method, path, body string, want int, out any) {
	a.t.Helper()
	r := a.c.Do(method, "/admin/v1"+path, adminEmail, body).WantStatus(a.t, want)
	if out != nil {
		r.Decode(a.t, out)
	}
}

type imported struct {
	Service struct {
		ServiceID string `json:"serviceId"`
	} `json:"service"`
	Version struct {
		VersionID string `json:"versionId"`
	} `json:"version"`
}

// importActive autopilot-imports the calc WSDL as key and activates it.
func (a adminClient) importActive(wsdlText []byte, key string) imported {
	var imp imported
	body, _ := json.Marshal(map[string]any{"xml": string(wsdlText), "environment": "dev", "serviceKey": key})
	a.do("POST", "/wsdl/import-xml:autopilot", string(body), http.StatusCreated, &imp)
	a.do("POST", "/services/"+imp.Service.ServiceID+"/versions/"+imp.Version.VersionID+":activate", "", http.StatusOK, nil)
	return imp
}

// TestLoadExcludesBrokenService: a service whose configuration no longer
// compiles is left out of the table (and listed in Errors) while the
// others are served; the reloader keeps serving through the change.
func TestLoadExcludesBrokenService(t *testing.T) {
	wsdlText, err := os.ReadFile("../../dataplane/testdata/calc.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		box := admintest.Box(t)
		a := newAdminClient(t, st, box)
		a.importActive(wsdlText, "calc")
		broken := a.importActive(wsdlText, "calc2")

		ctx := context.Background()
		cfg := Config{Store: st, Secrets: box, Logger: slog.New(slog.DiscardHandler)}
		r := NewReloader(cfg, 50*time.Millisecond)
		if err := r.Reload(ctx); err != nil {
			t.Fatal(err)
		}
		tbl := r.Table()
		for _, key := range []string{"calc", "calc2"} {
			s := tbl.Lookup("publish", "dev", key)
			if s == nil || s.Operation("add") == nil || s.Operation("add").Request == nil || s.DefaultBackend == nil {
				t.Fatalf("%s not compiled: %+v", key, s)
			}
		}
		calcAdd := tbl.Lookup("publish", "dev", "calc").Operation("add")
		runCtx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- r.Run(runCtx) }()
		defer func() { cancel(); <-done }()

		// Give an operation of calc2 a pattern that does not compile,
		// straight in the store (the admin API refuses it).
		err = st.Transact(ctx, func(tx *store.Tx) error {
			ops, err := tx.Operations(ctx, broken.Version.VersionID)
			if err != nil {
				return err
			}
			op := ops[0]
			op.ValidationRules = []model.ValidationRule{{Field: "/a", Pattern: "(Missing", Target: model.TargetRequest}}
			if err := tx.UpdateOperation(ctx, op); err != nil {
				return err
			}
			_, err = tx.BumpRevision(ctx)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(2 * time.Second)
		for r.Table().Revision() == tbl.Revision() && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		tbl = r.Table()
		if tbl.Revision() == -1 || tbl.Lookup("publish", "dev", "calc") == nil {
			t.Fatalf("calc not served after the change (revision %d)", tbl.Revision())
		}
		if tbl.Lookup("publish", "dev", "calc2") != nil {
			t.Error("broken calc2 still served")
		}
		if got := tbl.Lookup("publish", "dev", "calc").Operation("add"); got != calcAdd {
			t.Error("the unchanged operation of calc was compiled again instead of reused")
		}
		if errs := tbl.Errors(); len(errs) != 1 || errs[0].ServiceID != broken.Service.ServiceID ||
			!strings.Contains(errs[0].Err.Error(), "Missing") {
			t.Errorf("errors = %+v", errs)
		}
	})
}
