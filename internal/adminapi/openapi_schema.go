package adminapi

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/s2r-project/s2r/internal/model"
)

// schemaGen derives JSON Schemas of request and response bodies from their
// Go types, so the document cannot drift from the code: named structs
// become components referenced by $ref; fields follow their json tags and
// are required unless tagged omitempty or omitzero.
type schemaGen struct {
	components openapi3.Schemas
	owners     map[string]reflect.Type // component name → the Go type it describes
}

func newSchemaGen() *schemaGen {
	g := &schemaGen{components: openapi3.Schemas{}, owners: map[string]reflect.Type{}}
	g.components["Error"] = openapi3.NewSchemaRef("", errorSchema())
	g.components["Settings"] = openapi3.NewSchemaRef("", g.settingsSchema(false))
	g.components["SettingsPatch"] = openapi3.NewSchemaRef("", g.settingsSchema(true))
	return g
}

var (
	timeType     = reflect.TypeFor[time.Time]()
	rawType      = reflect.TypeFor[json.RawMessage]()
	roleType     = reflect.TypeFor[model.Role]()
	settingsType = reflect.TypeFor[model.Settings]()
	patchType    = reflect.TypeFor[SettingsPatchBody]()
)

// componentRef returns a $ref to component name.
func componentRef(name string) *openapi3.SchemaRef {
	return openapi3.NewSchemaRef("#/components/schemas/"+name, nil)
}

// ref returns the schema of values of type t.
func (g *schemaGen) ref(t reflect.Type) *openapi3.SchemaRef {
	switch t {
	case timeType:
		return openapi3.NewSchemaRef("", openapi3.NewDateTimeSchema())
	case rawType:
		return openapi3.NewSchemaRef("", &openapi3.Schema{Description: "any JSON value, or null"})
	case roleType:
		return openapi3.NewSchemaRef("", openapi3.NewStringSchema().WithEnum("admin", "operator", "reader"))
	case settingsType:
		return componentRef("Settings")
	case patchType:
		return componentRef("SettingsPatch")
	}
	switch t.Kind() {
	case reflect.Pointer:
		return g.ref(t.Elem())
	case reflect.Slice:
		return openapi3.NewSchemaRef("", &openapi3.Schema{Type: &openapi3.Types{"array"}, Items: g.ref(t.Elem())})
	case reflect.Map:
		s := openapi3.NewObjectSchema()
		s.AdditionalProperties = openapi3.AdditionalProperties{Schema: g.ref(t.Elem())}
		return openapi3.NewSchemaRef("", s)
	case reflect.Struct:
		return g.structRef(t)
	}
	return openapi3.NewSchemaRef("", scalarSchema(t))
}

// scalarSchema returns the schema of a string, boolean or number kind.
func scalarSchema(t reflect.Type) *openapi3.Schema {
	switch t.Kind() {
	case reflect.Bool:
		return openapi3.NewBoolSchema()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return openapi3.NewInt64Schema()
	case reflect.Float32, reflect.Float64:
		return openapi3.NewFloat64Schema()
	case reflect.String:
		return openapi3.NewStringSchema()
	}
	return &openapi3.Schema{}
}

// structRef registers the component of struct type t once and returns a
// reference to it.
func (g *schemaGen) structRef(t reflect.Type) *openapi3.SchemaRef {
	name := g.nameFor(t)
	if _, ok := g.components[name]; !ok {
		s := openapi3.NewObjectSchema()
		g.components[name] = openapi3.NewSchemaRef("", s) // placeholder breaks cycles
		g.owners[name] = t
		for i := range t.NumField() {
			g.addField(s, t.Field(i))
		}
	}
	return componentRef(name)
}

// nameFor returns the component name of t. Two distinct types with the same
// name (from different packages) get distinct components: the later one is
// qualified with its package name, then numbered if still taken.
func (g *schemaGen) nameFor(t reflect.Type) string {
	base := componentName(t)
	pkg := t.PkgPath()[strings.LastIndex(t.PkgPath(), "/")+1:]
	for i, name := 0, base; ; i++ {
		if owner, taken := g.owners[name]; !taken || owner == t {
			if _, builtIn := g.components[name]; !builtIn || taken {
				return name
			}
		}
		name = exportName(pkg) + base
		if i > 0 {
			name += strconv.Itoa(i + 1)
		}
	}
}

// addField adds struct field f to object schema s. The fields of an
// embedded struct without a json name are added in its place, as
// encoding/json writes them.
func (g *schemaGen) addField(s *openapi3.Schema, f reflect.StructField) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return
	}
	name, opts, _ := strings.Cut(tag, ",")
	if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
		for i := range f.Type.NumField() {
			g.addField(s, f.Type.Field(i))
		}
		return
	}
	if !f.IsExported() {
		return
	}
	if name == "" {
		name = f.Name
	}
	optional := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
	prop := g.ref(f.Type)
	if f.Type.Kind() == reflect.Pointer && !optional {
		prop = nullable(prop)
	}
	s.Properties[name] = prop
	if !optional {
		s.Required = append(s.Required, name)
	}
}

// nullable returns a schema that also allows null: a "null" type added to
// an inline schema, or anyOf a $ref and null.
func nullable(ref *openapi3.SchemaRef) *openapi3.SchemaRef {
	if ref.Ref == "" && ref.Value != nil && ref.Value.Type != nil {
		v := *ref.Value
		types := append(openapi3.Types{}, *v.Type...)
		v.Type = &types
		if !types.Includes("null") {
			types = append(types, "null")
			v.Type = &types
		}
		return openapi3.NewSchemaRef("", &v)
	}
	return openapi3.NewSchemaRef("", &openapi3.Schema{AnyOf: openapi3.SchemaRefs{ref, openapi3.NewSchemaRef("", &openapi3.Schema{Type: &openapi3.Types{"null"}})}})
}

var nonAlnum = regexp.MustCompile(`[^A-Za-z0-9]+`)

// componentName names the component of t: its type name, with the short
// names of generic type arguments appended
// (ObservabilityPageRecord[model.AuditEvent] → ObservabilityPageRecordAuditEvent).
func componentName(t reflect.Type) string {
	base, args, ok := strings.Cut(t.Name(), "[")
	name := exportName(base)
	if ok {
		for _, arg := range strings.Split(strings.TrimSuffix(args, "]"), ",") {
			arg = arg[strings.LastIndex(arg, ".")+1:]
			name += exportName(nonAlnum.ReplaceAllString(arg, ""))
		}
	}
	return name
}

// exportName upper-cases the first letter of name.
func exportName(name string) string {
	if name == "" {
		return name
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

// errorSchema is the SPEC 7.1 error body.
func errorSchema() *openapi3.Schema {
	inner := openapi3.NewObjectSchema().
		WithProperty("code", openapi3.NewStringSchema().WithPattern(`^S2R-[A-Z]+-[0-9]{4}$`)).
		WithProperty("message", openapi3.NewStringSchema()).
		WithProperty("details", openapi3.NewObjectSchema().WithAnyAdditionalProperties()).
		WithProperty("correlationId", openapi3.NewStringSchema())
	inner.Required = []string{"code", "message", "details", "correlationId"}
	outer := openapi3.NewObjectSchema().WithProperty("error", inner)
	outer.Required = []string{"error"}
	outer.Description = "Error body of every admin error response (S2R-ADM-* and S2R-VAL-* codes)."
	return outer
}
