package convert

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/s2r-project/s2r/internal/xsd"
)

// compileJSONSchema compiles the JSON Schema of msg, failing the test when
// the generated schema is invalid.
func compileJSONSchema(t *testing.T, msg *xsd.Message) *jsonschema.Schema {
	t.Helper()
	doc := xsd.MessageJSONSchema(msg, xsd.JSONSchemaOptions{}).Document()
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatalf("marshal schema: %v", err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("reload schema: %v", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem://message.json", v); err != nil {
		t.Fatalf("add schema: %v", err)
	}
	s, err := c.Compile("mem://message.json")
	if err != nil {
		t.Fatalf("generated schema does not compile: %v\n%s", err, raw)
	}
	return s
}

// validateJSON checks that j conforms to s.
func validateJSON(t *testing.T, s *jsonschema.Schema, j []byte, what string) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := s.Validate(v); err != nil {
		t.Errorf("%s does not validate against the message's JSON Schema: %v\n%s", what, err, j)
	}
}
