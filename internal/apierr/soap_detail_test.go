package apierr

import (
	"strings"
	"testing"
)

// violation mirrors routing.Violation, which this package cannot import.
type violation struct {
	Pointer string `json:"pointer"`
	Reason  string `json:"reason"`
}

// TestFaultNamesViolations: a validation fault names the field and the
// reason in the faultstring and lists every violation in the detail as
// plain XML, never as escaped JSON text.
func TestFaultNamesViolations(t *testing.T) {
	e := New(ValRequestSchema, "the SOAP body doesn't match the operation's contract").
		WithDetail("violations", []violation{{"/Envelope/Body/GetQuote/bad", "unknown element {urn:q}bad"}}).
		WithDetail("limit", 3)
	got := string(MarshalFault(SOAP11, e, "c1"))
	for _, want := range []string{
		`<faultstring>S2R-VAL-0410: the SOAP body doesn't match the operation's contract: /Envelope/Body/GetQuote/bad: unknown element {urn:q}bad</faultstring>`,
		`<s2r:detail name="limit">3</s2r:detail>`,
		`<s2r:detail name="violations"><s2r:item><s2r:detail name="pointer">/Envelope/Body/GetQuote/bad</s2r:detail>` +
			`<s2r:detail name="reason">unknown element {urn:q}bad</s2r:detail></s2r:item></s2r:detail>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("fault lacks %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, "&#34;") || strings.Contains(got, "&#39;") {
		t.Errorf("fault escapes quotes:\n%s", got)
	}
}

func TestFaultReasonBoundsViolations(t *testing.T) {
	var v []violation
	for _, p := range []string{"/a", "/b", "/c", "/d", "/e"} {
		v = append(v, violation{p, "required"})
	}
	got := faultReason(New(ValRequestSchema, "bad").WithDetail("violations", v))
	want := "S2R-VAL-0410: bad: /a: required; /b: required; /c: required; and 2 more in the detail"
	if got != want {
		t.Errorf("faultReason = %q, want %q", got, want)
	}
}
