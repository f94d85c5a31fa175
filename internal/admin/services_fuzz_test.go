package admin

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/s2r-project/s2r/internal/admin/drafts"
	"github.com/s2r-project/s2r/internal/apierr"
)

// FuzzServiceMembers feeds arbitrary JSON values to every member of the
// service body: validation must never panic, and every refusal must be a
// 400 naming a field.
func FuzzServiceMembers(f *testing.F) {
	for _, s := range []string{
		`"calc"`, `5`, `null`, `true`, `{"dataField":"data","include":{"correlationId":true}}`,
		`{"error":"${code}","d":"${details}","n":[{"x":"${nope}"}]}`, `{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":{}}}}}}}}}}`,
		`[1,2]`, `"deprecated"`, `30.5`, `1e400`, `{"include":{"x":null}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := jsontext.Value(s)
		if !v.IsValid() {
			return
		}
		for name := range serviceFields {
			svc := drafts.NewService(time.Now())
			err := applyServiceMembers(&svc, map[string]jsontext.Value{name: v}, true)
			if err == nil {
				if _, mErr := json.Marshal(svc); mErr != nil {
					t.Fatalf("%s=%s accepted but the service does not encode: %v", name, s, mErr)
				}
				continue
			}
			e, ok := apierr.As(err)
			if !ok || e.Code != apierr.ValBadRequest {
				t.Fatalf("%s=%s: error %v is not a 400", name, s, err)
			}
		}
	})
}
