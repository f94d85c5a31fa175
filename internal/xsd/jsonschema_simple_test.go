package xsd

import "testing"

// TestJSONNumber: numeric facets become exact JSON numbers, whatever the
// sign and zeros of their XSD lexical; lexicals without a JSON form are no
// bound.
func TestJSONNumber(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"18446744073709551615", "18446744073709551615"},
		{"+007", "7"},
		{"-007", "-7"},
		{"-0", "-0"},
		{"000", "0"},
		{".5", "0.5"},
		{"-.5", "-0.5"},
		{"-00.50", "-0.50"},
		{"5.", "5"},
		{"-5.", "-5"},
		{"1.E2", "1E2"},
		{"00e5", "0e5"},
		{" 1.7976931348623157E308 ", "1.7976931348623157E308"},
		{"123456789012345678901234567890.123456789012345678901", "123456789012345678901234567890.123456789012345678901"},
		{"INF", ""},
		{"-INF", ""},
		{"NaN", ""},
		{"-", ""},
		{"", ""},
		{"1,5", ""},
	} {
		got, ok := jsonNumber(tt.in)
		if string(got) != tt.want || ok != (tt.want != "") {
			t.Errorf("jsonNumber(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}
