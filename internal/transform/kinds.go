package transform

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// compiler validates one kind's parameters into a step.
type compiler struct {
	params  []string
	compile func(st *step, params map[string]any) string
}

var compilers = map[Kind]compiler{
	KindTrim:         {compile: valueRule(strings.TrimSpace)},
	KindUppercase:    {compile: valueRule(strings.ToUpper)},
	KindLowercase:    {compile: valueRule(strings.ToLower)},
	KindDefaultValue: {params: []string{"value"}, compile: compileDefault},
	KindRename:       {params: []string{"to"}, compile: compileRename},
	KindSplit:        {params: []string{"separator", "limit"}, compile: compileSplit},
	KindJoin:         {params: []string{"separator"}, compile: compileJoin},
	KindDateFormat:   {params: []string{"from", "to"}, compile: compileDateFormat},
}

// valueRule builds the compiler of a string-to-string kind.
func valueRule(fn func(string) string) func(*step, map[string]any) string {
	return func(st *step, _ map[string]any) string {
		st.run = eachString(func(_ *step, n *node, s string) string {
			if out := fn(s); out != s {
				n.setString(out)
			}
			return ""
		})
		return ""
	}
}

func compileDefault(st *step, params map[string]any) string {
	if st.path.last().wildcard {
		return `the field must end with a member name, not "*"`
	}
	v, ok := params["value"]
	if !ok {
		return `missing parameter "value"`
	}
	if v == nil {
		return `parameter "value" must not be null`
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf(`parameter "value" is not JSON: %v`, err)
	}
	n, err := parseJSON(raw)
	if err != nil {
		return fmt.Sprintf(`parameter "value" is not JSON: %v`, err)
	}
	st.value = n
	st.nameRaw = appendString(nil, st.path.last().name)
	st.run = runDefault
	return ""
}

func compileRename(st *step, params map[string]any) string {
	if st.path.last().wildcard {
		return `the field must end with a member name, not "*"`
	}
	to, reason := stringParam(params, "to", false)
	if reason != "" {
		return reason
	}
	if to == st.path.last().name {
		return `parameter "to" is the field's own name`
	}
	st.to, st.toRaw = to, appendString(nil, to)
	st.run = runRename
	return ""
}

func compileSplit(st *step, params map[string]any) string {
	sep, reason := stringParam(params, "separator", false)
	if reason != "" {
		return reason
	}
	st.separator, st.limit = sep, -1
	if _, ok := params["limit"]; ok {
		n, reason := intParam(params, "limit")
		if reason != "" {
			return reason
		}
		if n < 1 {
			return `parameter "limit" must be at least 1`
		}
		st.limit = n
	}
	st.run = eachString(runSplit)
	return ""
}

func compileJoin(st *step, params map[string]any) string {
	sep, reason := stringParam(params, "separator", true)
	if reason != "" {
		return reason
	}
	st.separator = sep
	st.run = runJoin
	return ""
}

func compileDateFormat(st *step, params map[string]any) string {
	for _, name := range []string{"from", "to"} {
		src, reason := stringParam(params, name, false)
		if reason != "" {
			return reason
		}
		pat, err := compileDatePattern(src)
		if err != nil {
			return fmt.Sprintf("parameter %q: %v", name, err)
		}
		if name == "from" {
			st.from = pat
		} else {
			st.out = pat
		}
	}
	st.run = eachString(runDateFormat)
	return ""
}

// stringParam reads a required string parameter.
func stringParam(params map[string]any, name string, emptyOK bool) (string, string) {
	v, ok := params[name]
	if !ok {
		return "", fmt.Sprintf("missing parameter %q", name)
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Sprintf("parameter %q must be a string, found %s", name, typeName(v))
	}
	if s == "" && !emptyOK {
		return "", fmt.Sprintf("parameter %q must not be empty", name)
	}
	return s, ""
}

// intParam reads an integer parameter decoded by encoding/json (float64 or
// json.Number) or set in Go (int, int64).
func intParam(params map[string]any, name string) (int, string) {
	bad := fmt.Sprintf("parameter %q must be an integer", name)
	switch v := params[name].(type) {
	case int:
		return v, ""
	case int64:
		if v > math.MaxInt32 || v < math.MinInt32 {
			return 0, bad
		}
		return int(v), ""
	case float64:
		if v != math.Trunc(v) || math.Abs(v) > math.MaxInt32 {
			return 0, bad
		}
		return int(v), ""
	case json.Number:
		n, err := strconv.ParseInt(string(v), 10, 32)
		if err != nil {
			return 0, bad
		}
		return int(n), ""
	}
	return 0, bad
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64, json.Number, int, int64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}
