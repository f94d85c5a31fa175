package openapi_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/s2r-project/s2r/internal/openapi"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
)

// TestSOAPHeaders: an operation with soap:header parts documents them as
// the optional member "$headers" of its request and response bodies
// (zeep's soap_header.wsdl: Authentication and Token in, a string out).
func TestSOAPHeaders(t *testing.T) {
	const file = "mvantellingen+python-zeep/tests/wsdl_files/soap_header.wsdl"
	b, err := os.ReadFile(filepath.Join(wsdlcorpus.Dir(t), file))
	if err != nil {
		t.Fatal(err)
	}
	defs, err := wsdl.ParseFiles(context.Background(), "soap_header.wsdl", map[string][]byte{"soap_header.wsdl": b})
	if err != nil {
		t.Fatal(err)
	}
	in, ok := corpusInput(t, defs)
	if !ok {
		t.Fatal("soap_header.wsdl did not draft")
	}
	checkDocument(t, in)
	raw, err := openapi.Generate(in)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]struct {
			RequestBody struct {
				Content map[string]struct{ Schema schemaObj } `json:"content"`
			} `json:"requestBody"`
			Responses map[string]struct {
				Content map[string]struct{ Schema schemaObj } `json:"content"`
			} `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	op := doc.Paths["/get-last-trade-price"]["post"]
	req := op.RequestBody.Content["application/json"].Schema
	h, ok := req.Properties["$headers"]
	if !ok {
		t.Fatalf("request schema has no $headers: %+v", req)
	}
	if _, ok := h.Properties["header"]; !ok || len(h.Required) != 0 || h.Properties["token"].Ref == "" && h.Properties["token"].Type == "" {
		t.Errorf("request $headers = %+v", h)
	}
	for _, r := range req.Required {
		if r == "$headers" {
			t.Error("$headers is required")
		}
	}
	resp := op.Responses["200"].Content["application/json"].Schema
	if h, ok := resp.Properties["$headers"]; !ok || h.Properties["body"].Type != "string" {
		t.Errorf("response schema $headers = %+v", resp.Properties["$headers"])
	}
}

type schemaObj struct {
	Type       string               `json:"type"`
	Ref        string               `json:"$ref"`
	Properties map[string]schemaObj `json:"properties"`
	Required   []string             `json:"required"`
}
