package offline_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/admin"
	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/offline"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
)

// driftCases are the written pairs of testdata/drift: the same contract
// laid out differently, an additive change, a breaking change.
var driftCases = []struct {
	name, old, new, status string
}{
	{"same contract", "calc-v1.wsdl", "calc-v1-reformatted.wsdl", catalog.UpToDate},
	{"additive", "calc-v1.wsdl", "calc-additive.wsdl", catalog.DriftDetected},
	{"breaking", "calc-v1.wsdl", "calc-breaking.wsdl", catalog.BreakingDrift},
}

func readDriftFile(t *testing.T, name string) offline.File {
	t.Helper()
	f, err := offline.ReadFile(filepath.Join("testdata", "drift", name), offline.Sources{})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestDriftMatchesServer classifies each pair offline and through the
// admin API (autopilot of OLD, import of NEW attached to the service,
// GET …/wsdl-drift of OLD's version): status and changes must be equal.
func TestDriftMatchesServer(t *testing.T) {
	srv := newServer(t)
	for i, tc := range driftCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := offline.Drift(context.Background(), readDriftFile(t, tc.old), readDriftFile(t, tc.new))
			if err != nil {
				t.Fatal(offline.Describe(err))
			}
			if got.Status != tc.status {
				t.Errorf("status %s, want %s: %+v", got.Status, tc.status, got.Changes)
			}
			res, ok := srv.autopilot(map[string]any{"xml": readText(t, tc.old), "environment": fmt.Sprintf("drift-%d", i)})
			if !ok {
				t.Fatal("the server refused OLD")
			}
			// NEW joins the service's WSDL lineage (DESIGN 10.4): imported,
			// then attached to the service as a version of its own.
			var art struct {
				ArtifactID string `json:"artifactId"`
			}
			srv.For(t).DoJSON("POST", admin.Prefix+"/wsdl/import-xml", admintest.OperatorEmail,
				map[string]any{"xml": readText(t, tc.new)}).WantStatus(t, http.StatusCreated).Decode(t, &art)
			sv := res.Services[0]
			// A service takes one draft at a time: OLD's goes live first.
			srv.For(t).Do("POST", admin.Prefix+"/services/"+sv.Service.ServiceID+"/versions/"+sv.Version.VersionID+":activate",
				admintest.OperatorEmail, "").WantStatus(t, http.StatusOK)
			srv.For(t).DoJSON("POST", admin.Prefix+"/services/"+sv.Service.ServiceID+"/versions", admintest.OperatorEmail,
				map[string]any{"artifactId": art.ArtifactID}).WantStatus(t, http.StatusCreated)
			var want catalog.DriftReport
			srv.For(t).Do("GET", admin.Prefix+"/services/"+sv.Service.ServiceID+"/versions/"+sv.Version.VersionID+"/wsdl-drift",
				admintest.ReaderEmail, "").WantStatus(t, http.StatusOK).Decode(t, &want)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("offline report differs from the server's (-server +offline):\n%s", d)
			}
		})
	}
}

func readText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "drift", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDriftCorpusAgainstItself: every corpus WSDL that imports is up to
// date against itself.
func TestDriftCorpusAgainstItself(t *testing.T) {
	n := 0
	for _, rel := range wsdlcorpus.WSDLs(t) {
		f, err := offline.ReadFile(wsdlcorpus.Path(t, rel), offline.Sources{})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := offline.Drift(context.Background(), f, f)
		if err != nil {
			continue // does not import: TestOpenAPIMatchesServer covers why
		}
		n++
		if rep.Status != catalog.UpToDate || len(rep.Changes) != 0 {
			t.Errorf("%s against itself: %+v", rel, rep)
		}
	}
	if n < 10 {
		t.Errorf("only %d corpus WSDLs compared with themselves", n)
	}
}

// TestDriftUnreadable: a file that does not import is an error naming it.
func TestDriftUnreadable(t *testing.T) {
	bad := offline.File{Name: "bad.wsdl", Data: []byte("<definitions")}
	_, err := offline.Drift(context.Background(), bad, readDriftFile(t, "calc-v1.wsdl"))
	if err == nil {
		t.Fatal("no error")
	}
	if msg := offline.Describe(err); msg == "" {
		t.Error("empty description")
	}
}
