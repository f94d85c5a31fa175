package routing

import (
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// ValueViolations is SchemaViolations restricted to what a Lax conversion
// of a SOAP response (convert.XMLToJSONNoting, responseValidation
// "detect") leaves to the JSON Schema: facets (enumeration, pattern,
// lengths, ranges), formats and numbers of items, the checks the strict
// path runs the schema for (Operation.ResponseSchemaCheck). The structure
// (undeclared or missing members, types, choices, nulls) the conversion
// has noted itself at XML paths; the schema would report each a second
// time, a value that did not convert being null in its output. It
// returns at most maxViolations violations, sorted, and how many distinct
// ones doc has.
func ValueViolations(s *jsonschema.Schema, doc any) ([]Violation, int) {
	return schemaLeaves(s, doc, func(e *jsonschema.ValidationError) bool { return valueLeaf(e, doc) })
}

// valueLeaf reports whether e checks a value's facet. Enumerations and
// constants apply to null too, which is never a facet violation here: a
// null is a value that did not convert or an xsi:nil, both noted.
func valueLeaf(e *jsonschema.ValidationError, doc any) bool {
	switch e.ErrorKind.(type) {
	case *kind.Enum, *kind.Const:
		v, ok := valueAt(doc, e.InstanceLocation)
		return ok && v != nil
	case *kind.Pattern, *kind.Format, *kind.MinLength, *kind.MaxLength, *kind.Minimum, *kind.Maximum,
		*kind.ExclusiveMinimum, *kind.ExclusiveMaximum, *kind.MultipleOf, *kind.MinItems, *kind.MaxItems:
		return true
	}
	return false
}

// AllSchemaViolations is SchemaViolations with how many distinct
// violations doc has in all, listed or not.
func AllSchemaViolations(s *jsonschema.Schema, doc any) ([]Violation, int) {
	return schemaLeaves(s, doc, nil)
}
