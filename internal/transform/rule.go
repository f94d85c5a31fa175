package transform

import (
	"fmt"
	"sort"
	"strings"
)

// Kind is a transform rule kind.
type Kind string

// The rule kinds of SPEC 2.3.
const (
	KindTrim         Kind = "trim"
	KindUppercase    Kind = "uppercase"
	KindLowercase    Kind = "lowercase"
	KindDefaultValue Kind = "default_value"
	KindRename       Kind = "rename"
	KindSplit        Kind = "split"
	KindJoin         Kind = "join"
	KindDateFormat   Kind = "date_format"
)

// Kinds lists every kind, in documentation order.
var Kinds = []Kind{KindTrim, KindUppercase, KindLowercase, KindDefaultValue, KindRename, KindSplit, KindJoin, KindDateFormat}

// Rule is one stored transform rule. Params per kind:
//
//	trim, uppercase, lowercase  none; the value must be a string (or an
//	                            array of strings via a trailing "*");
//	                            trim removes Unicode white space at both
//	                            ends; case uses Unicode simple case
//	                            mapping (strings.ToUpper: "ß" stays "ß")
//	default_value  value (any non-null JSON, required): set when the
//	               member is absent (appended last) or null (replaced in
//	               place); the parent object must exist; objects inside
//	               value are written with sorted keys (Params is a map)
//	rename         to (string, required): new member name in the same
//	               object; the member keeps its position; an existing
//	               member of that name is an error
//	split          separator (non-empty string, required), limit (integer
//	               ≥ 1, optional: at most that many parts, the last holding
//	               the rest); string → array of strings, "" → []
//	join           separator (string, required, may be ""): array of
//	               strings → string
//	date_format    from, to (date patterns, required; see "Date
//	               patterns" in the package documentation): string →
//	               string
type Rule struct {
	Kind   Kind           `json:"kind"`
	Field  string         `json:"field"`
	Params map[string]any `json:"params,omitempty"`
}

// RuleError is a rule that cannot be compiled. The admin API answers it
// with 400 S2R-VAL-0400 and these fields as details.
type RuleError struct {
	Index  int    `json:"index"`
	Field  string `json:"field"`
	Reason string `json:"reason"`
	Kind   string `json:"kind"`
}

// Error implements error.
func (e *RuleError) Error() string {
	return fmt.Sprintf("transform rule %d (%s on %q): %s", e.Index, e.Kind, e.Field, e.Reason)
}

// ApplyError is a rule that failed on a document. Field is the concrete
// pointer of the offending value (wildcards resolved).
type ApplyError struct {
	Index  int
	Kind   Kind
	Field  string
	Reason string
}

// Error implements error.
func (e *ApplyError) Error() string {
	return fmt.Sprintf("transform rule %d (%s) at %q: %s", e.Index, e.Kind, e.Field, e.Reason)
}

// Program is a compiled, immutable list of rules.
type Program struct {
	steps []step
}

// step is one compiled rule.
type step struct {
	index int
	kind  Kind
	path  path
	run   func(st *step, root *node) error
	// parameters, by kind
	value     *node
	nameRaw   []byte // quoted member name default_value creates
	to        string
	toRaw     []byte // quoted new name of rename
	separator string
	limit     int
	from, out *datePattern
}

// Len returns the number of rules.
func (p *Program) Len() int { return len(p.steps) }

// Compile validates every rule and compiles them in order. The first
// invalid rule is reported as a *RuleError.
func Compile(rules []Rule) (*Program, error) {
	p := &Program{steps: make([]step, 0, len(rules))}
	for i, r := range rules {
		st, reason := compileRule(r)
		if reason != "" {
			return nil, &RuleError{Index: i, Field: r.Field, Kind: string(r.Kind), Reason: reason}
		}
		st.index = i
		p.steps = append(p.steps, st)
	}
	return p, nil
}

func compileRule(r Rule) (step, string) {
	c, ok := compilers[r.Kind]
	if !ok {
		return step{}, unknownKind(r.Kind)
	}
	pth, err := parsePath(r.Field)
	if err != nil {
		return step{}, err.Error()
	}
	st := step{kind: r.Kind, path: pth}
	if reason := checkParamNames(r.Params, c.params); reason != "" {
		return step{}, reason
	}
	if reason := c.compile(&st, r.Params); reason != "" {
		return step{}, reason
	}
	return st, ""
}

func unknownKind(k Kind) string {
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = string(k)
	}
	if k == "" {
		return "kind is missing; known kinds: " + strings.Join(names, ", ")
	}
	return fmt.Sprintf("unknown kind %q; known kinds: %s", string(k), strings.Join(names, ", "))
}

// checkParamNames refuses parameters the kind does not take, so typos are
// caught on save.
func checkParamNames(params map[string]any, allowed []string) string {
	names := make([]string, 0, len(params))
	for name := range params {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		found := false
		for _, a := range allowed {
			found = found || a == name
		}
		if !found {
			if len(allowed) == 0 {
				return fmt.Sprintf("unknown parameter %q; this kind takes no parameters", name)
			}
			return fmt.Sprintf("unknown parameter %q; allowed: %s", name, strings.Join(allowed, ", "))
		}
	}
	return ""
}
