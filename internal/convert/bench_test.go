package convert

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"sort"
	"testing"

	"github.com/s2r-project/s2r/internal/tests/cputime"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

var benchSizes = []struct {
	name string
	size int
}{{"1KB", 1 << 10}, {"20KB", 20 << 10}, {"1MB", 1 << 20}}

// BenchmarkXMLToJSON converts a SOAP body to JSON with the compiled plan
// (Plan) and with the naive baseline: encoding/xml into a generic tree,
// then encoding/json.Marshal (Baseline).
func BenchmarkXMLToJSON(b *testing.B) {
	p := benchPlan(b)
	for _, s := range benchSizes {
		body := benchBody(s.size)
		b.Run("Plan/"+s.name, func(b *testing.B) {
			r := xmlstream.NewReader(body, xmlstream.Limits{})
			var out []byte
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			defer cputime.Report(b)()
			for b.Loop() {
				r.Reset(body, xmlstream.Limits{})
				if _, err := r.Next(); err != nil {
					b.Fatal(err)
				}
				var err error
				if out, err = p.XMLToJSON(out[:0], r, "/Body"); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Baseline/"+s.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			defer cputime.Report(b)()
			for b.Loop() {
				if _, err := baselineXMLToJSON(body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkJSONToXML converts JSON to the body XML with the compiled plan
// and with the naive baseline: encoding/json.Unmarshal into map[string]any,
// then an encoding/xml Encoder.
func BenchmarkJSONToXML(b *testing.B) {
	p := benchPlan(b)
	for _, s := range benchSizes {
		r := xmlstream.NewReader(benchBody(s.size), xmlstream.Limits{})
		if _, err := r.Next(); err != nil {
			b.Fatal(err)
		}
		in, err := p.XMLToJSON(nil, r, "/Body")
		if err != nil {
			b.Fatal(err)
		}
		if !json.Valid(in) {
			b.Fatalf("invalid %s", in)
		}
		b.Run("Plan/"+s.name, func(b *testing.B) {
			w := xmlstream.NewWriter(nil)
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			defer cputime.Report(b)()
			for b.Loop() {
				w.Reset()
				if err := p.JSONToXML(w, in); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Baseline/"+s.name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			defer cputime.Report(b)()
			for b.Loop() {
				if _, err := baselineJSONToXML(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// node is the generic tree of the baseline.
type node struct {
	name     string
	attrs    []xml.Attr
	children []*node
	text     []byte
}

func baselineXMLToJSON(data []byte) ([]byte, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	var stack []*node
	var root *node
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &node{name: t.Name.Local, attrs: t.Attr}
			if len(stack) > 0 {
				top := stack[len(stack)-1]
				top.children = append(top.children, n)
			} else {
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				top := stack[len(stack)-1]
				top.text = append(top.text, t...)
			}
		}
	}
	return json.Marshal(toGeneric(root))
}

// toGeneric maps a node to map[string]any: repeated names → arrays,
// attributes "@name", text a string.
func toGeneric(n *node) any {
	if len(n.children) == 0 && len(n.attrs) == 0 {
		return string(n.text)
	}
	m := map[string]any{}
	for _, a := range n.attrs {
		if a.Name.Space != "xmlns" && a.Name.Local != "xmlns" {
			m["@"+a.Name.Local] = a.Value
		}
	}
	for _, c := range n.children {
		v := toGeneric(c)
		if prev, ok := m[c.name]; ok {
			if arr, ok := prev.([]any); ok {
				m[c.name] = append(arr, v)
			} else {
				m[c.name] = []any{prev, v}
			}
			continue
		}
		m[c.name] = v
	}
	if len(n.children) == 0 {
		m["$value"] = string(n.text)
	}
	return m
}

func baselineJSONToXML(in []byte) ([]byte, error) {
	var v map[string]any
	if err := json.Unmarshal(in, &v); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	e := xml.NewEncoder(&buf)
	start := xml.StartElement{Name: xml.Name{Space: "urn:orders", Local: "GetOrdersResponse"}}
	if err := encodeGeneric(e, start, v); err != nil {
		return nil, err
	}
	if err := e.Flush(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func encodeGeneric(e *xml.Encoder, start xml.StartElement, v any) error {
	m, isMap := v.(map[string]any)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k[0] == '@' {
			start.Attr = append(start.Attr, xml.Attr{Name: xml.Name{Local: k[1:]}, Value: scalarText(m[k])})
		}
	}
	if err := e.EncodeToken(start); err != nil {
		return err
	}
	if !isMap {
		if err := e.EncodeToken(xml.CharData(scalarText(v))); err != nil {
			return err
		}
	}
	for _, k := range keys {
		switch {
		case k[0] == '@':
		case k == "$value":
			if err := e.EncodeToken(xml.CharData(scalarText(m[k]))); err != nil {
				return err
			}
		default:
			child := xml.StartElement{Name: xml.Name{Space: "urn:orders", Local: k}}
			items, ok := m[k].([]any)
			if !ok {
				items = []any{m[k]}
			}
			for _, it := range items {
				if err := encodeGeneric(e, child, it); err != nil {
					return err
				}
			}
		}
	}
	return e.EncodeToken(start.End())
}

func scalarText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}
