package backends

import (
	"math"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/limit"
	"github.com/s2r-project/s2r/internal/model"
)

// protectionBody documents the backend protection members of a profile
// body (DESIGN 10.6): null caps are unlimited; queueTimeoutMs 0 refuses a
// call over a cap at once. They apply on each instance separately.
type protectionBody struct {
	MaxConcurrentRequests *int64   `json:"maxConcurrentRequests,omitempty"`
	MaxRequestsPerSecond  *float64 `json:"maxRequestsPerSecond,omitempty"`
	QueueTimeoutMs        int64    `json:"queueTimeoutMs,omitempty"`
}

// setMaxConcurrentRequests, setMaxRequestsPerSecond and setQueueTimeoutMs
// are the profileFields of the protection members; their bounds are
// checked as a whole by checkProtection.
func setMaxConcurrentRequests(p *model.BackendProfile, v jsontext.Value) (err error) {
	p.MaxConcurrentRequests, err = nullableInt64("maxConcurrentRequests", v)
	return err
}

func setMaxRequestsPerSecond(p *model.BackendProfile, v jsontext.Value) error {
	if v.Kind() == 'n' {
		p.MaxRequestsPerSecond = nil
		return nil
	}
	var f float64
	if v.Kind() != '0' || json.Unmarshal(v, &f) != nil {
		return adminapi.FieldError("maxRequestsPerSecond", "must be a number or null (unlimited)")
	}
	p.MaxRequestsPerSecond = &f
	return nil
}

func setQueueTimeoutMs(p *model.BackendProfile, v jsontext.Value) error {
	n, err := nullableInt64("queueTimeoutMs", v)
	if err == nil && n == nil {
		err = adminapi.FieldError("queueTimeoutMs", "must be an integer (0 refuses at once)")
	}
	if err != nil {
		return err
	}
	p.QueueTimeoutMs = *n
	return nil
}

// nullableInt64 reads a JSON integer or null; a fraction or a number out
// of int64's range is refused, naming field.
func nullableInt64(field string, v jsontext.Value) (*int64, error) {
	if v.Kind() == 'n' {
		return nil, nil
	}
	var f float64
	if v.Kind() != '0' || json.Unmarshal(v, &f) != nil || f != math.Trunc(f) || math.Abs(f) > 1e15 {
		return nil, adminapi.FieldError(field, "must be an integer or null (unlimited)")
	}
	n := int64(f)
	return &n, nil
}

// checkProtection validates the protection fields of p: 400 S2R-VAL-0400
// naming the first field out of bounds.
func checkProtection(p model.BackendProfile) error {
	err := limit.BackendSettings(p.Protection()).Validate()
	if fe, ok := err.(*model.FieldError); ok {
		return adminapi.FieldError(fe.Field, fe.Reason)
	}
	return err
}
