package xmlstream

import (
	"testing"
)

func TestWriter(t *testing.T) {
	tests := []struct {
		name  string
		write func(w *Writer)
		want  string
	}{
		{"empty element", func(w *Writer) { w.Start("", "a"); w.End("", "a") }, `<a/>`},
		{"prefixed with ns", func(w *Writer) {
			w.Start("soap", "Envelope")
			w.NSDecl("soap", "urn:s")
			w.NSDecl("", "urn:d")
			w.Start("", "x")
			w.Text("1")
			w.End("", "x")
			w.End("soap", "Envelope")
		}, `<soap:Envelope xmlns:soap="urn:s" xmlns="urn:d"><x>1</x></soap:Envelope>`},
		{"text escapes", func(w *Writer) {
			w.Start("", "a")
			w.Text("<&>\"' \r\n\t]]>")
			w.End("", "a")
		}, "<a>&lt;&amp;&gt;\"' &#xD;\n\t]]&gt;</a>"},
		{"attr escapes", func(w *Writer) {
			w.Start("", "a")
			w.Attr("p", "x", "<&>\"'\t\n\r")
			w.End("", "a")
		}, `<a p:x="&lt;&amp;&gt;&quot;&apos;&#x9;&#xA;&#xD;"/>`},
		{"invalid characters", func(w *Writer) {
			w.Start("", "a")
			w.Attr("", "x", "a\x00b\xffc\uFFFEd")
			w.TextBytes([]byte("\x01é\xc3"))
			w.End("", "a")
		}, "<a x=\"a\uFFFDb\uFFFDc\uFFFDd\">\uFFFDé\uFFFD</a>"},
		{"empty text keeps empty form", func(w *Writer) { w.Start("", "a"); w.Text(""); w.End("", "a") }, `<a/>`},
		{"declaration and raw", func(w *Writer) {
			w.Declaration()
			w.Start("", "a")
			w.Raw([]byte("<b/>"))
			w.End("", "a")
		}, `<?xml version="1.0" encoding="UTF-8"?><a><b/></a>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := NewWriter(nil)
			tt.write(w)
			if got := string(w.Bytes()); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if w.Err() != nil {
				t.Errorf("Err = %v", w.Err())
			}
			if _, err := readAll(string(w.Bytes()), Limits{AllowUndeclaredPrefixes: true}); err != nil {
				t.Errorf("output does not read back: %v", err)
			}
		})
	}
}

func TestWriterMisuse(t *testing.T) {
	w := NewWriter(make([]byte, 0, 8))
	w.Start("", "a")
	w.Text("x")
	w.Attr("", "late", "1")
	w.End("", "a")
	if got := string(w.Bytes()); got != "<a>x</a>" {
		t.Errorf("got %s", got)
	}
	if w.Err() == nil {
		t.Error("Err = nil, want the misuse reported")
	}
	w.Reset()
	w.Grow(100)
	if w.Len() != 0 || w.Err() != nil {
		t.Errorf("after Reset: len %d err %v", w.Len(), w.Err())
	}
}
