package adminapi

import (
	"reflect"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/s2r-project/s2r/internal/model"
)

// settingsSchema builds the Settings schema (patch false: every setting,
// required, credentials as metadata) or the SettingsPatch schema (every
// setting optional, no others allowed, credentials as string or null) from
// the settings table.
func (g *schemaGen) settingsSchema(patch bool) *openapi3.Schema {
	s := openapi3.NewObjectSchema()
	s.AdditionalProperties = openapi3.AdditionalProperties{Has: new(bool)}
	defaults := model.DefaultSettings()
	for _, spec := range model.SettingSpecs() {
		p := g.settingSchema(spec, patch)
		if spec.Kind != model.KindCredential {
			p.Default = spec.Value(&defaults)
		}
		s.Properties[spec.Name] = openapi3.NewSchemaRef("", p)
		if !patch {
			s.Required = append(s.Required, spec.Name)
		}
	}
	if patch {
		s.Description = "Partial settings update: any subset of the settings; unknown names, wrong types and out-of-range values are rejected with 400 S2R-VAL-0400 naming details.field."
	} else {
		s.Description = "Every mutable setting with its current value."
	}
	return s
}

// settingSchema returns the schema of one setting.
func (g *schemaGen) settingSchema(spec model.SettingSpec, patch bool) *openapi3.Schema {
	var s *openapi3.Schema
	switch spec.Kind {
	case model.KindInteger:
		s = openapi3.NewInt64Schema().WithMin(float64(spec.Min)).WithMax(float64(spec.Max))
	case model.KindBoolean:
		s = openapi3.NewBoolSchema()
	case model.KindString:
		s = formatted(openapi3.NewStringSchema(), spec.Format)
		if spec.Enum != nil {
			enum := make([]any, len(spec.Enum))
			for i, v := range spec.Enum {
				enum[i] = v
			}
			s.Enum = enum
		}
	case model.KindStringList:
		s = openapi3.NewArraySchema().WithItems(formatted(openapi3.NewStringSchema(), spec.Format)).WithMaxItems(100)
	case model.KindCredential:
		if patch {
			s = &openapi3.Schema{Type: &openapi3.Types{"string", "null"}, WriteOnly: true, MinLength: 1}
		} else {
			meta := g.ref(reflect.TypeFor[model.CredentialMetadata]())
			s = &openapi3.Schema{AllOf: openapi3.SchemaRefs{meta}, ReadOnly: true}
		}
	}
	s.Description = spec.Description
	return s
}

// formatted sets the JSON Schema format of a setting format.
func formatted(s *openapi3.Schema, format string) *openapi3.Schema {
	switch format {
	case model.FormatEmail:
		s.Format = "email"
	case model.FormatHost:
		s.Format = "hostname"
	case model.FormatName:
		s.Pattern = `^[^ :<>"]+$`
	case model.FormatCIDR:
		s.Description = "CIDR"
		s.Pattern = `^[0-9A-Fa-f:.]+/[0-9]{1,3}$`
	}
	return s
}

// SettingsPatchBody documents the settings PATCH body (component
// SettingsPatch, derived from the settings table); the handler decodes the
// body as a map so that every member is checked against the table.
type SettingsPatchBody struct{}
