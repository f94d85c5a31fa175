package routing

import (
	"errors"
	"strconv"

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
	return schemaLeaves(s, doc, func(e *jsonschema.ValidationError) bool { return valueLeaf(e, doc) }, false)
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

// AllSchemaViolations is SchemaViolations for a detect-mode record: each
// undeclared member its own violation at its own pointer (strict answers
// keep the library's one per object), and how many distinct violations
// doc has in all, listed or not.
func AllSchemaViolations(s *jsonschema.Schema, doc any) ([]Violation, int) {
	return schemaLeaves(s, doc, nil, true)
}

// leafViolations are the violations of one leaf error: one per member
// for undeclared members, so each has its own pointer (the library names
// them all at their object), else the one at the error's location.
func leafViolations(e *jsonschema.ValidationError, doc any) []Violation {
	at := instancePointer(e.InstanceLocation)
	if k, ok := e.ErrorKind.(*kind.AdditionalProperties); ok {
		out := make([]Violation, 0, len(k.Properties))
		for _, p := range k.Properties {
			out = append(out, Violation{Pointer: at + "/" + escapePointer(p), Reason: "unknown member " + strconv.Quote(p)})
		}
		return out
	}
	return []Violation{{Pointer: at, Reason: leafReason(e, doc)}}
}

// UndeclaredMembers returns the JSON pointers of the object members of
// doc that s does not declare, for a caller that removes them before
// converting (consume, responseValidation detect and off). Members
// refused only by some alternatives (oneOf, anyOf: derived types, nil)
// are kept: another alternative may declare them.
func UndeclaredMembers(s *jsonschema.Schema, doc any) []string {
	var ve *jsonschema.ValidationError
	if !errors.As(s.Validate(doc), &ve) {
		return nil
	}
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		switch e.ErrorKind.(type) {
		case *kind.OneOf, *kind.AnyOf:
			return
		case *kind.AdditionalProperties:
			for _, v := range leafViolations(e, doc) {
				out = append(out, v.Pointer)
			}
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}
