package catalog

import (
	"encoding/json"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
)

// FuzzCheckMapping feeds arbitrary bytes as every part of a mapping: the
// checks must never panic and must report unparsable input as a problem.
func FuzzCheckMapping(f *testing.F) {
	for _, s := range []string{
		`{"mode":"identity"}`, `{"rename":{"id":"code"}}`, `{"omit":["a/b"],"pick":["x"]}`,
		`{"restMethod":"GET","restPath":"/c/{id}","query":{"q":"id"},"body":"-"}`,
		`null`, ``, `[`, `{"restPath":"/{a}/{a}/../{"}`, `{"body":"/~1/~0/*/0"}`,
	} {
		f.Add(s)
	}
	defs := synthDefs(f, "urn:x", baseOps)
	c, _ := defs.Operation("S", "P", "Info")
	f.Fuzz(func(t *testing.T, s string) {
		m := model.Mapping{RequestMapping: json.RawMessage(s), ResponseMapping: json.RawMessage(s), FaultMapping: json.RawMessage(s)}
		probs := CheckMapping(c, m)
		if _, err := ParseMessageMapping(json.RawMessage(s)); err != nil && len(probs) < 3 {
			t.Errorf("unparsable %q gave %d problems", s, len(probs))
		}
		_ = Diagnose(c, m)
		_ = OperationKey(s)
		_ = CheckRestPath(s, nil)
	})
}
