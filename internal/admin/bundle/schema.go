package bundle

import (
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/s2r-project/s2r/internal/adminapi"
)

// SchemaID is the $id of the bundle's JSON Schema.
const SchemaID = "https://s2r.dev/schemas/bundle-v1.schema.json"

// requiredMembers are the members a bundle must give, by Go type name;
// every other member may be left out (its default applies).
var requiredMembers = map[string][]string{
	"Bundle":  {"apiVersion", "kind", "services"},
	"Service": {"serviceKey", "environment", "direction"},
}

var docGetSchema = adminapi.Doc{
	Summary: "The JSON Schema (draft 2020-12) of a bundle as POST /bundle:apply reads it: every member, none unknown " +
		"(additionalProperties false), a secret as {\"set\": true} or its value as a string.",
	Response:      map[string]any{},
	ResponseMedia: "application/schema+json",
}

// getSchema answers the bundle's JSON Schema.
func (h *Handlers) getSchema(w http.ResponseWriter, _ *http.Request) error {
	b, err := Schema()
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/schema+json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
	return nil
}

// Schema returns the JSON Schema of the bundle format, derived from the
// Go types apply decodes, indented.
func Schema() ([]byte, error) {
	g := schemaGen{defs: map[string]any{}}
	root := g.object(reflect.TypeFor[Bundle]())
	root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	root["$id"] = SchemaID
	root["title"] = "s2r bundle (" + APIVersion + ")"
	props := root["properties"].(map[string]any)
	props["apiVersion"] = map[string]any{"const": APIVersion}
	props["kind"] = map[string]any{"const": Kind}
	root["$defs"] = g.defs
	return json.MarshalIndent(root, "", "  ")
}

// schemaGen builds schemas, each struct once under $defs.
type schemaGen struct {
	defs map[string]any
}

var (
	rawMessageType = reflect.TypeFor[json.RawMessage]()
	secretType     = reflect.TypeFor[SecretSet]()
)

// of is the schema of a value of type t.
func (g *schemaGen) of(t reflect.Type) map[string]any {
	switch {
	case t == rawMessageType:
		return map[string]any{"description": "any JSON value"}
	case t == secretType:
		return map[string]any{"oneOf": []any{
			map[string]any{"type": "string", "minLength": 1, "description": "the secret's value, sealed on apply"},
			map[string]any{"type": "object", "properties": map[string]any{"set": map[string]any{"type": "boolean"}},
				"additionalProperties": false, "description": "{\"set\": true}: keep the value the target holds"},
		}}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return map[string]any{"anyOf": []any{g.of(t.Elem()), map[string]any{"type": "null"}}}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int64, reflect.Int32:
		return map[string]any{"type": "integer"}
	case reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice:
		return map[string]any{"type": []any{"array", "null"}, "items": g.of(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": []any{"object", "null"}, "additionalProperties": g.of(t.Elem())}
	case reflect.Struct:
		name := t.Name()
		if _, ok := g.defs[name]; !ok {
			g.defs[name] = true // placeholder against recursion
			g.defs[name] = g.object(t)
		}
		return map[string]any{"$ref": "#/$defs/" + name}
	}
	return map[string]any{}
}

// object is the schema of struct t: its JSON members, no others.
func (g *schemaGen) object(t reflect.Type) map[string]any {
	props := map[string]any{}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		props[name] = g.of(f.Type)
	}
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if req := requiredMembers[t.Name()]; len(req) > 0 {
		s["required"] = slices.Clone(req)
	}
	return s
}
