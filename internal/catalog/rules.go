package catalog

import (
	"errors"
	"regexp"
	"strings"

	"regexp/syntax"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/transform"
	"github.com/s2r-project/s2r/internal/xsd"
)

// maxPatternLen bounds a validation regex.
const maxPatternLen = 4096

// RuleProblem is a validation rule that cannot be saved.
type RuleProblem struct {
	Index  int    `json:"index"`
	Field  string `json:"field"` // the member of the rule at fault: field, pattern, target
	Reason string `json:"reason"`
}

// CheckValidationRules checks rules: every pattern compiles as RE2 (at
// most 4096 bytes), every target is request or response, every field is
// a JSON Pointer to a field of that message of op (skipped when op is nil
// or the message has wildcard content). It returns the first problem of
// each rule, in order.
func CheckValidationRules(op *xsd.Operation, rules []model.ValidationRule) []RuleProblem {
	return checkValidationRules(shapes{}, op, rules)
}

func checkValidationRules(c shapes, op *xsd.Operation, rules []model.ValidationRule) []RuleProblem {
	var out []RuleProblem
	var in, resp *Shape
	if op != nil && len(rules) > 0 {
		in, resp = c.of(op.Input), c.of(op.Output)
	}
	for i, r := range rules {
		if p := checkRule(r, in, resp); p != nil {
			p.Index = i
			out = append(out, *p)
		}
	}
	return out
}

func checkRule(r model.ValidationRule, in, resp *Shape) *RuleProblem {
	switch {
	case r.Target != model.TargetRequest && r.Target != model.TargetResponse:
		return &RuleProblem{Field: "target", Reason: "must be request or response"}
	case r.Pattern == "":
		return &RuleProblem{Field: "pattern", Reason: "is required"}
	case len(r.Pattern) > maxPatternLen:
		return &RuleProblem{Field: "pattern", Reason: "must be at most 4096 bytes"}
	}
	if _, err := regexp.Compile(r.Pattern); err != nil {
		return &RuleProblem{Field: "pattern", Reason: "does not compile: " + regexpReason(err)}
	}
	if !strings.HasPrefix(r.Field, "/") || len(r.Field) < 2 {
		return &RuleProblem{Field: "field", Reason: "must be a JSON Pointer such as /name or /items/*/sku"}
	}
	shape := in
	if r.Target == model.TargetResponse {
		shape = resp
	}
	if shape != nil && !shape.Has(pointerPath(r.Field)) && !shape.Any() {
		return &RuleProblem{Field: "field", Reason: "names a field the " + r.Target + " contract lacks"}
	}
	return nil
}

// regexpReason renders a regexp error without the "error parsing regexp: "
// prefix.
func regexpReason(err error) string {
	var se *syntax.Error
	if errors.As(err, &se) {
		return string(se.Code) + ": `" + se.Expr + "`"
	}
	return strings.TrimPrefix(err.Error(), "error parsing regexp: ")
}

// CheckTransformRules compiles rules; the error is a *transform.RuleError
// naming the rule's index, kind and field.
func CheckTransformRules(rules []transform.Rule) error {
	_, err := transform.Compile(rules)
	return err
}
