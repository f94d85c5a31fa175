package routing

import (
	"strings"
	"testing"
)

func FuzzParseErrorShape(f *testing.F) {
	for _, s := range []string{
		`{"ok":false,"err":{"text":"${code}: ${message}","d":"${details}","n":1.5,"b":[true,null]}}`,
		`null`, `{"x":"${oops}"}`, `[1]`, `{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":1}}}}}}}}}`, `{"a":"${"}`, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, err := ParseErrorShape(raw)
		if err != nil || s == nil {
			return
		}
		if s.Root == nil || s.Root.Kind != ShapeObject {
			t.Fatalf("accepted a non-object root: %q", raw)
		}
	})
}

func FuzzParseEnvelopeWrap(f *testing.F) {
	for _, s := range []string{`{"dataField":"data","include":{"correlationId":true}}`, `null`, `{"dataField":""}`, `{"include":{"x":true}}`, `1`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		w, err := ParseEnvelopeWrap(raw)
		if err == nil && w != nil && w.DataField == "" {
			t.Fatalf("accepted an empty dataField: %q", raw)
		}
	})
}

func FuzzPathTemplate(f *testing.F) {
	for _, s := range [][2]string{{"/countries/{code}", "/countries/US"}, {"/", "/"}, {"/{a}/{b}", "/x//y"}, {"/{", "/{"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, tmpl, path string) {
		params, ok := ParsePathTemplate(tmpl).Match(path)
		if !ok {
			return
		}
		for _, p := range params {
			if p.Value == "" || strings.Contains(p.Value, "/") {
				t.Fatalf("template %q bound %q from %q", tmpl, p.Value, path)
			}
		}
	})
}

func FuzzRenamer(f *testing.F) {
	f.Add([]byte(`{"rename":{"a":"b","a/c":"d"},"omit":["x"]}`), []byte(`{"a":{"c":[1,{"c":2}]},"b":1,"x":2}`))
	f.Add([]byte(`{"rename":{"a":"a"}}`), []byte(`[{"a":1}]`))
	f.Add([]byte(`{"rename":{"":"z"},"omit":[""]}`), []byte(`{"":1}`))
	f.Fuzz(func(t *testing.T, mapping, doc []byte) {
		r, err := ParseRenamer(mapping)
		if err != nil || r == nil {
			return
		}
		v, err := DecodeJSON(doc)
		if err != nil {
			return
		}
		r.ToContract(r.FromContract(v))
		r.ContractName("", "a")
	})
}
