package httpx

import (
	"net/url"
	"testing"
)

// FuzzRedactQuery checks that whatever query a caller sends, every value of
// a sensitive parameter is redacted in the logged form.
func FuzzRedactQuery(f *testing.F) {
	f.Add("access_token=abc&page=2")
	f.Add("Password=x&password=y&a=%zz")
	f.Add("api-key=1;api_key=2")
	f.Add("")
	f.Fuzz(func(t *testing.T, raw string) {
		out := redactQuery(raw)
		if out == Redacted {
			return // unparsable queries are dropped whole
		}
		q, err := url.ParseQuery(out)
		if err != nil {
			t.Fatalf("redacted query %q does not parse: %v", out, err)
		}
		for k, vs := range q {
			if !Sensitive(k) {
				continue
			}
			for _, v := range vs {
				if v != Redacted {
					t.Errorf("sensitive %q logged as %q (input %q)", k, v, raw)
				}
			}
		}
	})
}
