package bundle_test

import (
	"bytes"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/s2r-project/s2r/internal/admin"
	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/admin/bundle"
)

var update = flag.Bool("update", false, "rewrite testdata/bundle.schema.json")

// TestSchemaGolden pins the bundle format: a change to the bundle's Go
// types changes the schema, which must be reviewed and regenerated with
// -update.
func TestSchemaGolden(t *testing.T) {
	got, err := bundle.Schema()
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := filepath.Join("testdata", "bundle.schema.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("the bundle schema changed (go test -run TestSchemaGolden -update to accept) (-want +got):\n%s", d)
	}
}

// TestSchemaServedAndValid: GET /bundle.schema.json answers the schema to
// a reader; an export validates against it, a bundle with an unknown
// member does not.
func TestSchemaServedAndValid(t *testing.T) {
	f := newFixture(t)
	r := f.Do("GET", admin.Prefix+"/bundle.schema.json", admintest.ReaderEmail, "").WantStatus(t, http.StatusOK)
	if ct := r.Header.Get("Content-Type"); ct != "application/schema+json" {
		t.Errorf("content type %s", ct)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(r.Body))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(bundle.SchemaID, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(bundle.SchemaID)
	if err != nil {
		t.Fatal(err)
	}
	exported := f.export("").WantStatus(t, http.StatusOK).Body
	for name, body := range map[string][]byte{"export": exported, "with secrets": encode(t, withSecrets(t, exported))} {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s fails the schema: %v", name, err)
		}
	}
	b := generic(t, exported)
	devOf(b)["colour"] = "red"
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(encode(t, b)))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err == nil {
		t.Error("an unknown member passes the schema")
	}
}
