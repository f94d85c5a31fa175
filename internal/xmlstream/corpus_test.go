package xmlstream

import (
	"testing"

	"github.com/s2r-project/s2r/internal/wsdlcorpus"
)

// TestCorpus reads every real-world WSDL and XSD file and compares the
// result with encoding/xml the same way FuzzReaderDifferential does.
func TestCorpus(t *testing.T) {
	for _, rel := range wsdlcorpus.Files(t, ".wsdl", ".xsd") {
		t.Run(rel, func(t *testing.T) {
			doc := wsdlcorpus.Read(t, rel)
			got, gotErr := readerEvents(doc)
			want, wantErr := refEvents(doc)
			switch {
			case gotErr != nil && wantErr != nil:
				t.Logf("both refuse: %v / %v", gotErr, wantErr)
			case gotErr != nil:
				t.Fatalf("Reader refuses (%v), encoding/xml accepts", gotErr)
			case wantErr != nil:
				t.Fatalf("encoding/xml refuses (%v), Reader accepts", wantErr)
			default:
				if len(got) != len(want) {
					t.Fatalf("%d events, encoding/xml %d", len(got), len(want))
				}
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("event %d: %s\nencoding/xml: %s", i, got[i], want[i])
					}
				}
			}
			if _, err := Parse(doc, Limits{}); err != nil && gotErr == nil {
				t.Fatalf("Parse: %v", err)
			}
			// Some real WSDLs use prefixes they never declare; namespace
			// repair mode reads them all.
			if _, err := Parse(doc, Limits{AllowUndeclaredPrefixes: true}); err != nil {
				t.Fatalf("Parse with undeclared prefixes allowed: %v", err)
			}
		})
	}
}
