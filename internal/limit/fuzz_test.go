package limit

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
)

// FuzzParseClientSettings feeds arbitrary rate-limit bodies to the parser:
// it must never panic, must refuse with a *model.FieldError, and what it
// accepts must compile and read back the same from its normalized form.
func FuzzParseClientSettings(f *testing.F) {
	for _, seed := range []string{
		`null`, `{}`, `[]`, `"ip"`,
		`{"clientKey":"ip","requestsPerMinute":60,"burst":10}`,
		`{"clientKey":"header:X-Api-Key","requestsPerMinute":600}`,
		`{"clientKey":"header:X Api","requestsPerMinute":1}`,
		`{"clientKey":"header:","requestsPerMinute":1}`,
		`{"clientKey":"ip","requestsPerMinute":-5,"burst":1e400}`,
		`{"clientKey":"ip","requestsPerMinute":1.5}`,
		`{"clientKey":"ip","requestsPerMinute":1,"extra":true}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		s, err := ParseClientSettings(body)
		if err != nil {
			var fe *model.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a FieldError", err)
			}
			return
		}
		if s == nil {
			return
		}
		if _, err := s.Compile("svc"); err != nil {
			t.Fatalf("accepted settings do not compile: %v", err)
		}
		n := s.Normalized()
		out, err := json.Marshal(n)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseClientSettings(out)
		if err != nil || again == nil || *again != n {
			t.Fatalf("normalized %s reads back as %+v, %v", out, again, err)
		}
	})
}
