package routing

import (
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/s2r-project/s2r/internal/convert"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/xsd"
)

// HeaderParts is the compiled conversion of the soap:header parts of one
// message: a JSON object with one optional member per part, named by the
// part name.
type HeaderParts struct {
	// Plan converts the "$headers" object to header blocks and back. Its
	// JSON→XML output declares its namespaces on each block, so that the
	// blocks stand alone in the Envelope's Header.
	Plan *convert.Plan
	// Lax is Plan compiled with convert.Options.Lax for the response
	// header parts of an operation in responseValidation detect or off
	// (what converts header parts the strict plan refuses); nil otherwise.
	Lax *convert.Plan
	// Schema is the JSON Schema of the "$headers" object.
	Schema *jsonschema.Schema
	// SchemaCheck is true when the header parts have facets the plan does
	// not enforce (see needsSchemaCheck).
	SchemaCheck bool
}

// compileHeaders compiles the header parts of msg under url (with a Lax
// plan when lax), nil when it
// has none.
func compileHeaders(c *xsd.Operation, msg *xsd.Message, url string, lax bool) (*HeaderParts, error) {
	if msg == nil || len(msg.Headers) == 0 {
		return nil, nil
	}
	plan, err := convert.CompileHeaders(msg, convert.OptionsFor(c))
	if err != nil {
		return nil, err
	}
	var laxPlan *convert.Plan
	if lax {
		opts := convert.OptionsFor(c)
		opts.Lax = true
		if laxPlan, err = convert.CompileHeaders(msg, opts); err != nil {
			return nil, err
		}
	}
	doc := xsd.HeadersJSONSchema(msg, xsd.JSONSchemaOptions{})
	sch, err := CompileSchema(url, doc.Document())
	if err != nil {
		return nil, err
	}
	return &HeaderParts{Plan: plan, Lax: laxPlan, Schema: sch, SchemaCheck: partsHaveFacets(msg.Headers)}, nil
}

// compileContractHeaders sets the request and response header parts of op.
func compileContractHeaders(op *Operation, c *xsd.Operation) error {
	var err error
	if op.RequestHeaders, err = compileHeaders(c, c.Input, "mem://s2r/"+op.ID+"/request-headers.json", false); err != nil {
		return fmt.Errorf("request headers: %w", err)
	}
	lax := op.ResponseValidation != model.ValidationStrict
	if op.ResponseHeaders, err = compileHeaders(c, c.Output, "mem://s2r/"+op.ID+"/response-headers.json", lax); err != nil {
		return fmt.Errorf("response headers: %w", err)
	}
	return nil
}

// PrefixViolations puts the pointers of violations found in the
// "$headers" object under /$headers, where they sit in the request or
// response document.
func PrefixViolations(v []Violation) []Violation {
	for i := range v {
		v[i].Pointer = "/" + convert.HeadersMember + v[i].Pointer
	}
	return v
}
