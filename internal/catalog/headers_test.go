package catalog

import (
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/wsdl/wsdltest"
)

// TestDiagnoseSOAPHeaders: header parts declared by element travel exactly
// in "$headers" (no warning); a part declared by type is a SOAP_HEADERS
// warning, its element name being a convention.
func TestDiagnoseSOAPHeaders(t *testing.T) {
	tests := []struct {
		file, op string
		warn     bool
	}{
		{"apache+cxf/testutils/src/main/resources/wsdl/soapheader.wsdl", "testHeader3", false},
		{"apache+cxf/testutils/src/main/resources/wsdl/soapheader.wsdl", "testHeader1", false},
		{"mvantellingen+python-zeep/tests/wsdl_files/soap_header.wsdl", "GetLastTradePrice", true},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			c := wsdltest.CorpusOperation(t, tt.file, "", "", tt.op)
			if len(c.Input.Headers)+len(c.Output.Headers) == 0 {
				t.Fatal("no header parts")
			}
			d := Diagnose(c, AutoMapping(c))
			var got *Reason
			for i, r := range d.Reasons {
				if r.Code == ReasonSOAPHeaders {
					got = &d.Reasons[i]
				}
			}
			if (got != nil) != tt.warn {
				t.Fatalf("SOAP_HEADERS = %+v, want %v (%s)", got, tt.warn, d.Status)
			}
			if tt.warn && (d.Status != AutoReadyWithWarnings || !strings.Contains(got.Message, "soap:header part body")) {
				t.Errorf("diagnostics = %+v", d)
			}
			if !tt.warn && d.Status != AutoReady {
				t.Errorf("diagnostics = %+v", d)
			}
		})
	}
}
