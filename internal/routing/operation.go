package routing

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/s2r-project/s2r/internal/convert"
	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/transform"
	"github.com/s2r-project/s2r/internal/xsd"
)

// ParamKind is the JSON kind a path or query parameter takes when it feeds
// a top-level request field (typed per the contract's JSON Schema).
type ParamKind uint8

// Parameter kinds.
const (
	ParamString       ParamKind = iota
	ParamNumber                 // integer or number: emitted as a JSON number when it is one
	ParamBoolean                // "true"/"false"
	ParamArray                  // repeated: every occurrence becomes an item (strings)
	ParamNumberArray            // repeated numbers
	ParamBooleanArray           // repeated booleans
)

// Operation is the compiled runtime configuration of one operation.
type Operation struct {
	ID  string
	Key string

	SOAPName      string
	SOAPNamespace string
	SOAPVersion   soap.Version
	SOAPAction    string

	RESTMethod string
	RESTPath   string
	path       PathTemplate

	// Timeout and Retries are the operation's timeoutMs and retryCount,
	// resolved against the settings defaults.
	Timeout       time.Duration
	Retries       int
	ExecutionMode string

	// Contract is the operation's compiled contract (shared, read-only).
	Contract *xsd.Operation
	// Request and Response convert the bodies; Response is nil for a
	// one-way operation. Both are compiled with OmitDeclarations for
	// JSON→XML: Namespaces are declared on the Envelope.
	Request    *convert.Plan
	Response   *convert.Plan
	Namespaces []soap.NSDecl
	// ResponseValidation is the operation's mode (model.ValidationStrict,
	// ValidationDetect or ValidationOff). In detect and off LaxResponse is
	// Response compiled with convert.Options.Lax: what converts a response
	// the strict plan refuses "as far as it goes".
	ResponseValidation string
	LaxResponse        *convert.Plan
	// RequestHeaders and ResponseHeaders convert the soap:header parts
	// (the "$headers" member); nil when the message has none.
	RequestHeaders  *HeaderParts
	ResponseHeaders *HeaderParts
	// Faults convert declared fault details (xsd.Fault.DetailMessage) by
	// the name of the detail's first element, {ns, local}.
	Faults map[[2]string]*convert.Plan

	RequestSchema  *jsonschema.Schema
	ResponseSchema *jsonschema.Schema
	// RequestSchemaCheck and ResponseSchemaCheck are true when the message
	// has constraints (facets) that conversion does not enforce, so the
	// JSON Schema must be validated on every call; otherwise a successful
	// conversion proves the schema and validation runs only to list the
	// violations of a failed one.
	RequestSchemaCheck  bool
	ResponseSchemaCheck bool
	RequestRules        []FieldRule
	ResponseRules       []FieldRule
	// Transform is nil when the operation has no transform rules.
	Transform *transform.Program
	// Params types the top-level request fields that path and query
	// parameters may feed.
	Params map[string]ParamKind

	// RequestRenamer and ResponseRenamer apply the rename and omit parts
	// of the active mapping (nil for the identity shape): the client's
	// names become contract names before validation, and the converted
	// response takes the client's names after validation.
	RequestRenamer  *Renamer
	ResponseRenamer *Renamer
	// FaultPicker keeps only the picked detail paths of a fault exposed in
	// full mode; nil keeps the whole fault.
	FaultPicker *Picker
	// FaultRenamer applies the fault mapping's rename and omit parts to
	// the detail of a fault exposed in full mode (paths from the detail
	// element, as the catalog checks them: "NoSuchCodeLit/code"), after
	// the pick; nil for the identity shape.
	FaultRenamer *Renamer

	// The active mapping's parts as stored (docs/decisions-catalog.md).
	RequestMapping  json.RawMessage
	ResponseMapping json.RawMessage
	FaultMapping    json.RawMessage
}

// SetPath compiles the REST path template of op; the loader calls it.
func (op *Operation) SetPath(method, path string) {
	op.RESTMethod = method
	op.RESTPath = path
	op.path = ParsePathTemplate(path)
}

// InputElement returns the namespace and local name of the request body
// element (the wrapper of wrapped and rpc messages, else the first element
// part), false when the contract does not say.
func (op *Operation) InputElement() (ns, local string, ok bool) {
	if op.Contract == nil || op.Contract.Input == nil {
		return "", "", false
	}
	m := op.Contract.Input
	if m.Wrapper != nil {
		return m.Wrapper.Name.Space, m.Wrapper.Name.Local, true
	}
	for _, p := range m.Parts {
		if p.Element != nil {
			return p.Element.Name.Space, p.Element.Name.Local, true
		}
	}
	return "", "", false
}

// PathParam is one parameter bound by a path template.
type PathParam struct {
	Name, Value string
}

// PathTemplate is a compiled restPath: literal segments and whole-segment
// {name} parameters. A trailing slash is ignored on both sides.
type PathTemplate struct {
	segs []pathSeg
}

type pathSeg struct {
	lit   string
	param string // non-empty for {name}
}

// ParsePathTemplate compiles a restPath such as /countries/{code}.
func ParsePathTemplate(p string) PathTemplate {
	var t PathTemplate
	for _, s := range splitPath(p) {
		if len(s) > 2 && s[0] == '{' && s[len(s)-1] == '}' {
			t.segs = append(t.segs, pathSeg{param: s[1 : len(s)-1]})
			continue
		}
		t.segs = append(t.segs, pathSeg{lit: s})
	}
	return t
}

// Match matches path against the template and returns the parameters.
// Parameter values are taken as they appear in the (already decoded) path.
func (t PathTemplate) Match(path string) ([]PathParam, bool) {
	segs := splitPath(path)
	if len(segs) != len(t.segs) {
		return nil, false
	}
	var params []PathParam
	for i, s := range t.segs {
		if s.param == "" {
			if segs[i] != s.lit {
				return nil, false
			}
			continue
		}
		if segs[i] == "" {
			return nil, false
		}
		params = append(params, PathParam{Name: s.param, Value: segs[i]})
	}
	return params, true
}

// splitPath splits /a/b/ into [a b]; "" and "/" give no segments.
func splitPath(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}
