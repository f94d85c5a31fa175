package routing

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// boundsSchema has the bounds xsd.MessageJSONSchema writes, as exact
// JSON numbers.
var boundsSchema = map[string]any{
	"$schema": "https://json-schema.org/draft/2020-12/schema",
	"type":    "object",
	"properties": map[string]any{
		"ulong": map[string]any{"type": "integer", "minimum": json.Number("0"), "maximum": json.Number("18446744073709551615")},
		"long":  map[string]any{"type": "integer", "minimum": json.Number("-9223372036854775808"), "maximum": json.Number("9223372036854775807")},
		"dec": map[string]any{"type": "number",
			"minimum": json.Number("-0.000000000000000000000000000001"),
			"maximum": json.Number("12345678901234567890.123456789012345678901")},
		"open":   map[string]any{"type": "number", "exclusiveMinimum": json.Number("0"), "exclusiveMaximum": json.Number("1")},
		"step":   map[string]any{"type": "number", "multipleOf": json.Number("0.01")},
		"double": map[string]any{"type": "number", "maximum": json.Number("1.7976931348623157E308")},
		"list":   map[string]any{"type": "array", "maxItems": 2, "items": map[string]any{"type": "integer", "maximum": json.Number("10")}},
		"text":   map[string]any{"type": "string", "maxLength": 3},
	},
}

// TestSchemaReasonNumbers: a bound violation names the value as received
// and the bound exactly, and the comparison is exact (one above a 20-digit
// bound fails, the bound itself passes; 40-digit decimals differ in their
// last digit).
func TestSchemaReasonNumbers(t *testing.T) {
	s, err := CompileSchema("mem://bounds.json", boundsSchema)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, doc string
		want      []Violation
	}{
		{"ulong max", `{"ulong":18446744073709551615}`, nil},
		{"ulong max+1", `{"ulong":18446744073709551616}`,
			[]Violation{{"/ulong", "18446744073709551616 > maximum 18446744073709551615"}}},
		{"ulong -1", `{"ulong":-1}`, []Violation{{"/ulong", "-1 < minimum 0"}}},
		{"long min", `{"long":-9223372036854775808}`, nil},
		{"long min-1", `{"long":-9223372036854775809}`,
			[]Violation{{"/long", "-9223372036854775809 < minimum -9223372036854775808"}}},
		{"long max+1 as written", `{"long":9.223372036854775808e18}`,
			[]Violation{{"/long", "9.223372036854775808e18 > maximum 9223372036854775807"}}},
		{"decimal max", `{"dec":12345678901234567890.123456789012345678901}`, nil},
		{"decimal max, trailing zeros", `{"dec":12345678901234567890.12345678901234567890100}`, nil},
		{"decimal max+1e-21", `{"dec":12345678901234567890.123456789012345678902}`,
			[]Violation{{"/dec", "12345678901234567890.123456789012345678902 > maximum 12345678901234567890.123456789012345678901"}}},
		{"decimal min", `{"dec":-0.000000000000000000000000000001}`, nil},
		{"decimal below min", `{"dec":-0.0000000000000000000000000000011}`,
			[]Violation{{"/dec", "-0.0000000000000000000000000000011 < minimum -1E-30"}}},
		{"exclusive inside", `{"open":0.5}`, nil},
		{"exclusiveMinimum", `{"open":0}`, []Violation{{"/open", "0 <= exclusiveMinimum 0"}}},
		{"exclusiveMaximum", `{"open":1.0e0}`, []Violation{{"/open", "1.0e0 >= exclusiveMaximum 1"}}},
		{"just below exclusiveMaximum", `{"open":0.99999999999999999999999999999999999}`, nil},
		{"multipleOf", `{"step":0.015}`, []Violation{{"/step", "0.015 is not a multiple of 0.01"}}},
		{"multipleOf exact", `{"step":1234567890123456789.01}`, nil},
		{"bound with exponent", `{"double":1.8e308}`,
			[]Violation{{"/double", "1.8e308 > maximum 1.7976931348623157E308"}}},
		{"array items", `{"list":[1,1E2,3]}`, []Violation{
			{"/list", "3 items > maxItems 2"},
			{"/list/1", "1E2 > maximum 10"},
		}},
		{"length without grouping", `{"text":"` + strings.Repeat("x", 1234) + `"}`,
			[]Violation{{"/text", "length 1234 > maxLength 3"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := DecodeJSON([]byte(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			got := SchemaViolations(s, doc)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.doc, diff)
			}
		})
	}
}

// TestSchemaNumbersOutOfRange: numbers the exact comparison cannot take
// (the validator dereferenced nil past an exponent of ±1,000,000, and its
// cost grows with digits and exponent) are violations at their pointer,
// not a panic or a second of CPU.
func TestSchemaNumbersOutOfRange(t *testing.T) {
	s, err := CompileSchema("mem://bounds.json", boundsSchema)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("7", maxNumberDigits+1)
	for _, tt := range []struct {
		name, doc string
		want      []Violation
	}{
		{"exponent 1000", `{"dec":1e-1000}`, nil},
		{"tiny", `{"dec":1e-1000001}`, []Violation{{"/dec", "number 1e-1000001: an exponent beyond ±1000 is not supported"}}},
		{"huge", `{"list":[1, -1E+1001]}`, []Violation{{"/list/1", "number -1E+1001: an exponent beyond ±1000 is not supported"}}},
		{"exponent overflows int", `{"x":1e99999999999999999999}`,
			[]Violation{{"/x", "number 1e99999999999999999999: an exponent beyond ±1000 is not supported"}}},
		{"1000 digits", `{"x":0.` + long[2:] + `}`, nil},
		{"1001 digits", `{"x":-` + long + `}`, []Violation{{"/x", "number of 1001 digits: at most 1000 are supported"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := DecodeJSON([]byte(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, SchemaViolations(s, doc)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestDecimalText: a bound is written exactly, with an exponent only when
// the positional form would need more than maxPaddingZeros zeros.
func TestDecimalText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"0", "0"},
		{"-0", "0"},
		{"18446744073709551615", "18446744073709551615"},
		{"-9223372036854775808", "-9223372036854775808"},
		{"0.1", "0.1"},
		{"-0.50", "-0.5"},
		{"12345678901234567890.123456789012345678901", "12345678901234567890.123456789012345678901"},
		{"1e20", "100000000000000000000"},
		{"1e21", "1E21"},
		{"-123e30", "-1.23E32"},
		{"1.7976931348623157E308", "1.7976931348623157E308"},
		{"-4.9e-324", "-4.9E-324"},
		{"0.000000000000000000001", "0.000000000000000000001"},
		{"0.0000000000000000000001", "1E-22"},
		{"0.00000000000000000000012345678901234567890123", "1.2345678901234567890123E-22"},
		{"1/3", "1/3"},
	} {
		r, ok := new(big.Rat).SetString(tt.in)
		if !ok {
			t.Fatalf("bad test input %s", tt.in)
		}
		if got := decimalText(r); got != tt.want {
			t.Errorf("decimalText(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
