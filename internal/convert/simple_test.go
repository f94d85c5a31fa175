package convert

import "testing"

func TestDecimalFromJSON(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"1.5e3", "1500", true},
		{"1.50e1", "15.0", true},
		{"-1.5e-3", "-0.0015", true},
		{"12E-1", "1.2", true},
		{"0.5", "0.5", true},
		{"1e400", "", true},
		{"1e401", "", false},
		{"1e-401", "", false},
	}
	for _, tt := range tests {
		got, ok := appendDecimalFromJSON(nil, tt.in)
		if ok != tt.ok {
			t.Errorf("%s: ok = %v", tt.in, ok)
			continue
		}
		if tt.in == "1e400" {
			if len(got) != 401 {
				t.Errorf("1e400 expands to %d bytes", len(got))
			}
			continue
		}
		if ok && string(got) != tt.want {
			t.Errorf("appendDecimalFromJSON(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestXMLNumbers(t *testing.T) {
	tests := []struct {
		f        func([]byte, []byte) ([]byte, bool)
		in, want string
		ok       bool
	}{
		{appendXMLInteger, "+007", "7", true},
		{appendXMLInteger, "-0", "0", true},
		{appendXMLInteger, "-00012", "-12", true},
		{appendXMLInteger, "1.0", "", false},
		{appendXMLInteger, "", "", false},
		{appendXMLDecimal, ".5", "0.5", true},
		{appendXMLDecimal, "5.", "5", true},
		{appendXMLDecimal, "-0.00", "0.00", true},
		{appendXMLDecimal, "+1.50", "1.50", true},
		{appendXMLDecimal, ".", "", false},
		{appendXMLDecimal, "1e5", "", false},
		{appendXMLFloat, "1.E5", "1e5", true},
		{appendXMLFloat, "-INF", `"-INF"`, true},
		{appendXMLFloat, "+INF", `"INF"`, true},
		{appendXMLFloat, "NaN", `"NaN"`, true},
		{appendXMLFloat, "inf", "", false},
		{appendXMLFloat, "1e", "", false},
		{appendXMLBoolean, "1", "true", true},
		{appendXMLBoolean, "TRUE", "", false},
	}
	for _, tt := range tests {
		got, ok := tt.f(nil, []byte(tt.in))
		if ok != tt.ok || ok && string(got) != tt.want {
			t.Errorf("%q → %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestIntRanges(t *testing.T) {
	tests := []struct {
		builtin, n string
		ok         bool
	}{
		{"byte", "-128", true}, {"byte", "128", false},
		{"unsignedLong", "18446744073709551615", true}, {"unsignedLong", "18446744073709551616", false},
		{"unsignedInt", "-1", false}, {"positiveInteger", "0", false}, {"positiveInteger", "1", true},
		{"negativeInteger", "0", false}, {"negativeInteger", "-1", true},
		{"nonPositiveInteger", "0", true}, {"nonPositiveInteger", "1", false},
		{"long", "-9223372036854775809", false}, {"integer", "99999999999999999999999", true},
	}
	for _, tt := range tests {
		if got := checkIntRange(tt.builtin, tt.n) == ""; got != tt.ok {
			t.Errorf("checkIntRange(%s, %s) ok = %v, want %v", tt.builtin, tt.n, got, tt.ok)
		}
	}
}

// TestPlainDecimal: the decimals appendXMLDecimal copies as they are are
// those the full normalization leaves unchanged.
func TestPlainDecimal(t *testing.T) {
	for _, s := range []string{"0", "1", "10", "0.10", "12.5", "1.50", "007", "0.", ".5", "5.", "-1", "+1", "1.2.3", "", "00.1", "0.0", "-0", "1e3", " 1", "9007199254740993.99"} {
		full, ok := normalizeDecimal(nil, []byte(s))
		if plain := plainDecimal([]byte(s)); plain && (!ok || string(full) != s) {
			t.Errorf("%q is plain but normalizes to %q, %v", s, full, ok)
		}
		got, gok := appendXMLDecimal(nil, []byte(s))
		if string(got) != string(full) || gok != ok {
			t.Errorf("%q: %q %v, want %q %v", s, got, gok, full, ok)
		}
	}
}

// TestShortInt: integers short enough to skip the range parse are the
// ones checkIntRange would accept after parsing.
func TestShortInt(t *testing.T) {
	for _, b := range []string{"byte", "short", "int", "long", "unsignedByte", "unsignedShort", "unsignedInt", "unsignedLong", "positiveInteger", "negativeInteger"} {
		r, _ := intRangeOf(b)
		for _, n := range []string{"0", "-1", "1", "99", "-99", "127", "-128", "128", "9999", "-9999", "999999999", "-999999999", "2147483648", "999999999999999999", "-999999999999999999", "9223372036854775808", "9999999999999999999", "18446744073709551616", "01"} {
			if shortInt(&r, n) {
				r2 := r
				r2.safe = 0
				if reason := r2.check(b, n); reason != "" {
					t.Errorf("%s %s: short, but %s", b, n, reason)
				}
			}
		}
	}
}
