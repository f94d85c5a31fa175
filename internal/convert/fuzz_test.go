package convert

import (
	"bytes"
	"encoding/json"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/golden"
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// fuzzCase compiles the shop schema of the golden files (message Order).
func fuzzCase(f *testing.F) *goldenCase { return fuzzShop(f, false) }

// fuzzShop compiles the shop schema's Order, with Options.Lax when lax.
func fuzzShop(f *testing.F, lax bool) *goldenCase {
	data, err := os.ReadFile("testdata/x2j-full.txt")
	if err != nil {
		f.Fatal(err)
	}
	_, after, _ := strings.Cut(string(data), "-- shop.xsd --\n")
	schema, _, _ := strings.Cut(after, "-- message --")
	set, err := xsd.CompileSchemas(map[string][]byte{"shop.xsd": []byte(schema)})
	if err != nil {
		f.Fatal(err)
	}
	el, err := set.Element(xmlstream.Name{Space: "urn:shop", Local: "Order"})
	if err != nil {
		f.Fatal(err)
	}
	p, err := Compile(&xsd.Message{Wrapped: true, Wrapper: el}, Options{Lax: lax})
	if err != nil {
		f.Fatal(err)
	}
	return &goldenCase{plan: p}
}

// fuzzEncodedCase compiles the rpc/encoded response of the golden files.
func fuzzEncodedCase(f *testing.F) *goldenCase {
	data, err := os.ReadFile("testdata/rpc-encoded-multiref-x2j.txt")
	if err != nil {
		f.Fatal(err)
	}
	_, after, _ := strings.Cut(string(data), "-- enc.xsd --\n")
	schema, _, _ := strings.Cut(after, "-- message --")
	set, err := xsd.CompileSchemas(map[string][]byte{"enc.xsd": []byte(schema)})
	if err != nil {
		f.Fatal(err)
	}
	items, err := set.Type(xmlstream.Name{Space: "urn:enc", Local: "ArrayOfItem"})
	if err != nil {
		f.Fatal(err)
	}
	msg := &xsd.Message{Wrapper: &xsd.Element{Name: xmlstream.Name{Space: "urn:enc", Local: "sumResponse"}}, Parts: []*xsd.Part{{Name: "items", Type: items}}}
	p, err := Compile(msg, Options{Encoded: true})
	if err != nil {
		f.Fatal(err)
	}
	return &goldenCase{plan: p}
}

// seedSections adds the named sections of every golden file as seeds.
func seedSections(f *testing.F, name string) {
	for _, in := range golden.Seeds(f, "testdata/*.txt", name) {
		f.Add([]byte(strings.TrimSpace(in)))
	}
}

// FuzzXMLToJSON converts arbitrary body content: it must never panic, and
// JSON it produces must survive JSON→XML→JSON unchanged.
func FuzzXMLToJSON(f *testing.F) {
	c := fuzzCase(f)
	enc := fuzzEncodedCase(f)
	lax := fuzzShop(f, true)
	seedSections(f, "xml")
	f.Fuzz(func(t *testing.T, body []byte) {
		out, err := c.bodyJSON(string(body), nil)
		// The naive mapping and the rpc/encoded plan (multi-references)
		// must not panic either.
		_, _ = (&goldenCase{naive: true}).bodyJSON(string(body), nil)
		_, _ = enc.bodyJSON(string(body), nil)
		// The Lax plan noting its deviations writes valid JSON, lists at
		// most Max of them and accepts what the strict plan accepts.
		dev := &Deviations{Max: 3}
		lout, lerr := lax.bodyJSON(string(body), dev)
		if lerr == nil && !json.Valid(lout) {
			t.Fatalf("invalid Lax JSON output %s", lout)
		}
		if len(dev.List) > dev.Max || len(dev.List) > dev.Found {
			t.Fatalf("listed %d deviations of %d found, max %d", len(dev.List), dev.Found, dev.Max)
		}
		if err != nil {
			return
		}
		if lerr != nil {
			t.Fatalf("the Lax plan refused what the strict plan converted: %v", lerr)
		}
		if !json.Valid(out) {
			t.Fatalf("invalid JSON output %s", out)
		}
		w := xmlstream.NewWriter(nil)
		if err := c.plan.JSONToXML(w, out); err != nil {
			t.Fatalf("JSON→XML of converter output %s: %v", out, err)
		}
		back, err := c.bodyJSON(string(w.Bytes()), nil)
		if err != nil {
			t.Fatalf("XML→JSON of %s: %v", w.Bytes(), err)
		}
		if !sameJSON(decodeAny(t, out), decodeAny(t, back), false) {
			t.Fatalf("round trip changed the JSON:\n first %s\n again %s", out, back)
		}
	})
}

// FuzzJSONToXML converts arbitrary JSON: it must never panic, and JSON it
// accepts converts back to the same JSON, modulo the documented
// normalizations (number forms, [] for absent arrays, member order).
func FuzzJSONToXML(f *testing.F) {
	c := fuzzCase(f)
	seedSections(f, "json")
	f.Fuzz(func(t *testing.T, in []byte) {
		w := xmlstream.NewWriter(nil)
		_ = NaiveJSONToXML(xmlstream.NewWriter(nil), in)
		if err := c.plan.JSONToXML(w, in); err != nil {
			if _, ok := AsError(err); !ok {
				t.Fatalf("error is not a *convert.Error: %v", err)
			}
			return
		}
		back, err := c.bodyJSON(string(w.Bytes()), nil)
		if err != nil {
			t.Fatalf("XML→JSON of %s (from %s): %v", w.Bytes(), in, err)
		}
		if !sameJSON(decodeAny(t, in), decodeAny(t, back), true) {
			t.Fatalf("round trip changed the JSON:\n in  %s\n xml %s\n out %s", in, w.Bytes(), back)
		}
	})
}

func decodeAny(t *testing.T, j []byte) any {
	d := json.NewDecoder(bytes.NewReader(j))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", j, err)
	}
	return v
}

// sameJSON compares a and b with numbers by value; with lenient, members
// of b missing from a may be empty arrays.
func sameJSON(a, b any, lenient bool) bool {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			return false
		}
		for k, x := range av {
			y, ok := bv[k]
			if !ok && lenient && k == "$xml" && strings.TrimSpace(x.(string)) == "" {
				continue // an empty "$xml" is no wildcard content
			}
			if k == "$xml" && ok {
				xs, _ := x.(string)
				ys, _ := y.(string)
				if canonicalXML(xs) != canonicalXML(ys) {
					return false
				}
				continue
			}
			if !ok || !sameJSON(x, y, lenient) {
				return false
			}
		}
		for k, y := range bv {
			if _, ok := av[k]; ok {
				continue
			}
			if arr, ok := y.([]any); !lenient || !ok || len(arr) != 0 {
				return false
			}
		}
		return true
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for i := range av {
			if !sameJSON(av[i], bv[i], lenient) {
				return false
			}
		}
		return true
	case json.Number:
		bv, ok := b.(json.Number)
		if !ok {
			return false
		}
		x, ok1 := new(big.Rat).SetString(string(av))
		y, ok2 := new(big.Rat).SetString(string(bv))
		return ok1 && ok2 && x.Cmp(y) == 0
	}
	return a == b
}

// canonicalXML re-serializes a "$xml" fragment the way XML→JSON does
// (empty elements as <a/>, namespaces declared where used), so that
// fragments compare by content.
func canonicalXML(frag string) string {
	r := xmlstream.NewReader([]byte("<x>"+frag+"</x>"), xmlstream.Limits{})
	if _, err := r.Next(); err != nil {
		return frag
	}
	var out []byte
	for {
		tok, err := r.Next()
		if err != nil {
			return string(out)
		}
		if tok.Kind == xmlstream.StartElement {
			if out, err = AppendSubtree(out, r, tok); err != nil {
				return frag
			}
		}
	}
}
