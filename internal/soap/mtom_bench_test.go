package soap

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/textproto"
	"testing"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// mtomPackage builds an MTOM/XOP answer whose body references one binary
// attachment of size bytes, and its Content-Type.
func mtomPackage(tb testing.TB, size int) ([]byte, string) {
	tb.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	root := `<soap:Envelope xmlns:soap="` + NS11 + `"><soap:Body><t:FileResponse xmlns:t="urn:t"><t:data>` +
		`<xop:Include xmlns:xop="http://www.w3.org/2004/08/xop/include" href="cid:file@s2r"/></t:data></t:FileResponse></soap:Body></soap:Envelope>`
	h := textproto.MIMEHeader{}
	h.Set("Content-Type", `application/xop+xml; charset=UTF-8; type="text/xml"`)
	h.Set("Content-ID", "<root@s2r>")
	p, err := w.CreatePart(h)
	if err != nil {
		tb.Fatal(err)
	}
	p.Write([]byte(root))
	h = textproto.MIMEHeader{}
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Transfer-Encoding", "binary")
	h.Set("Content-ID", "<file@s2r>")
	if p, err = w.CreatePart(h); err != nil {
		tb.Fatal(err)
	}
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(i * 7)
	}
	p.Write(data)
	w.Close()
	ct := fmt.Sprintf(`multipart/related; type="application/xop+xml"; start="<root@s2r>"; start-info="text/xml"; boundary=%q`, w.Boundary())
	return buf.Bytes(), ct
}

// BenchmarkInlineMTOM inlines one attachment of 5 MB as base64 (what
// publish does before converting an MTOM answer to JSON). B/op against
// the package size is the memory one such answer costs: the base64 text
// alone is 4/3 of the attachment.
func BenchmarkInlineMTOM(b *testing.B) {
	for _, size := range []int{64 << 10, 5 << 20} {
		body, ct := mtomPackage(b, size)
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			limit := int64(8 << 20)
			for b.Loop() {
				out, _, err := InlineMTOM(ct, body, limit, xmlstream.Limits{MaxSize: limit})
				if err != nil {
					b.Fatal(err)
				}
				if len(out) < size*4/3 {
					b.Fatalf("inlined envelope of %d bytes", len(out))
				}
			}
			b.ReportMetric(float64(len(body)), "package-bytes")
		})
	}
}
