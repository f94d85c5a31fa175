package admin

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/s2r-project/s2r/internal/admin/drafts"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
)

// serviceBody documents the body of POST /services and PATCH
// /services/{serviceId}; the handlers decode members one by one, so that
// absent, null and wrongly typed members are told apart. serviceKey,
// environment and direction are accepted on creation only.
type serviceBody struct {
	ServiceKey                    *string         `json:"serviceKey,omitempty"`
	ServiceName                   *string         `json:"serviceName,omitempty"`
	Environment                   *string         `json:"environment,omitempty"`
	Direction                     *string         `json:"direction,omitempty"`
	Status                        *string         `json:"status,omitempty"`
	DebugEnabled                  *bool           `json:"debugEnabled,omitempty"`
	Description                   *string         `json:"description,omitempty"`
	BackendRoutingMode            *string         `json:"backendRoutingMode,omitempty"`
	BackendHealthCheckMode        *string         `json:"backendHealthCheckMode,omitempty"`
	BackendHealthCheckIntervalSec *int            `json:"backendHealthCheckIntervalSec,omitempty"`
	DefaultBackendProfileID       *string         `json:"defaultBackendProfileId,omitempty"`
	FaultDetailExposureMode       *string         `json:"faultDetailExposureMode,omitempty"`
	EnvelopeWrapOverride          json.RawMessage `json:"envelopeWrapOverride,omitempty"`
	ErrorShapeOverride            json.RawMessage `json:"errorShapeOverride,omitempty"`
	CallbackAuthMode              *string         `json:"callbackAuthMode,omitempty"`
	// CallbackSecret is write-only (PATCH): a string sets it, null clears it.
	CallbackSecret *string `json:"callbackSecret,omitempty"`
}

// serviceField applies one member of a service body to svc.
type serviceField struct {
	createOnly bool
	apply      func(svc *model.Service, v jsontext.Value) error
}

// serviceFields are the members of serviceBody, by JSON name.
var serviceFields = map[string]serviceField{
	"serviceKey":  {createOnly: true, apply: keyField("serviceKey", func(s *model.Service) *string { return &s.ServiceKey })},
	"environment": {createOnly: true, apply: keyField("environment", func(s *model.Service) *string { return &s.Environment })},
	"direction": {createOnly: true, apply: enumField("direction", func(s *model.Service) *string { return &s.Direction },
		model.DirectionPublish, model.DirectionConsume, model.DirectionGateway)},
	"serviceName": {apply: textField("serviceName", 1, 200, func(s *model.Service) *string { return &s.ServiceName })},
	"description": {apply: textField("description", 0, 2000, func(s *model.Service) *string { return &s.Description })},
	"status": {apply: func(s *model.Service, v jsontext.Value) error {
		st, err := adminapi.StringMember("status", v)
		if err != nil {
			return err
		}
		if st == model.ServiceDeprecated {
			return adminapi.FieldError("status", "deprecated is set by DELETE /services/{serviceId}, not by PATCH")
		}
		if st != model.ServiceActive && st != model.ServiceDisabled {
			return adminapi.FieldError("status", "must be active or disabled")
		}
		s.Status = st
		return nil
	}},
	"debugEnabled": {apply: func(s *model.Service, v jsontext.Value) error {
		if v.Kind() != 't' && v.Kind() != 'f' {
			return adminapi.FieldError("debugEnabled", "must be a boolean")
		}
		s.DebugEnabled = v.Kind() == 't'
		return nil
	}},
	"backendRoutingMode": {apply: enumField("backendRoutingMode", func(s *model.Service) *string { return &s.BackendRoutingMode },
		model.RoutingSingle, model.RoutingActivePassive, model.RoutingRoundRobin)},
	"backendHealthCheckMode": {apply: enumField("backendHealthCheckMode", func(s *model.Service) *string { return &s.BackendHealthCheckMode },
		model.HealthCheckNone, model.HealthCheckPing, model.HealthCheckTCP, model.HealthCheckWSDLFetch)},
	"backendHealthCheckIntervalSec": {apply: func(s *model.Service, v jsontext.Value) error {
		n, err := adminapi.IntMember("backendHealthCheckIntervalSec", v, 5, 3600)
		if err != nil {
			return err
		}
		s.BackendHealthCheckIntervalSec = n
		return nil
	}},
	"defaultBackendProfileId": {apply: func(s *model.Service, v jsontext.Value) error {
		if v.Kind() == 'n' {
			s.DefaultBackendProfileID = nil
			return nil
		}
		id, err := adminapi.StringMember("defaultBackendProfileId", v)
		if err != nil || id == "" || len(id) > 64 {
			return adminapi.FieldError("defaultBackendProfileId", "must be a backend profile id or null")
		}
		s.DefaultBackendProfileID = &id
		return nil
	}},
	"faultDetailExposureMode": {apply: enumField("faultDetailExposureMode", func(s *model.Service) *string { return &s.FaultDetailExposureMode },
		model.FaultDetailSafe, model.FaultDetailFull)},
	"callbackAuthMode": {apply: enumField("callbackAuthMode", func(s *model.Service) *string { return &s.CallbackAuthMode },
		model.CallbackAuthNone, model.CallbackAuthSharedSecret)},
	"envelopeWrapOverride": {apply: func(s *model.Service, v jsontext.Value) error {
		raw, err := checkEnvelopeWrap(v)
		s.EnvelopeWrapOverride = raw
		return err
	}},
	"errorShapeOverride": {apply: func(s *model.Service, v jsontext.Value) error {
		raw, err := checkErrorShape(v)
		s.ErrorShapeOverride = raw
		return err
	}},
}

// applyServiceMembers applies the members of a decoded body to svc in name
// order; create allows the create-only members.
func applyServiceMembers(svc *model.Service, members map[string]jsontext.Value, create bool) error {
	names := make([]string, 0, len(members))
	for name := range members {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		f, ok := serviceFields[name]
		switch {
		case !ok:
			return adminapi.FieldError(name, "unknown field")
		case f.createOnly && !create:
			return adminapi.FieldError(name, "cannot be changed after creation")
		}
		if err := f.apply(svc, members[name]); err != nil {
			return err
		}
	}
	return nil
}

func keyField(field string, dst func(*model.Service) *string) func(*model.Service, jsontext.Value) error {
	return func(s *model.Service, v jsontext.Value) error {
		k, err := adminapi.StringMember(field, v)
		if err != nil {
			return err
		}
		if !drafts.KeyPattern.MatchString(k) {
			return adminapi.FieldError(field, "must match ^[a-z0-9][a-z0-9-]{0,62}$")
		}
		*dst(s) = k
		return nil
	}
}

func textField(field string, lo, hi int, dst func(*model.Service) *string) func(*model.Service, jsontext.Value) error {
	return func(s *model.Service, v jsontext.Value) error {
		t, err := adminapi.StringMember(field, v)
		if err != nil {
			return err
		}
		t = strings.TrimSpace(t)
		if n := len([]rune(t)); n < lo || n > hi {
			return adminapi.FieldError(field, "must be "+itoa(lo)+" to "+itoa(hi)+" characters")
		}
		*dst(s) = t
		return nil
	}
}

func enumField(field string, dst func(*model.Service) *string, values ...string) func(*model.Service, jsontext.Value) error {
	return func(s *model.Service, v jsontext.Value) error {
		t, err := adminapi.StringMember(field, v)
		if err != nil {
			return err
		}
		if !slices.Contains(values, t) {
			return adminapi.FieldError(field, "must be one of "+strings.Join(values, ", "))
		}
		*dst(s) = t
		return nil
	}
}

// envelopeInclude are the members envelopeWrapOverride.include may name.
var envelopeInclude = []string{"correlationId", "serviceKey", "operationKey", "timestamp"}

// checkServiceOverride checks member (envelopeWrapOverride or
// errorShapeOverride) of a service given in a bundle (bundle.Config).
func checkServiceOverride(member string, v json.RawMessage) error {
	var err error
	if member == "envelopeWrapOverride" {
		_, err = checkEnvelopeWrap(jsontext.Value(v))
	} else {
		_, err = checkErrorShape(jsontext.Value(v))
	}
	return err
}

// checkEnvelopeWrap validates an envelopeWrapOverride: null, or
// {"dataField": name, "include": {"correlationId": true, …}}.
func checkEnvelopeWrap(v jsontext.Value) (json.RawMessage, error) {
	if v.Kind() == 'n' {
		return nil, nil
	}
	var o struct {
		DataField *string          `json:"dataField"`
		Include   map[string]*bool `json:"include"`
	}
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.DisallowUnknownFields()
	if v.Kind() != '{' || dec.Decode(&o) != nil {
		return nil, adminapi.FieldError("envelopeWrapOverride", `must be null or an object {"dataField": name, "include": {member: boolean}}`)
	}
	if o.DataField == nil || *o.DataField == "" || len(*o.DataField) > 64 {
		return nil, adminapi.FieldError("envelopeWrapOverride.dataField", "must be a member name of 1 to 64 characters")
	}
	for name, b := range o.Include {
		if !slices.Contains(envelopeInclude, name) || b == nil {
			return nil, adminapi.FieldError("envelopeWrapOverride.include."+name, "must be one of "+strings.Join(envelopeInclude, ", ")+" with a boolean")
		}
		if name == *o.DataField {
			return nil, adminapi.FieldError("envelopeWrapOverride.include."+name, "collides with dataField")
		}
	}
	return compactJSON(v), nil
}

// errorPlaceholder finds ${name} placeholders.
var errorPlaceholder = regexp.MustCompile(`\$\{([^}]*)\}`)

// errorPlaceholders are the placeholders errorShapeOverride may use.
var errorPlaceholders = []string{"code", "message", "correlationId", "details", "status"}

// checkErrorShape validates an errorShapeOverride: null, or an object
// template of at most 16 KB and 8 levels whose strings may hold the
// placeholders ${code}, ${message}, ${correlationId}, ${status} and, as a
// whole string, ${details}.
func checkErrorShape(v jsontext.Value) (json.RawMessage, error) {
	if v.Kind() == 'n' {
		return nil, nil
	}
	if v.Kind() != '{' || len(v) > 16<<10 {
		return nil, adminapi.FieldError("errorShapeOverride", "must be null or a JSON object of at most 16 KB")
	}
	var tmpl any
	if err := json.Unmarshal(v, &tmpl); err != nil {
		return nil, adminapi.FieldError("errorShapeOverride", "must be a JSON object")
	}
	if err := walkTemplate(tmpl, "errorShapeOverride", 0); err != nil {
		return nil, err
	}
	return compactJSON(v), nil
}

func walkTemplate(v any, path string, depth int) error {
	if depth > 8 {
		return adminapi.FieldError(path, "is nested more than 8 levels")
	}
	switch t := v.(type) {
	case map[string]any:
		for k, c := range t {
			if err := walkTemplate(c, path+"."+k, depth+1); err != nil {
				return err
			}
		}
	case []any:
		for i, c := range t {
			if err := walkTemplate(c, path+"["+itoa(i)+"]", depth+1); err != nil {
				return err
			}
		}
	case string:
		for _, m := range errorPlaceholder.FindAllStringSubmatch(t, -1) {
			if !slices.Contains(errorPlaceholders, m[1]) {
				return adminapi.FieldError(path, "unknown placeholder ${"+m[1]+"}; use "+strings.Join(errorPlaceholders, ", "))
			}
			if m[1] == "details" && t != "${details}" {
				return adminapi.FieldError(path, "${details} must be the whole string value")
			}
		}
	}
	return nil
}

// compactJSON returns v without insignificant white space.
func compactJSON(v jsontext.Value) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, v); err != nil {
		return json.RawMessage(bytes.Clone(v))
	}
	return b.Bytes()
}
