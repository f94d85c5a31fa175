package bundle_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/s2r-project/s2r/internal/admin"
	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/admin/bundle"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// The secrets the test sets; none may appear in an export.
const (
	backendPassword = "backend-pa55word-never-exported"
	callbackSecret  = "callback-secret-never-exported"
	inboundPassword = "inbound-pa55word-never-exported"
)

// fixture is an admin API with two services: calc in dev (active, a basic
// auth backend with a password, consumer grants, a callback secret) and
// calc in prod (a draft only).
type fixture struct {
	*admintest.Client
	t *testing.T
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	st := storetest.SQLite(t)
	h := admin.New(admin.Config{Store: st, Secrets: admintest.Box(t), BootstrapAdmins: []string{admintest.RootEmail}, Version: "test"})
	admintest.Bind(t, st, admintest.Staff()...)
	f := fixture{Client: admintest.Serve(t, h), t: t}
	wsdl, err := os.ReadFile(filepath.Join("testdata", "calc.wsdl"))
	if err != nil {
		t.Fatal(err)
	}
	var dev struct {
		Service        struct{ ServiceID string }
		Version        struct{ VersionID string }
		BackendProfile struct{ ProfileID string }
	}
	f.op("POST", "/wsdl/import-xml:autopilot", map[string]any{"xml": string(wsdl), "environment": "dev", "serviceKey": "calc"},
		http.StatusCreated).Decode(t, &dev)
	svc := "/services/" + dev.Service.ServiceID
	f.op("POST", svc+"/versions/"+dev.Version.VersionID+":activate", nil, http.StatusOK)
	f.op("PATCH", "/backend-profiles/"+dev.BackendProfile.ProfileID, map[string]any{"authType": "basic", "username": "svc",
		"credentials": map[string]any{"password": backendPassword}}, http.StatusOK)
	f.op("PUT", svc+"/consumer-grants", map[string]any{"cidrs": []string{"10.0.0.0/8"}}, http.StatusOK)
	f.op("PATCH", svc, map[string]any{"callbackAuthMode": "shared_secret", "callbackSecret": callbackSecret}, http.StatusOK)
	f.op("PUT", svc+"/inbound-ws-security", map[string]any{"mode": "off", "maxClockSkewSeconds": 120,
		"usernameTokens": []map[string]any{{"username": "partner-a", "password": inboundPassword}}}, http.StatusOK)
	f.op("POST", "/wsdl/import-xml:autopilot", map[string]any{"xml": string(wsdl), "environment": "prod", "serviceKey": "calc"},
		http.StatusCreated)
	return f
}

// op sends body as the operator and wants status.
func (f fixture) op(method, path string, body any, status int) admintest.Response {
	f.t.Helper()
	if body == nil {
		return f.Do(method, admin.Prefix+path, admintest.OperatorEmail, "").WantStatus(f.t, status)
	}
	return f.DoJSON(method, admin.Prefix+path, admintest.OperatorEmail, body).WantStatus(f.t, status)
}

// export answers GET /bundle?query as the reader.
func (f fixture) export(query string, header ...string) admintest.Response {
	f.t.Helper()
	return f.Send("GET", admin.Prefix+"/bundle"+query, admintest.ReaderEmail, "", nil, header...)
}

func TestExport(t *testing.T) {
	f := newFixture(t)
	r := f.export("").WantStatus(t, http.StatusOK)
	body := string(r.Body)
	for _, secret := range []string{backendPassword, callbackSecret, inboundPassword, "lastUpdatedBy", "lastUpdatedAt"} {
		if strings.Contains(body, secret) {
			t.Errorf("the bundle shows %q", secret)
		}
	}
	var b bundle.Bundle
	r.Decode(t, &b)
	if b.APIVersion != "s2r/v1" || b.Kind != "Bundle" || len(b.Services) != 2 {
		t.Fatalf("bundle %s %s with %d services", b.APIVersion, b.Kind, len(b.Services))
	}
	dev, prod := b.Services[0], b.Services[1]
	if dev.Environment != "dev" || prod.Environment != "prod" || dev.ServiceKey != "calc" || dev.Direction != "publish" {
		t.Fatalf("services %s/%s, %s/%s", dev.Environment, dev.ServiceKey, prod.Environment, prod.ServiceKey)
	}
	if dev.CallbackSecret == nil || !dev.CallbackSecret.Set || prod.CallbackSecret != nil {
		t.Errorf("callbackSecret dev %+v, prod %+v", dev.CallbackSecret, prod.CallbackSecret)
	}
	if len(dev.BackendProfiles) != 1 || dev.DefaultBackendProfile != dev.BackendProfiles[0].Name {
		t.Fatalf("profiles %+v, default %q", dev.BackendProfiles, dev.DefaultBackendProfile)
	}
	p := dev.BackendProfiles[0]
	if p.AuthType != "basic" || p.Username != "svc" || !cmp.Equal(p.Credentials, map[string]bundle.SecretSet{"password": {Set: true}}) {
		t.Errorf("profile %+v", p)
	}
	if !cmp.Equal(dev.ConsumerGrants, []string{"10.0.0.0/8"}) || len(prod.ConsumerGrants) != 0 {
		t.Errorf("grants dev %v, prod %v", dev.ConsumerGrants, prod.ConsumerGrants)
	}
	wantInbound := &bundle.InboundWSSecurity{Mode: "off", MaxClockSkewSeconds: 120, TrustedCertificatesPEM: []string{},
		UsernameTokens: []bundle.InboundWSSUser{{Username: "partner-a", Password: &bundle.SecretSet{Set: true}}}}
	if diff := cmp.Diff(wantInbound, dev.InboundWSSecurity); diff != "" || prod.InboundWSSecurity != nil {
		t.Errorf("inbound WS-Security (-want +got):\n%s\nprod: %+v", diff, prod.InboundWSSecurity)
	}
	v := dev.Version
	if v == nil || v.VersionNumber != 1 || v.WSDL == nil || len(v.Operations) != 3 || prod.Version != nil {
		t.Fatalf("dev version %+v; prod version %+v", v, prod.Version)
	}
	if !strings.Contains(v.WSDL.Files[v.WSDL.RootPath], `name="Calculator"`) {
		t.Errorf("root %q is not the WSDL: %v", v.WSDL.RootPath, v.WSDL.Files)
	}
	add := v.Operations[0]
	if add.SOAPOperationName != "Add" || add.RestMethod != "POST" || add.RestPath != "/add" || add.Mapping == nil || add.Mapping.Source != "auto" {
		t.Errorf("operation %+v", add)
	}
}

func TestExportFilters(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		query string
		want  []string
	}{
		{"?environment=dev", []string{"dev/calc"}},
		{"?environment=prod&environment=dev", []string{"dev/calc", "prod/calc"}},
		{"?serviceKey=calc&environment=prod", []string{"prod/calc"}},
		{"?serviceKey=other", []string{}},
		{"?environment=staging", []string{}},
	}
	for _, tc := range cases {
		var b bundle.Bundle
		f.export(tc.query).WantStatus(t, http.StatusOK).Decode(t, &b)
		got := []string{}
		for _, s := range b.Services {
			got = append(got, s.Environment+"/"+s.ServiceKey)
		}
		if !cmp.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.query, got, tc.want)
		}
	}
	f.export("?environment=Not%20A%20Key").WantFieldError(t, http.StatusBadRequest, apierr.ValBadRequest, "environment")
	f.export("?serviceKey=").WantFieldError(t, http.StatusBadRequest, apierr.ValBadRequest, "serviceKey")
}

// TestExportYAML: with Accept: application/yaml the same bundle comes as
// YAML, the WSDL files as literal blocks.
func TestExportYAML(t *testing.T) {
	f := newFixture(t)
	j := f.export("").WantStatus(t, http.StatusOK)
	y := f.export("", "Accept", "application/yaml").WantStatus(t, http.StatusOK)
	if ct := y.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/yaml") {
		t.Fatalf("content type %s", ct)
	}
	if strings.Contains(string(y.Body), backendPassword) || !strings.Contains(string(y.Body), "apiVersion: s2r/v1") ||
		!strings.Contains(string(y.Body), ": |") {
		t.Errorf("YAML:\n%.1500s", y.Body)
	}
	var fromYAML, fromJSON any
	if err := yaml.Unmarshal(y.Body, &fromYAML); err != nil {
		t.Fatal(err)
	}
	again, err := json.Marshal(fromYAML)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(again, &fromYAML); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(j.Body, &fromJSON); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(fromJSON, fromYAML); d != "" {
		t.Errorf("YAML differs from JSON (-json +yaml):\n%s", d)
	}
	if ct := f.export("", "Accept", "application/json, application/yaml").Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("JSON first: content type %s", ct)
	}
}
