package catalog

import (
	"errors"
	"slices"
	"strings"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/transform"
	"github.com/s2r-project/s2r/internal/xsd"
)

// Publish readiness statuses (SPEC 3.3).
const (
	ReadyToPublish = "READY_TO_PUBLISH"
	ReadyWithRisk  = "READY_WITH_RISK"
	Blocked        = "BLOCKED"
)

// Check results.
const (
	CheckPass = "pass"
	CheckWarn = "warn"
	CheckFail = "fail"
)

// ReadinessInput is what a publish-readiness assessment looks at.
type ReadinessInput struct {
	Service    model.Service
	Operations []model.Operation
	// Contracts holds the contract of each operation by operation id; an
	// operation without an entry (or with nil) has no contract.
	Contracts map[string]*xsd.Operation
	// Mappings holds the active mapping of each operation by operation id.
	Mappings map[string]model.Mapping
	// BackendProfiles is the number of backend profiles of the service.
	BackendProfiles int
	// ProfilesWithoutURL names (by profile id) the backend profiles that
	// have no endpoint URL yet: autopilot leaves it empty when the WSDL's
	// soap:address is not an absolute http(s) URL and none was given.
	ProfilesWithoutURL []string
}

// Check is one readiness check.
type Check struct {
	Name    string `json:"name"`
	Status  string `json:"status"` // pass, warn or fail
	Message string `json:"message"`
}

// Issue is a blocking issue, or a risk, of a readiness assessment.
type Issue struct {
	Code         string `json:"code"`
	Message      string `json:"message"`
	OperationID  string `json:"operationId,omitempty"`
	OperationKey string `json:"operationKey,omitempty"`
}

// ReadinessReport is a publish-readiness assessment: BLOCKED when any
// check fails, READY_WITH_RISK when any warns, else READY_TO_PUBLISH.
type ReadinessReport struct {
	Status             string                 `json:"status"`
	Checks             []Check                `json:"checks"`
	BlockingIssues     []Issue                `json:"blockingIssues"`
	Risks              []Issue                `json:"risks"`
	SuggestedActions   []string               `json:"suggestedActions"`
	MappingDiagnostics map[string]Diagnostics `json:"-"`
	MappingSummary     Summary                `json:"mappingSummary"`
}

// Readiness assesses whether a version can be activated.
func Readiness(in ReadinessInput) ReadinessReport {
	r := &readiness{in: in, shapes: shapes{}, rep: ReadinessReport{Checks: []Check{}, BlockingIssues: []Issue{}, Risks: []Issue{},
		SuggestedActions: []string{}, MappingDiagnostics: map[string]Diagnostics{}, MappingSummary: NewSummary()}}
	r.operations()
	r.routes()
	r.mappings()
	r.rules()
	r.backend()
	r.service()
	r.rep.Status = ReadyToPublish
	for _, c := range r.rep.Checks {
		if c.Status == CheckFail {
			r.rep.Status = Blocked
			break
		}
		if c.Status == CheckWarn {
			r.rep.Status = ReadyWithRisk
		}
	}
	return r.rep
}

type readiness struct {
	in     ReadinessInput
	shapes shapes
	rep    ReadinessReport
}

// check records a check with its issues: fail issues block, warn issues
// are risks.
func (r *readiness) check(name, passMsg string, status string, issues []Issue, action string) {
	msg := passMsg
	if status != CheckPass && len(issues) > 0 {
		msgs := make([]string, 0, len(issues))
		for _, is := range issues {
			msgs = append(msgs, is.Message)
		}
		msg = strings.Join(msgs, "; ")
	}
	r.rep.Checks = append(r.rep.Checks, Check{Name: name, Status: status, Message: msg})
	switch status {
	case CheckFail:
		r.rep.BlockingIssues = append(r.rep.BlockingIssues, issues...)
	case CheckWarn:
		r.rep.Risks = append(r.rep.Risks, issues...)
	}
	if status != CheckPass && action != "" && !slices.Contains(r.rep.SuggestedActions, action) {
		r.rep.SuggestedActions = append(r.rep.SuggestedActions, action)
	}
}

func (r *readiness) operations() {
	if len(r.in.Operations) == 0 {
		r.check("operations", "", CheckFail, []Issue{{Code: "NO_OPERATIONS", Message: "the version has no operations"}},
			"import the WSDL again or generate a replacement draft from a newer import")
		return
	}
	r.check("operations", itoa(len(r.in.Operations))+" operations", CheckPass, nil, "")
}

func (r *readiness) routes() {
	var issues []Issue
	for _, op := range r.in.Operations {
		if !slices.Contains(RestMethods, op.RestMethod) {
			issues = append(issues, opIssue("INVALID_REST_METHOD", op, "restMethod "+op.RestMethod+" is not supported"))
		}
		for _, p := range CheckRestPath(op.RestPath, r.inputShape(op)) {
			issues = append(issues, opIssue("INVALID_REST_PATH", op, "restPath "+op.RestPath+": "+p))
		}
	}
	conflicts := RouteConflicts(r.in.Operations)
	for _, k := range sortedSliceKeys(conflicts) {
		issues = append(issues, Issue{Code: "DUPLICATE_REST_ROUTE",
			Message: "operations " + strings.Join(conflicts[k], ", ") + " share the REST route " + k})
	}
	status := CheckPass
	if len(issues) > 0 {
		status = CheckFail
	}
	r.check("restRoutes", "every operation has its own valid REST route", status, issues,
		"give each operation a distinct restMethod and restPath (PATCH /operations/{operationId})")
}

func (r *readiness) inputShape(op model.Operation) *Shape {
	c := r.in.Contracts[op.OperationID]
	if c == nil {
		return nil
	}
	return r.shapes.of(c.Input)
}

func (r *readiness) mappings() {
	var manual, warned []Issue
	for _, op := range r.in.Operations {
		m, ok := r.in.Mappings[op.OperationID]
		var d Diagnostics
		if !ok {
			d = Diagnostics{Status: ManualRequired, Reasons: []Reason{{Code: "NO_MAPPING", Severity: "blocking", Message: "the operation has no active mapping"}}}
		} else {
			d = diagnose(r.shapes, r.in.Contracts[op.OperationID], m)
		}
		r.rep.MappingDiagnostics[op.OperationID] = d
		r.rep.MappingSummary[d.Status]++
		switch d.Status {
		case ManualRequired:
			manual = append(manual, opIssue("MANUAL_MAPPING_REQUIRED", op, "operation "+op.OperationKey+" needs a manual mapping: "+firstReason(d, "blocking")))
		case AutoReadyWithWarnings:
			warned = append(warned, opIssue("MAPPING_WARNINGS", op, "operation "+op.OperationKey+": "+firstReason(d, "warning")))
		}
	}
	switch {
	case len(manual) > 0:
		r.check("mappings", "", CheckFail, manual, "fix the mappings reported MANUAL_REQUIRED (GET …/mapping-diagnostics, PUT /operations/{operationId}/mapping)")
		if len(warned) > 0 {
			r.rep.Risks = append(r.rep.Risks, warned...)
		}
	case len(warned) > 0:
		r.check("mappings", "", CheckWarn, warned, "review the mapping warnings and test the operations with sample requests")
	default:
		r.check("mappings", "every mapping is AUTO_READY", CheckPass, nil, "")
	}
}

func firstReason(d Diagnostics, severity string) string {
	for _, rs := range d.Reasons {
		if rs.Severity == severity {
			return rs.Message
		}
	}
	return d.Status
}

func (r *readiness) rules() {
	var issues []Issue
	for _, op := range r.in.Operations {
		for _, p := range checkValidationRules(r.shapes, r.in.Contracts[op.OperationID], op.ValidationRules) {
			issues = append(issues, opIssue("INVALID_VALIDATION_RULE", op,
				"operation "+op.OperationKey+" validation rule "+itoa(p.Index)+" "+p.Field+" "+p.Reason))
		}
		if err := CheckTransformRules(op.TransformRules); err != nil {
			msg := err.Error()
			var re *transform.RuleError
			if errors.As(err, &re) {
				msg = "transform rule " + itoa(re.Index) + " (" + re.Kind + "): " + re.Reason
			}
			issues = append(issues, opIssue("INVALID_TRANSFORM_RULE", op, "operation "+op.OperationKey+" "+msg))
		}
	}
	status := CheckPass
	if len(issues) > 0 {
		status = CheckFail
	}
	r.check("rules", "validation and transform rules compile", status, issues,
		"fix the rules (PATCH …/validation-rules, PUT …/transform-rules)")
}

func (r *readiness) backend() {
	if len(r.in.ProfilesWithoutURL) > 0 {
		issues := make([]Issue, 0, len(r.in.ProfilesWithoutURL))
		for _, id := range r.in.ProfilesWithoutURL {
			issues = append(issues, Issue{Code: "NO_BACKEND_URL", Message: "backend profile " + id + " has no endpoint URL: " +
				"the WSDL's soap:address is not an absolute http(s) URL and no backendUrl was given"})
		}
		r.check("backendProfile", "", CheckFail, issues,
			`set the backend URL: PATCH /backend-profiles/{profileId} with {"endpointUrl": "https://…"}`)
		return
	}
	if r.in.BackendProfiles > 0 {
		r.check("backendProfile", itoa(r.in.BackendProfiles)+" backend profiles", CheckPass, nil, "")
		return
	}
	issue := []Issue{{Code: "NO_BACKEND_PROFILE", Message: "the service has no backend profile"}}
	if r.in.Service.Direction == model.DirectionConsume {
		r.check("backendProfile", "", CheckWarn, issue, "create a backend profile for the REST backend")
		return
	}
	r.check("backendProfile", "", CheckFail, issue, "create a backend profile (POST /services/{serviceId}/backend-profiles)")
}

func (r *readiness) service() {
	var issues []Issue
	if r.in.Service.Status != model.ServiceActive && r.in.Service.Status != "" {
		issues = append(issues, Issue{Code: "SERVICE_NOT_ACTIVE",
			Message: "the service is " + r.in.Service.Status + ": the runtime serves it only while active"})
	}
	for _, op := range r.in.Operations {
		if op.ExecutionMode != model.ExecutionAsyncCallback {
			continue
		}
		switch {
		case r.in.Service.CallbackAuthMode != model.CallbackAuthSharedSecret:
			issues = append(issues, opIssue("CALLBACK_UNAUTHENTICATED", op,
				"operation "+op.OperationKey+" is async_callback but callbacks are not authenticated (callbackAuthMode none)"))
		case !r.in.Service.CallbackSecret.IsSet():
			issues = append(issues, opIssue("CALLBACK_SECRET_MISSING", op,
				"operation "+op.OperationKey+" is async_callback with callbackAuthMode shared_secret but the service has "+
					"no callbackSecret: every callback is refused (401)"))
		}
	}
	status := CheckPass
	if len(issues) > 0 {
		status = CheckWarn
	}
	r.check("service", "the service is active", status, issues, "review the service settings (PATCH /services/{serviceId})")
}

func opIssue(code string, op model.Operation, msg string) Issue {
	return Issue{Code: code, Message: msg, OperationID: op.OperationID, OperationKey: op.OperationKey}
}

func sortedSliceKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
