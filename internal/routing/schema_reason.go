package routing

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// leafReason is the reason of one leaf error of doc without the location
// prefix the library adds. Numeric bounds name the value as received and
// the bound exactly ("18446744073709551616 > maximum
// 18446744073709551615"): the library prints both as rounded floats, so
// a value one above a large bound read "got 1.8446744073709552×10¹⁹, want
// 1.8446744073709552×10¹⁹". Counts are printed without digit grouping.
func leafReason(e *jsonschema.ValidationError, doc any) string {
	got := func(r *big.Rat) string { return valueText(doc, e.InstanceLocation, r) }
	switch k := e.ErrorKind.(type) {
	case *kind.Minimum:
		return got(k.Got) + " < minimum " + decimalText(k.Want)
	case *kind.Maximum:
		return got(k.Got) + " > maximum " + decimalText(k.Want)
	case *kind.ExclusiveMinimum:
		return got(k.Got) + " <= exclusiveMinimum " + decimalText(k.Want)
	case *kind.ExclusiveMaximum:
		return got(k.Got) + " >= exclusiveMaximum " + decimalText(k.Want)
	case *kind.MultipleOf:
		return got(k.Got) + " is not a multiple of " + decimalText(k.Want)
	case *kind.MinLength:
		return fmt.Sprintf("length %d < minLength %d", k.Got, k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("length %d > maxLength %d", k.Got, k.Want)
	case *kind.MinItems:
		return fmt.Sprintf("%d items < minItems %d", k.Got, k.Want)
	case *kind.MaxItems:
		return fmt.Sprintf("%d items > maxItems %d", k.Got, k.Want)
	case *kind.MinProperties:
		return fmt.Sprintf("%d members < minProperties %d", k.Got, k.Want)
	case *kind.MaxProperties:
		return fmt.Sprintf("%d members > maxProperties %d", k.Got, k.Want)
	}
	out := e.BasicOutput()
	if out != nil && out.Error != nil {
		return out.Error.String()
	}
	return e.Error()
}

// maxValueText bounds how much of a received number a reason repeats.
const maxValueText = 100

// valueText is the JSON text of the number at loc in doc as received
// (shortened past maxValueText characters), else the exact decimal of r.
func valueText(doc any, loc []string, r *big.Rat) string {
	v, _ := valueAt(doc, loc)
	n, ok := v.(json.Number)
	if !ok {
		return decimalText(r)
	}
	return shorten(string(n))
}

// valueAt is the value at the instance location loc in doc, and whether
// there is one.
func valueAt(doc any, loc []string) (any, bool) {
	v := doc
	for _, seg := range loc {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[seg]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// maxPaddingZeros is how many zeros decimalText writes to place a
// number's digits ("1000", "0.001"); past it the number gets an exponent.
const maxPaddingZeros = 20

// decimalText writes r exactly: in positional notation ("0.1",
// "18446744073709551615") or, when that would take more than
// maxPaddingZeros zeros, as its digits with a decimal exponent
// ("1.7976931348623157E308", "1E-40"). A JSON number is a finite decimal,
// so r has one; any other r is written as a fraction ("1/3").
func decimalText(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	den := new(big.Int).Set(r.Denom())
	twos, fives := 0, 0
	for den.Bit(0) == 0 {
		den.Rsh(den, 1)
		twos++
	}
	five, mod := big.NewInt(5), new(big.Int)
	for {
		q, m := new(big.Int).QuoRem(den, five, mod)
		if m.Sign() != 0 {
			break
		}
		den = q
		fives++
	}
	if den.Cmp(big.NewInt(1)) != 0 {
		return r.RatString()
	}
	// r = ±digits × 10^exp
	scale := max(twos, fives)
	m := new(big.Int).Abs(r.Num())
	m.Mul(m, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
	m.Quo(m, r.Denom())
	digits, exp := m.String(), -scale
	for len(digits) > 1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp++
	}
	sign := ""
	if r.Sign() < 0 {
		sign = "-"
	}
	if paddingZeros(digits, exp) <= maxPaddingZeros {
		return sign + positional(digits, exp)
	}
	s := digits[:1]
	if len(digits) > 1 {
		s += "." + digits[1:]
	}
	return sign + s + "E" + strconv.Itoa(exp+len(digits)-1)
}

// paddingZeros is how many zeros positional(digits, exp) adds to digits.
func paddingZeros(digits string, exp int) int {
	switch {
	case digits == "0" || exp < 0 && -exp < len(digits):
		return 0
	case exp >= 0:
		return exp
	default:
		return -exp - len(digits)
	}
}

// positional writes digits × 10^exp without an exponent.
func positional(digits string, exp int) string {
	switch {
	case digits == "0":
		return "0"
	case exp >= 0:
		return digits + strings.Repeat("0", exp)
	case -exp < len(digits):
		return digits[:len(digits)+exp] + "." + digits[len(digits)+exp:]
	default:
		return "0." + strings.Repeat("0", -exp-len(digits)) + digits
	}
}
