package xmlstream

import (
	"bytes"
	"encoding/xml"
	"io"
	"testing"
)

// BenchmarkReader reads whole envelopes with a fresh Reader per document,
// as a request handler would.
func BenchmarkReader(b *testing.B) {
	for _, s := range benchSizes {
		doc := soapEnvelope(s.size)
		b.Run("size="+s.name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				r := NewReader(doc, Limits{})
				for {
					_, err := r.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkReaderReuse reads envelopes with one Reader reset per document.
func BenchmarkReaderReuse(b *testing.B) {
	for _, s := range benchSizes {
		doc := soapEnvelope(s.size)
		b.Run("size="+s.name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			r := NewReader(nil, Limits{})
			for b.Loop() {
				r.Reset(doc, Limits{})
				for {
					_, err := r.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkEncodingXMLRawToken is the baseline: encoding/xml without
// namespace translation or end tag matching (less work than Reader does).
func BenchmarkEncodingXMLRawToken(b *testing.B) {
	for _, s := range benchSizes {
		doc := soapEnvelope(s.size)
		b.Run("size="+s.name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				d := xml.NewDecoder(bytes.NewReader(doc))
				for {
					_, err := d.RawToken()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkParse builds the tree (used by the WSDL compiler, not hot).
func BenchmarkParse(b *testing.B) {
	doc := soapEnvelope(20 << 10)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(doc, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriter writes an envelope of about 20 KB.
func BenchmarkWriter(b *testing.B) {
	w := NewWriter(nil)
	b.ReportAllocs()
	for b.Loop() {
		w.Reset()
		writeEnvelope(w, 100)
	}
	b.SetBytes(int64(w.Len()))
}

func writeEnvelope(w *Writer, lines int) {
	w.Start("soap", "Envelope")
	w.NSDecl("soap", "http://schemas.xmlsoap.org/soap/envelope/")
	w.NSDecl("ord", "http://example.com/orders/2024")
	w.Start("soap", "Body")
	w.Start("ord", "Order")
	for range lines {
		w.Start("ord", "line")
		w.Attr("", "status", "open")
		w.Start("ord", "description")
		w.Text(`Widget – blue, size "L" & extras`)
		w.End("ord", "description")
		w.Start("ord", "quantity")
		w.Text("12")
		w.End("ord", "quantity")
		w.End("ord", "line")
	}
	w.End("ord", "Order")
	w.End("soap", "Body")
	w.End("soap", "Envelope")
}
