package admin

import (
	"testing"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestTransformRuleKinds: every kind of SPEC 2.3 is accepted with valid
// parameters, and each invalid parameter set answers 400 naming the rule's
// index and kind.
func TestTransformRuleKinds(t *testing.T) {
	api := newTestAPI(t, storetest.SQLite(t))
	_, d := api.consumeDraft("calc", calcOps)
	path := Prefix + "/operations/" + d.Operations[2].OperationID + "/transform-rules"
	api.Do("PUT", path, operatorEmail, `{"rules":[
		{"kind":"trim","field":"/id"},
		{"kind":"uppercase","field":"/id"},
		{"kind":"lowercase","field":"/lang"},
		{"kind":"default_value","field":"/lang","params":{"value":"en"}},
		{"kind":"split","field":"/lang","params":{"separator":","}},
		{"kind":"join","field":"/lang","params":{"separator":";"}},
		{"kind":"date_format","field":"/when","params":{"from":"dd/MM/yyyy","to":"yyyy-MM-dd"}},
		{"kind":"rename","field":"/id","params":{"to":"code"}}]}`).WantStatus(t, 200)
	for _, tc := range []struct{ name, rule, kind string }{
		{"trim no pointer", `{"kind":"trim","field":"id"}`, "trim"},
		{"uppercase params", `{"kind":"uppercase","field":"/id","params":{"x":1}}`, "uppercase"},
		{"default without value", `{"kind":"default_value","field":"/lang"}`, "default_value"},
		{"rename without to", `{"kind":"rename","field":"/id","params":{}}`, "rename"},
		{"split empty separator", `{"kind":"split","field":"/id","params":{"separator":""}}`, "split"},
		{"split zero limit", `{"kind":"split","field":"/id","params":{"separator":",","limit":0}}`, "split"},
		{"join without separator", `{"kind":"join","field":"/id"}`, "join"},
		{"date without to", `{"kind":"date_format","field":"/id","params":{"from":"yyyy"}}`, "date_format"},
		{"unknown kind", `{"kind":"reverse","field":"/id"}`, "reverse"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := api.Do("PUT", path, operatorEmail, `{"rules":[{"kind":"trim","field":"/id"},`+tc.rule+`]}`).WantFieldError(
				t, 400, apierr.ValBadRequest, "rules[1]")

			if e.Error.Details["index"] != float64(1) || e.Error.Details["kind"] != tc.kind || e.Error.Details["reason"] == "" {
				t.Errorf("details = %v", e.Error.Details)
			}
		})
	}
}
