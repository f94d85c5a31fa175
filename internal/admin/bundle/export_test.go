package bundle_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/s2r-project/s2r/internal/admin"
	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/admin/bundle"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/loopback"
)

// The secrets the test sets; none may appear in an export.
const (
	backendPassword = "backend-pa55word-never-exported"
	callbackSecret  = "callback-secret-never-exported"
	inboundPassword = "inbound-pa55word-never-exported"
	wssPassword     = "wss-pa55word-never-exported"
)

var (
	signerOnce sync.Once
	signerID   loopback.RSAIdentity
)

// signer is the RSA identity the fixture's backend signs with (its key
// a secret like the others), made once for the package's tests.
func signer(t *testing.T) loopback.RSAIdentity {
	t.Helper()
	signerOnce.Do(func() { signerID = loopback.NewRSAIdentity(t, "bundle-signer") })
	return signerID
}

// fixture is an admin API with two services: calc in dev (active, a basic
// auth backend with a password, WS-Security with a password and a signing
// key, WS-Addressing and protection caps, consumer grants, a callback
// secret, a client rate limit, operation add with responseValidation
// detect) and calc in prod (a draft only).
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
	var ops struct {
		Items []struct{ OperationID string }
	}
	f.op("GET", svc+"/versions/"+dev.Version.VersionID+"/operations", nil, http.StatusOK).Decode(t, &ops)
	f.op("PATCH", "/operations/"+ops.Items[0].OperationID, map[string]any{"responseValidation": "detect"}, http.StatusOK)
	f.op("POST", svc+"/versions/"+dev.Version.VersionID+":activate", nil, http.StatusOK)
	f.op("PATCH", "/backend-profiles/"+dev.BackendProfile.ProfileID, map[string]any{"authType": "basic", "username": "svc",
		"credentials": map[string]any{"password": backendPassword, "wssPassword": wssPassword, "wssSigningKeyPem": signer(t).KeyPEM},
		"wsSecurity": map[string]any{"usernameToken": map[string]any{"username": "wss-user", "passwordType": "PasswordDigest"},
			"timestamp": map[string]any{"ttlSeconds": 300}, "signature": map[string]any{"certificatePem": signer(t).CertPEM},
			"mustUnderstand": true},
		"wsAddressing": true, "maxConcurrentRequests": 8, "maxRequestsPerSecond": 2.5, "queueTimeoutMs": 250}, http.StatusOK)
	f.op("PUT", svc+"/rate-limits", map[string]any{"clientKey": "header:X-Client", "requestsPerMinute": 600}, http.StatusOK)
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
	for _, secret := range []string{backendPassword, callbackSecret, inboundPassword, wssPassword, "PRIVATE KEY",
		"lastUpdatedBy", "lastUpdatedAt"} {
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
	set := bundle.SecretSet{Set: true}
	if p.AuthType != "basic" || p.Username != "svc" || !cmp.Equal(p.Credentials,
		map[string]bundle.SecretSet{"password": set, "wssPassword": set, "wssSigningKeyPem": set}) {
		t.Errorf("profile %+v", p)
	}
	wantWSS := &model.WSSecurity{UsernameToken: &model.WSSUsernameToken{Username: "wss-user", PasswordType: "PasswordDigest"},
		Timestamp: &model.WSSTimestamp{TTLSeconds: 300}, Signature: &model.WSSSignature{CertificatePEM: signer(t).CertPEM},
		MustUnderstand: true}
	if d := cmp.Diff(wantWSS, p.WSSecurity); d != "" || !p.WSAddressing {
		t.Errorf("wsSecurity (-want +got):\n%s\nwsAddressing %v", d, p.WSAddressing)
	}
	if p.MaxConcurrentRequests == nil || *p.MaxConcurrentRequests != 8 || p.MaxRequestsPerSecond == nil ||
		*p.MaxRequestsPerSecond != 2.5 || p.QueueTimeoutMs != 250 {
		t.Errorf("protection %v %v %d", p.MaxConcurrentRequests, p.MaxRequestsPerSecond, p.QueueTimeoutMs)
	}
	wantLimit := &model.ClientRateLimit{ClientKey: "header:X-Client", RequestsPerMinute: 600, Burst: 600}
	if d := cmp.Diff(wantLimit, dev.RateLimits); d != "" || prod.RateLimits != nil {
		t.Errorf("rate limits (-want +got):\n%s\nprod %+v", d, prod.RateLimits)
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
	if add.SOAPOperationName != "Add" || add.RestMethod != "POST" || add.RestPath != "/add" || add.Mapping == nil ||
		add.Mapping.Source != "auto" || add.ResponseValidation != "detect" || v.Operations[1].ResponseValidation != "strict" {
		t.Errorf("operations %+v", v.Operations)
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
