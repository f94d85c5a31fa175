package convert

import (
	"strings"

	"github.com/s2r-project/s2r/internal/xsd"
)

// sampleObject generates a JSON document of tp's shape: every required
// member, and at shallow depths every optional one; the first branch of
// each choice; one item per array.
func sampleObject(tp *typePlan, depth int) string {
	var b strings.Builder
	b.WriteByte('{')
	n := 0
	add := func(name, value string) {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.WriteString(quote(name))
		b.WriteByte(':')
		b.WriteString(value)
	}
	for _, a := range tp.attrs {
		if a.attr.Required || depth < 2 {
			add(a.json, sampleSimple(a.attr.Type))
		}
	}
	if tp.simple != nil {
		add("$value", sampleSimple(tp.simple))
	}
	skip, force := map[int]bool{}, map[int]bool{}
	for _, cc := range tp.choices {
		chosen := -1
		for b, br := range cc.branches {
			if chosen < 0 && br[1] > br[0] {
				chosen = b
				if !cc.optional {
					force[br[0]] = true
				}
				continue
			}
			for m := br[0]; m < br[1]; m++ {
				skip[m] = true
			}
		}
	}
	for i, m := range tp.members {
		if skip[i] || m.group >= 0 || m.typ.abstract && m.typ.derived == nil || m.elem != nil && m.elem.Abstract {
			continue
		}
		switch {
		case m.repeated && (depth < 2 || m.minItems > 0 || force[i]) && depth < 8:
			add(m.json, "["+sampleValue(m, depth+1)+"]")
		case m.repeated:
			add(m.json, "[]")
		case m.required || force[i] || depth < 2 && !m.nillable:
			if depth >= 6 && !m.required {
				continue
			}
			add(m.json, sampleValue(m, depth+1))
		}
	}
	b.WriteByte('}')
	return b.String()
}

func sampleValue(m *memberPlan, depth int) string {
	tp := m.typ
	switch {
	case tp.anyType:
		return `"x"`
	case tp.arrayItem != nil:
		return "[" + sampleValue(tp.arrayItem, depth+1) + "]"
	case tp.scalar:
		return sampleSimple(tp.simple)
	case tp.abstract:
		for name, d := range tp.derived {
			if !d.abstract {
				s := sampleObject(d, depth)
				return `{"$type":` + quote(name) + map[bool]string{true: "", false: ","}[s == "{}"] + s[1:]
			}
		}
	}
	return sampleObject(tp, depth)
}

func sampleSimple(st *xsd.SimpleType) string {
	if st == nil {
		return `"x"`
	}
	if st.List != nil {
		return "[" + sampleSimple(st.List) + "]"
	}
	if len(st.Union) > 0 {
		return sampleSimple(st.Union[0])
	}
	if len(st.Enumeration) > 0 && kindOf(st) == lexString {
		return quote(st.Enumeration[0])
	}
	switch kindOf(st) {
	case lexInteger:
		switch st.Builtin {
		case "negativeInteger":
			return "-1"
		case "nonPositiveInteger":
			return "0"
		}
		if len(st.Enumeration) > 0 {
			return st.Enumeration[0]
		}
		return "1"
	case lexDecimal, lexFloat:
		return "1.5"
	case lexBoolean:
		return "true"
	}
	switch st.Builtin {
	case "date":
		return `"2024-01-02"`
	case "dateTime":
		return `"2024-01-02T03:04:05Z"`
	case "base64Binary":
		return `"AAE="`
	}
	return `"x"`
}
