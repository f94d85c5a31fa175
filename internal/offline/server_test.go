package offline_test

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/admin"
	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// server is the admin API on a real SQLite store, as the offline
// commands' answers are compared with it.
type server struct {
	*admintest.Client
	t *testing.T
}

func newServer(t *testing.T) *server {
	t.Helper()
	st := storetest.SQLite(t)
	h := admin.New(admin.Config{Store: st, Secrets: admintest.Box(t), BootstrapAdmins: []string{admintest.RootEmail}, Version: "test"})
	admintest.Bind(t, st, admintest.Staff()...)
	return &server{Client: admintest.Serve(t, h), t: t}
}

// onboarded is what the comparisons need of an autopilot answer.
type onboarded struct {
	Services []struct {
		Service struct {
			ServiceID  string `json:"serviceId"`
			ServiceKey string `json:"serviceKey"`
		} `json:"service"`
		Version struct {
			VersionID string `json:"versionId"`
		} `json:"version"`
	} `json:"services"`
}

// autopilot runs import-xml:autopilot; ok is false when the server refuses
// the import with 400 (the WSDL does not import as it stands).
func (s *server) autopilot(body map[string]any) (onboarded, bool) {
	s.t.Helper()
	r := s.DoJSON("POST", admin.Prefix+"/wsdl/import-xml:autopilot", admintest.OperatorEmail, body)
	var res onboarded
	if r.Status == http.StatusBadRequest {
		return res, false
	}
	r.WantStatus(s.t, http.StatusCreated).Decode(s.t, &res)
	return res, true
}

// document answers the OpenAPI document of the i-th service of res; a
// failure fails t.
func (s *server) document(t *testing.T, res onboarded, i int) []byte {
	t.Helper()
	sv := res.Services[i]
	path := admin.Prefix + "/services/" + sv.Service.ServiceID + "/versions/" + sv.Version.VersionID + "/openapi"
	return s.For(t).Do("GET", path, admintest.ReaderEmail, "").WantStatus(t, http.StatusOK).Body
}

// sameDocument compares the offline document with the server's, less the
// stored ids the offline one cannot have.
func sameDocument(t *testing.T, offline, served []byte) {
	t.Helper()
	var got, want map[string]any
	if err := json.Unmarshal(offline, &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(served, &want); err != nil {
		t.Fatal(err)
	}
	info, _ := want["info"].(map[string]any)
	if info["x-s2r-service-id"] == nil || info["x-s2r-version-id"] == nil {
		t.Errorf("served document has no stored ids: %v", info)
	}
	delete(info, "x-s2r-service-id")
	delete(info, "x-s2r-version-id")
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("offline document differs from the server's (-server +offline):\n%s", d)
	}
}

// upload runs import:autopilot with file as the multipart upload and
// fields as the other parts.
func (s *server) upload(name string, file []byte, fields map[string]string) onboarded {
	s.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		if err := mw.WriteField(k, v); err != nil {
			s.t.Fatal(err)
		}
	}
	fw, err := mw.CreateFormFile("file", name)
	if err != nil {
		s.t.Fatal(err)
	}
	fw.Write(file)
	if err := mw.Close(); err != nil {
		s.t.Fatal(err)
	}
	var res onboarded
	s.Send("POST", admin.Prefix+"/wsdl/import:autopilot", admintest.OperatorEmail, mw.FormDataContentType(), buf.Bytes()).
		WantStatus(s.t, http.StatusCreated).Decode(s.t, &res)
	return res
}
