package admin

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

func TestOpenAPIValidAndComplete(t *testing.T) {
	api := newTestAPI(t, storetest.SQLite(t))
	body := api.Do("GET", "/admin/v1/openapi.json", readerEmail, "").WantStatus(t, 200).Body
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(body)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("validate: %v", err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %s", doc.OpenAPI)
	}
	registered := map[string]bool{}
	for _, rt := range api.srv.routes {
		registered[rt.Method+" "+rt.Path] = true
		item := doc.Paths.Value(rt.Path)
		if item == nil || item.GetOperation(rt.Method) == nil {
			t.Errorf("route %s %s is missing from the document", rt.Method, rt.Path)
			continue
		}
		op := item.GetOperation(rt.Method)
		if strings.TrimSpace(op.Summary) == "" {
			t.Errorf("route %s %s has no summary", rt.Method, rt.Path)
		}
		for _, status := range []int{401, 403} {
			if op.Responses.Status(status) == nil {
				t.Errorf("route %s %s does not document %d", rt.Method, rt.Path, status)
			}
		}
		if rt.Doc.Request != nil && op.RequestBody == nil {
			t.Errorf("route %s %s has no request body", rt.Method, rt.Path)
		}
	}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			if !registered[method+" "+path] {
				t.Errorf("document describes %s %s, which is not registered", method, path)
			}
		}
	}
}

// TestOpenAPIDescribesSettings checks the settings schemas come from the
// settings table: every setting, its bounds and its default.
func TestOpenAPIDescribesSettings(t *testing.T) {
	doc := adminapi.OpenAPIDocument(newServer(Config{Store: storetest.SQLite(t)}).routes, "x")
	settings := doc.Components.Schemas["Settings"].Value
	timeout := settings.Properties["default_timeout_ms"].Value
	if timeout.Default != int64(30000) || *timeout.Min != 1 || *timeout.Max != 600000 {
		t.Errorf("default_timeout_ms schema = %+v", timeout)
	}
	patch := doc.Components.Schemas["SettingsPatch"].Value
	if pw := patch.Properties["smtp_password"].Value; !pw.WriteOnly || !pw.Type.Includes("null") {
		t.Errorf("smtp_password patch schema = %+v", pw)
	}
	if len(settings.Properties) != len(patch.Properties) || len(settings.Required) != len(settings.Properties) {
		t.Error("Settings and SettingsPatch disagree")
	}
	if !bytes.Contains([]byte(doc.Info.Title), []byte("admin")) {
		t.Error("title")
	}
}
