package transform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/s2r-project/s2r/internal/tests/cputime"
)

// benchDoc builds a publish request of about 20 KB: an order with items.
func benchDoc(tb testing.TB) []byte {
	tb.Helper()
	var b bytes.Buffer
	b.WriteString(`{"orderId":"  ORD-000123  ","customer":{"name":"  Ada Lovelace ","email":"ADA@EXAMPLE.COM","tags":"vip,eu,b2b"},"items":[`)
	for i := range 126 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"sku":"sku-%05d","description":"  item number %d with a longer description  ","price":%d.%02d,"qty":null,"deliveryDate":"%02d.%02d.2025","codes":["a%d","b%d"]}`,
			i, i, 10+i, i%100, 1+i%28, 1+i%12, i, i)
	}
	b.WriteString(`],"total":123456789012345678.99}`)
	if b.Len() < 19000 || b.Len() > 22000 {
		tb.Fatalf("bench document is %d bytes", b.Len())
	}
	return b.Bytes()
}

var benchRules = []Rule{
	rule(KindTrim, "/orderId"),
	rule(KindTrim, "/customer/name"),
	rule(KindLowercase, "/customer/email"),
	rule(KindSplit, "/customer/tags", "separator", ","),
	rule(KindUppercase, "/items/*/sku"),
	rule(KindTrim, "/items/*/description"),
	rule(KindDefaultValue, "/items/*/qty", "value", 1.0),
	rule(KindDateFormat, "/items/*/deliveryDate", "from", "dd.MM.yyyy", "to", "yyyy-MM-dd"),
	rule(KindJoin, "/items/*/codes", "separator", ";"),
	rule(KindRename, "/total", "to", "orderTotal"),
}

// BenchmarkApply runs ten rules (six of them over 126 array elements).
func BenchmarkApply(b *testing.B) {
	benchProgram(b, benchRules)
}

// BenchmarkApplyNoop measures the parse and re-encode floor: one rule that
// matches nothing.
func BenchmarkApplyNoop(b *testing.B) {
	benchProgram(b, []Rule{rule(KindTrim, "/absent")})
}

// BenchmarkEncodingJSONRoundTrip is the baseline: decoding the same
// document into any with encoding/json (UseNumber) and encoding it again,
// which is what a naive implementation would do (and which loses key order).
func BenchmarkEncodingJSONRoundTrip(b *testing.B) {
	doc := benchDoc(b)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	defer cputime.Report(b)()
	for b.Loop() {
		dec := json.NewDecoder(bytes.NewReader(doc))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(v); err != nil {
			b.Fatal(err)
		}
	}
}

func benchProgram(b *testing.B, rules []Rule) {
	doc := benchDoc(b)
	prog, err := Compile(rules)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	defer cputime.Report(b)()
	for b.Loop() {
		if _, err := prog.Apply(doc); err != nil {
			b.Fatal(err)
		}
	}
}
