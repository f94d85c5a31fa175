package convert

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/golden"
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// TestJSONSchemaGolden keeps the JSON Schema of the benchmark and shop
// contracts in testdata, for review of the generator's output.
func TestJSONSchemaGolden(t *testing.T) {
	set, err := xsd.CompileSchemas(map[string][]byte{"orders.xsd": []byte(benchXSD)})
	if err != nil {
		t.Fatal(err)
	}
	el, err := set.Element(xmlstream.Name{Space: "urn:orders", Local: "GetOrdersResponse"})
	if err != nil {
		t.Fatal(err)
	}
	doc := xsd.MessageJSONSchema(&xsd.Message{Wrapped: true, Wrapper: el}, xsd.JSONSchemaOptions{}).Document()
	got, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	const path = "testdata/jsonschema/orders.json"
	if golden.Updating() {
		if err := os.MkdirAll("testdata/jsonschema", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

func TestFaultAndHeaderSchemas(t *testing.T) {
	s := xsd.FaultJSONSchema(nil)
	if _, err := json.Marshal(s); err != nil {
		t.Fatal(err)
	}
	if xsd.HeadersJSONSchema(&xsd.Message{}, xsd.JSONSchemaOptions{}) != nil {
		t.Error("HeadersJSONSchema without header parts should be nil")
	}
}

// TestSharedGenerator: messages generated through one generator share
// their definitions (no duplicates, no renamed copies).
func TestSharedGenerator(t *testing.T) {
	set, err := xsd.CompileSchemas(map[string][]byte{"orders.xsd": []byte(benchXSD)})
	if err != nil {
		t.Fatal(err)
	}
	el, err := set.Element(xmlstream.Name{Space: "urn:orders", Local: "GetOrdersResponse"})
	if err != nil {
		t.Fatal(err)
	}
	g := xsd.NewJSONSchemaGenerator(xsd.JSONSchemaOptions{RefPrefix: "#/components/schemas/"})
	first := g.Message(&xsd.Message{Wrapped: true, Wrapper: el})
	n := len(g.Defs())
	second := g.Message(&xsd.Message{Parts: []*xsd.Part{{Name: "r", Element: el}}})
	if len(g.Defs()) != n {
		t.Errorf("second message added definitions: %d → %d", n, len(g.Defs()))
	}
	if _, ok := g.Defs()["Order"]; !ok || first == nil || second == nil {
		t.Errorf("definitions %v", g.Defs())
	}
	raw, _ := json.Marshal(second)
	if !strings.Contains(string(raw), `"#/components/schemas/Customer"`) {
		t.Errorf("refs do not use the prefix: %s", raw)
	}
}
