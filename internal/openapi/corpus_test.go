package openapi_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/openapi"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// corpusInput drafts a version of every operation of the WSDL's first
// port, as the autopilot does, and pairs each with its contract.
func corpusInput(t *testing.T, defs *wsdl.Definitions) (openapi.Input, bool) {
	svcName, port, err := catalog.SelectPort(defs, "", "")
	if err != nil {
		return openapi.Input{}, false
	}
	ops, err := catalog.DraftOperations(defs, svcName, port.Name)
	if err != nil {
		return openapi.Input{}, false
	}
	in := openapi.Input{
		Service: model.Service{ServiceID: "s1", ServiceKey: "svc", ServiceName: svcName, Environment: "dev",
			Direction: model.DirectionPublish, FaultDetailExposureMode: model.FaultDetailFull},
		Version: model.Version{VersionID: "v1", VersionNumber: 1, Status: model.VersionDraft},
	}
	ix := catalog.NewContractIndex(defs)
	for i, op := range ops {
		op.OperationID = "op" + string(rune('a'+i%26))
		in.Operations = append(in.Operations, openapi.Operation{Operation: op, Contract: ix.Contract(svcName, port.Name, op)})
	}
	return in, true
}

// TestCorpusDocumentsValidate generates the document of every corpus WSDL
// that imports (with its imports, from its folder) and validates it with
// kin-openapi; the package checksums must verify.
func TestCorpusDocumentsValidate(t *testing.T) {
	generated := 0
	for _, rel := range wsdlcorpus.WSDLs(t) {
		root, name := wsdlcorpus.Project(t, rel)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defs, err := wsdl.Parse(ctx, xsd.DirLoader{Root: root}, name, xmlstream.Limits{})
		cancel()
		if err != nil {
			continue // not importable as it stands: the wsdl tests cover why
		}
		in, ok := corpusInput(t, defs)
		if !ok {
			continue
		}
		t.Run(rel, func(t *testing.T) {
			checkDocument(t, in)
		})
		generated++
	}
	t.Logf("%d corpus WSDLs generated and validated", generated)
	if generated < 10 {
		t.Errorf("only %d corpus WSDLs generated", generated)
	}
}

// checkDocument generates, validates with kin-openapi, regenerates for
// determinism and verifies the package checksums.
func checkDocument(t *testing.T, in openapi.Input) {
	t.Helper()
	doc, err := openapi.Generate(in)
	if err != nil {
		t.Fatal(err)
	}
	loader := openapi3.NewLoader()
	kdoc, err := loader.LoadFromData(doc)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if err := kdoc.Validate(context.Background()); err != nil {
		t.Fatalf("validate: %v", err)
	}
	if n := len(kdoc.Paths.Map()); n == 0 {
		t.Error("no paths")
	}
	checkSchemas(t, doc)
	again, err := openapi.Generate(in)
	if err != nil || !bytes.Equal(doc, again) {
		t.Fatalf("second generation differs (err %v)", err)
	}
	pkg, err := openapi.Package(doc, openapi.Metadata{VersionID: in.Version.VersionID})
	if err != nil {
		t.Fatal(err)
	}
	verifyPackage(t, pkg, doc)
}

// checkSchemas compiles every component schema as JSON Schema 2020-12
// (the OpenAPI 3.1 dialect), so every $ref resolves and every keyword is
// well-formed.
func checkSchemas(t *testing.T, doc []byte) {
	t.Helper()
	tree, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("mem://openapi.json", tree); err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(doc, &parsed); err != nil {
		t.Fatal(err)
	}
	for name := range parsed.Components.Schemas {
		if _, err := c.Compile("mem://openapi.json#/components/schemas/" + name); err != nil {
			t.Errorf("component %s: %v", name, err)
		}
	}
}

// verifyPackage checks the ZIP's files against checksums.json.
func verifyPackage(t *testing.T, pkg, doc []byte) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(pkg), int64(len(pkg)))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name], err = io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(files[openapi.FileOpenAPI], doc) {
		t.Error("openapi.json differs from the document")
	}
	var sums struct {
		Files map[string]string `json:"files"`
	}
	if err := json.Unmarshal(files[openapi.FileChecksums], &sums); err != nil {
		t.Fatal(err)
	}
	if len(sums.Files) != 2 {
		t.Errorf("checksums = %v", sums.Files)
	}
	for name, sum := range sums.Files {
		if got := openapi.SHA256(files[name]); got != sum {
			t.Errorf("%s: sha256 %s, checksums.json says %s", name, got, sum)
		}
	}
}
