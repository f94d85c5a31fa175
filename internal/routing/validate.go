package routing

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/s2r-project/s2r/internal/model"
)

// FieldRule is a compiled validation rule: an RE2 pattern every value at a
// JSON Pointer (with "*" for every array item) must match.
type FieldRule struct {
	Field   string
	Pattern string
	Message string
	re      *regexp.Regexp
	segs    []string
}

// CompileRule compiles a stored validation rule.
func CompileRule(r model.ValidationRule) (FieldRule, error) {
	re, err := regexp.Compile(r.Pattern)
	if err != nil {
		return FieldRule{}, fmt.Errorf("validation rule %s: %w", r.Field, err)
	}
	segs, err := pointerSegments(r.Field)
	if err != nil {
		return FieldRule{}, fmt.Errorf("validation rule %s: %w", r.Field, err)
	}
	return FieldRule{Field: r.Field, Pattern: r.Pattern, Message: r.Message, re: re, segs: segs}, nil
}

func pointerSegments(p string) ([]string, error) {
	if p == "" || p == "/" {
		return nil, errors.New("the field names the whole document")
	}
	if !strings.HasPrefix(p, "/") {
		return nil, errors.New("the field is not a JSON Pointer")
	}
	segs := strings.Split(p[1:], "/")
	for i, s := range segs {
		segs[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
	}
	return segs, nil
}

// Violation is one failed check: the JSON Pointer of the value and why.
type Violation struct {
	Pointer string `json:"pointer"`
	Reason  string `json:"reason"`
}

// Check returns the violations of the rule in doc, a value decoded by
// DecodeJSON. Absent fields and nulls pass; strings, numbers (their exact
// text) and booleans are matched; objects and arrays reached by the
// pointer itself fail, since a pattern cannot apply to them.
func (r *FieldRule) Check(doc any) []Violation {
	var out []Violation
	r.walk(doc, 0, "", &out)
	return out
}

func (r *FieldRule) walk(v any, i int, at string, out *[]Violation) {
	if i == len(r.segs) {
		r.match(v, at, out)
		return
	}
	seg := r.segs[i]
	switch x := v.(type) {
	case map[string]any:
		if c, ok := x[seg]; ok {
			r.walk(c, i+1, at+"/"+escapePointer(seg), out)
		}
	case []any:
		if seg == "*" {
			for j, c := range x {
				r.walk(c, i+1, at+"/"+strconv.Itoa(j), out)
			}
			return
		}
		if j, err := strconv.Atoi(seg); err == nil && j >= 0 && j < len(x) {
			r.walk(x[j], i+1, at+"/"+seg, out)
		}
	}
}

func (r *FieldRule) match(v any, at string, out *[]Violation) {
	var s string
	switch x := v.(type) {
	case nil:
		return
	case string:
		s = x
	case json.Number:
		s = string(x)
	case bool:
		s = strconv.FormatBool(x)
	default:
		*out = append(*out, Violation{Pointer: at, Reason: "the pattern applies to a simple value, not an object or array"})
		return
	}
	if r.re.MatchString(s) {
		return
	}
	reason := r.Message
	if reason == "" {
		reason = "does not match the pattern " + r.Pattern
	}
	*out = append(*out, Violation{Pointer: at, Reason: reason})
}

func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// CheckRules runs every rule on doc.
func CheckRules(rules []FieldRule, doc any) []Violation {
	var out []Violation
	for i := range rules {
		out = append(out, rules[i].Check(doc)...)
	}
	return out
}

// DecodeJSON decodes a JSON document for schema and rule checks, keeping
// numbers exact (json.Number). It refuses trailing data.
func DecodeJSON(b []byte) (any, error) {
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

// CompileSchema compiles a JSON Schema document (such as
// xsd.JSONSchemaDoc.Document()) under a private URL.
func CompileSchema(url string, doc map[string]any) (*jsonschema.Schema, error) {
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("json schema: %w", err)
	}
	v, err := DecodeJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("json schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(url, v); err != nil {
		return nil, fmt.Errorf("json schema: %w", err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("json schema: %w", err)
	}
	return s, nil
}

// maxViolations bounds the violations reported for one document.
const maxViolations = 50

// SchemaViolations validates doc against s and returns the failing JSON
// Pointers (leaf errors, sorted, at most 50), nil when doc is valid.
// Numbers are compared exactly. A number beyond the range the validator
// can compare (outOfRangeNumbers) is reported instead of validating.
func SchemaViolations(s *jsonschema.Schema, doc any) []Violation {
	out, _ := schemaLeaves(s, doc, nil, false)
	return out
}

// schemaLeaves validates doc against s and returns its distinct leaf
// violations that keep accepts (all when keep is nil), at most
// maxViolations of them sorted, and how many there are in all. split
// makes each undeclared member its own violation (leafViolations).
func schemaLeaves(s *jsonschema.Schema, doc any, keep func(*jsonschema.ValidationError) bool, split bool) ([]Violation, int) {
	if out := outOfRangeNumbers(doc); len(out) > 0 {
		return out, len(out)
	}
	err := s.Validate(doc)
	if err == nil {
		return nil, 0
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Violation{{Pointer: "", Reason: err.Error()}}, 1
	}
	var out []Violation
	found := 0
	seen := map[Violation]bool{}
	var leaves func(e *jsonschema.ValidationError)
	leaves = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				leaves(c)
			}
			return
		}
		if keep != nil && !keep(e) {
			return
		}
		vs := []Violation{{Pointer: instancePointer(e.InstanceLocation), Reason: leafReason(e, doc)}}
		if split {
			vs = leafViolations(e, doc)
		}
		for _, v := range vs {
			if !seen[v] {
				seen[v] = true
				found++
				if len(out) < maxViolations {
					out = append(out, v)
				}
			}
		}
	}
	leaves(ve)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pointer < out[j].Pointer })
	return out, found
}

func instancePointer(loc []string) string {
	var b strings.Builder
	for _, s := range loc {
		b.WriteByte('/')
		b.WriteString(escapePointer(s))
	}
	return b.String()
}
