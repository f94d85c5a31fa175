package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/xsd"
)

// MessageMapping is the mapping language of one direction of an
// operation (docs/decisions-catalog.md). Contract paths are Field paths.
//
//	{"mode": "identity",                  JSON member names are the XML local names (the default)
//	 "rename": {"sCountryISOCode": "code"},  contract path → JSON member name used instead
//	 "omit": ["internalRef"],              contract paths left out of the JSON
//	 "pick": ["detail/NoSuchCodeLit/code"],  fault mapping only: the fault detail fields kept
//	 "restMethod": "GET",                  consume requestMapping only: the REST call made
//	 "restPath": "/countries/{sCountryISOCode}",  {name}: a top-level request field
//	 "query": {"lang": "sLanguage"},       query parameter → contract path (GET and DELETE)
//	 "body": "/"}                          JSON Pointer of the request JSON sent as the body;
//	                                       "" or "/" the whole document, "-" no body
type MessageMapping struct {
	Mode       string            `json:"mode,omitempty"`
	Rename     map[string]string `json:"rename,omitempty"`
	Omit       []string          `json:"omit,omitempty"`
	Pick       []string          `json:"pick,omitempty"`
	RestMethod string            `json:"restMethod,omitempty"`
	RestPath   string            `json:"restPath,omitempty"`
	Query      map[string]string `json:"query,omitempty"`
	Body       string            `json:"body,omitempty"`
}

// ModeIdentity is the only mapping mode: names are kept unless renamed.
const ModeIdentity = "identity"

// identity is the auto mapping of every direction.
var identity = json.RawMessage(`{"mode":"identity"}`)

// AutoMapping returns the auto mapping of op: the identity mapping in every
// direction (JSON member names are the contract's local names, DESIGN 5).
// The ids, version and times are left to the caller. The contract is not
// needed to express identity; it is taken so a later richer derivation
// keeps the signature.
func AutoMapping(op *xsd.Operation) model.Mapping {
	_ = op
	return model.Mapping{
		RequestMapping:  slices.Clone(identity),
		ResponseMapping: slices.Clone(identity),
		FaultMapping:    slices.Clone(identity),
		Source:          model.MappingAuto,
		Active:          true,
	}
}

// Problem is one thing wrong with a mapping, validation rule or route.
type Problem struct {
	Section string `json:"section"` // requestMapping, responseMapping, faultMapping, …
	Field   string `json:"field,omitempty"`
	Reason  string `json:"reason"`
}

// ParseMessageMapping decodes one direction of a mapping strictly (no
// unknown members). null and empty input are reported as missing.
func ParseMessageMapping(raw json.RawMessage) (MessageMapping, error) {
	var m MessageMapping
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return m, fmt.Errorf("mapping is missing")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return m, fmt.Errorf("not a mapping object: %w", err)
	}
	if dec.More() {
		return m, fmt.Errorf("not a mapping object: trailing data")
	}
	return m, nil
}

// CheckMapping checks m against the contract op: every mapping must parse,
// and every contract path it names must exist in the message it applies
// to. It returns the problems, none when m is usable. A nil op is one
// problem (no contract).
func CheckMapping(op *xsd.Operation, m model.Mapping) []Problem {
	return checkMapping(shapes{}, op, m)
}

func checkMapping(c shapes, op *xsd.Operation, m model.Mapping) []Problem {
	if op == nil {
		return []Problem{{Section: "contract", Reason: "the operation has no contract in its WSDL import"}}
	}
	var probs []Problem
	in, out := c.of(op.Input), c.of(op.Output)
	probs = append(probs, checkSection("requestMapping", m.RequestMapping, in, true)...)
	probs = append(probs, checkSection("responseMapping", m.ResponseMapping, out, false)...)
	probs = append(probs, checkSection("faultMapping", m.FaultMapping, faultShape(op), false)...)
	return probs
}

// faultShape merges the shapes of every declared fault's detail
// (xsd.Fault.DetailMessage: one member per detail element, named by its
// local name).
func faultShape(op *xsd.Operation) *Shape {
	merged := newShape()
	for _, f := range op.Faults {
		merged.addMessage(f.DetailMessage())
	}
	return merged
}

// faultDetail is the member of the JSON fault shape holding the detail; a
// pick path is a path in the fault ("detail/NoSuchCodeLit/code").
const faultDetail = "detail"

// checkSection checks one direction's mapping against its message shape.
func checkSection(section string, raw json.RawMessage, shape *Shape, request bool) []Problem {
	m, err := ParseMessageMapping(raw)
	if err != nil {
		return []Problem{{Section: section, Reason: err.Error()}}
	}
	var probs []Problem
	bad := func(field, reason string) {
		probs = append(probs, Problem{Section: section, Field: field, Reason: reason})
	}
	if m.Mode != "" && m.Mode != ModeIdentity {
		bad("mode", `must be "identity"`)
	}
	known := func(kind, path string) {
		if !shape.Has(path) && !(path != "" && shape.Any()) {
			bad(path, kind+" names a field the contract lacks")
		}
	}
	seen := map[string]bool{}
	for _, path := range sortedKeys(m.Rename) {
		known("rename", path)
		name := m.Rename[path]
		if name == "" || strings.ContainsAny(name, "/") {
			bad(path, "rename target must be a non-empty member name without '/'")
		}
		if seen[parentOf(path)+"/"+name] {
			bad(path, "rename target "+name+" is used twice in one object")
		}
		seen[parentOf(path)+"/"+name] = true
	}
	for _, path := range m.Omit {
		known("omit", path)
	}
	if len(m.Pick) > 0 && section != "faultMapping" {
		bad("pick", "pick applies to the fault mapping only")
	}
	for _, path := range m.Pick {
		if path == faultDetail {
			continue
		}
		if rest, ok := strings.CutPrefix(path, faultDetail+"/"); !ok || !shape.Has(rest) && !(rest != "" && shape.Any()) {
			bad(path, "pick (detail/<detail element>/…) names a field the contract lacks")
		}
	}
	if !request && (m.RestMethod != "" || m.RestPath != "" || len(m.Query) > 0 || m.Body != "") {
		bad("restPath", "restMethod, restPath, query and body apply to the request mapping only")
	}
	if request {
		probs = append(probs, checkRESTTarget(section, m, shape)...)
	}
	return probs
}

// checkRESTTarget checks the consume REST call of a request mapping.
func checkRESTTarget(section string, m MessageMapping, shape *Shape) []Problem {
	var probs []Problem
	bad := func(field, reason string) {
		probs = append(probs, Problem{Section: section, Field: field, Reason: reason})
	}
	if m.RestMethod != "" && !slices.Contains(RestMethods, m.RestMethod) {
		bad("restMethod", "must be one of "+strings.Join(RestMethods, ", "))
	}
	if m.RestPath != "" {
		for _, p := range CheckRestPath(m.RestPath, shape) {
			bad("restPath", p)
		}
	}
	for _, name := range sortedKeys(m.Query) {
		if !queryName.MatchString(name) {
			bad("query", "query parameter name "+name+" is not a valid name")
		}
		if path := m.Query[name]; !shape.Has(path) && !shape.Any() {
			bad(path, "query names a field the contract lacks")
		}
	}
	if m.Body != "" && m.Body != "-" && m.Body != "/" {
		if !strings.HasPrefix(m.Body, "/") || !shape.Has(pointerPath(m.Body)) {
			bad("body", "body must be \"/\", \"-\" or a JSON Pointer to a field of the request")
		}
	}
	return probs
}

var queryName = regexp.MustCompile(`^[A-Za-z0-9_.\-~]{1,64}$`)

// pointerPath turns a JSON Pointer into a contract path: "/a/0/b" and
// "/a/*/b" become "a/b".
func pointerPath(ptr string) string {
	var segs []string
	for _, s := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		s = strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
		if s == "*" || isIndex(s) {
			continue
		}
		segs = append(segs, s)
	}
	return strings.Join(segs, "/")
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func parentOf(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[:i]
	}
	return ""
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
