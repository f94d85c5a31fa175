package routing

import (
	"encoding/json"
	"strconv"
	"strings"
)

// maxNumberDigits and maxNumberExponent bound the numbers the JSON Schema
// check compares. The validator compares exactly, as big.Rat: a number
// with an exponent beyond ±1,000,000 made it dereference nil (a 500 for a
// client's mistake), and parsing costs grow with the exponent and
// quadratically with the digits (a 1,000,000-digit number took a second).
// Both bounds are far past any XSD numeric type's useful range
// (xs:double's exponent stops at 308).
const (
	maxNumberDigits   = 1000
	maxNumberExponent = 1000
)

// outOfRangeNumbers reports every number in doc (a value decoded by
// DecodeJSON) that has more than maxNumberDigits digits before its
// exponent or an exponent beyond ±maxNumberExponent, at most
// maxViolations, nil when there is none.
func outOfRangeNumbers(doc any) []Violation {
	var out []Violation
	var path []string
	var walk func(v any)
	walk = func(v any) {
		if len(out) >= maxViolations {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				path = append(path, k)
				walk(c)
				path = path[:len(path)-1]
			}
		case []any:
			for i, c := range x {
				path = append(path, strconv.Itoa(i))
				walk(c)
				path = path[:len(path)-1]
			}
		case json.Number:
			if reason := numberRange(string(x)); reason != "" {
				out = append(out, Violation{Pointer: instancePointer(path), Reason: reason})
			}
		}
	}
	walk(doc)
	return out
}

// numberRange says why the JSON number n is beyond the compared range, or
// "" when it is within.
func numberRange(n string) string {
	mantissa, exp, hasExp := strings.Cut(strings.ToLower(n), "e")
	digits := len(mantissa)
	if strings.HasPrefix(mantissa, "-") {
		digits--
	}
	if strings.Contains(mantissa, ".") {
		digits--
	}
	if digits > maxNumberDigits {
		return "number of " + strconv.Itoa(digits) + " digits: at most " + strconv.Itoa(maxNumberDigits) + " are supported"
	}
	if !hasExp {
		return ""
	}
	e, err := strconv.Atoi(exp)
	if err != nil || e > maxNumberExponent || e < -maxNumberExponent {
		return "number " + shorten(n) + ": an exponent beyond ±" + strconv.Itoa(maxNumberExponent) + " is not supported"
	}
	return ""
}

// shorten cuts a received text past maxValueText characters.
func shorten(n string) string {
	if len(n) > maxValueText {
		return n[:maxValueText/2] + "… (" + strconv.Itoa(len(n)) + " characters)"
	}
	return n
}
