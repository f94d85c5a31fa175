package admin

import (
	"errors"
	"net/http"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/transform"
)

// maxRules bounds the rules of one operation.
const maxRules = 200

// validationRulesBody is the body and answer of validation-rules: the
// whole list of an operation's rules.
type validationRulesBody struct {
	Rules []model.ValidationRule `json:"rules"`
}

// transformRulesBody is the body and answer of transform-rules.
type transformRulesBody struct {
	Rules []transform.Rule `json:"rules"`
}

var docGetValidationRules = adminapi.Doc{Summary: "The per-field regex validation rules of an operation.", Response: validationRulesBody{}}

var docPatchValidationRules = adminapi.Doc{
	Summary: "Replace the validation rules of a draft operation. Each rule: field (JSON Pointer into the request or " +
		"response JSON, * for every array item), pattern (RE2, compiled on write), target (request or response), optional " +
		"message. A bad rule is 400 S2R-VAL-0400 with details.index, details.field and details.reason.",
	Request:  validationRulesBody{},
	Response: validationRulesBody{},
	Errors:   []int{http.StatusConflict},
}

var docGetTransformRules = adminapi.Doc{Summary: "The request transform rules of an operation.", Response: transformRulesBody{}}

var docPutTransformRules = adminapi.Doc{
	Summary: "Replace the request transform rules of a draft operation (kinds trim, uppercase, lowercase, default_value, " +
		"rename, split, join, date_format), validated by compiling them. A bad rule is 400 S2R-VAL-0400 with details.index, " +
		"details.kind, details.field and details.reason.",
	Request:  transformRulesBody{},
	Response: transformRulesBody{},
	Errors:   []int{http.StatusConflict},
}

// getValidationRules answers an operation's validation rules.
func (s *server) getValidationRules(w http.ResponseWriter, r *http.Request) error {
	op, err := operationOrNotFound(s.store.Operation(r.Context(), r.PathValue("operationId")))
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, validationRulesBody{Rules: nonNil(op.ValidationRules)})
}

// patchValidationRules replaces an operation's validation rules.
func (s *server) patchValidationRules(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("operationId")
	var body validationRulesBody
	if err := adminapi.DecodeJSON(w, r, &body); err != nil {
		return err
	}
	if body.Rules == nil {
		return adminapi.FieldError("rules", "is required (an empty list removes every rule)")
	}
	if len(body.Rules) > maxRules {
		return adminapi.FieldError("rules", "at most 200 rules")
	}
	ctx := r.Context()
	after, err := s.editOperation(r, id, "operation.validation_rules.update", func(op *model.Operation, v model.Version) error {
		c, err := adminapi.ContractOf(ctx, s.contracts, v, *op)
		if err != nil {
			return err
		}
		if probs := catalog.CheckValidationRules(c, body.Rules); len(probs) > 0 {
			p := probs[0]
			return adminapi.FieldError("rules["+itoa(p.Index)+"]."+p.Field, p.Reason).WithDetail("index", p.Index)
		}
		op.ValidationRules = body.Rules
		return nil
	})
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, validationRulesBody{Rules: nonNil(after.ValidationRules)})
}

// getTransformRules answers an operation's transform rules.
func (s *server) getTransformRules(w http.ResponseWriter, r *http.Request) error {
	op, err := operationOrNotFound(s.store.Operation(r.Context(), r.PathValue("operationId")))
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, transformRulesBody{Rules: nonNil(op.TransformRules)})
}

// putTransformRules replaces an operation's transform rules.
func (s *server) putTransformRules(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("operationId")
	var body transformRulesBody
	if err := adminapi.DecodeJSON(w, r, &body); err != nil {
		return err
	}
	if body.Rules == nil {
		return adminapi.FieldError("rules", "is required (an empty list removes every rule)")
	}
	if len(body.Rules) > maxRules {
		return adminapi.FieldError("rules", "at most 200 rules")
	}
	if err := catalog.CheckTransformRules(body.Rules); err != nil {
		var re *transform.RuleError
		if !errors.As(err, &re) {
			return apierr.Wrap(apierr.ValBadRequest, err, "transform rules are not valid")
		}
		return adminapi.FieldError("rules["+itoa(re.Index)+"]", re.Reason).
			WithDetail("index", re.Index).WithDetail("kind", re.Kind).WithDetail("ruleField", re.Field)
	}
	after, err := s.editOperation(r, id, "operation.transform_rules.update", func(op *model.Operation, _ model.Version) error {
		op.TransformRules = body.Rules
		return nil
	})
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, transformRulesBody{Rules: nonNil(after.TransformRules)})
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
