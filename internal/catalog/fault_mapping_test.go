package catalog

import (
	"encoding/json"
	"testing"

	"github.com/s2r-project/s2r/internal/wsdl/wsdltest"
)

// TestFaultMappingPick: pick paths are paths in the JSON fault, whose
// detail is keyed by the detail element's local name (docs/conversion.md
// section 13), for a wrapped (NoSuchCodeLit) and a simple (BadRecordLit)
// declared fault alike.
func TestFaultMappingPick(t *testing.T) {
	const file = "apache+cxf/testutils/src/main/resources/wsdl/hello_world.wsdl"
	c := wsdltest.CorpusOperation(t, file, "SOAPService", "SoapPort", "testDocLitFault")
	for _, tt := range []struct {
		pick string
		ok   bool
	}{
		{`["detail"]`, true},
		{`["detail/NoSuchCodeLit"]`, true},
		{`["detail/NoSuchCodeLit/code/major"]`, true},
		{`["detail/BadRecordLit", "detail/NoSuchCodeLit/code"]`, true},
		{`["detail/code"]`, false}, // the element's name is part of the path
		{`["NoSuchCodeLit/code"]`, false},
		{`["detail/NoSuchCodeLit/nope"]`, false},
		{`["detail/BadRecordLit/x"]`, false},
	} {
		m := AutoMapping(c)
		m.FaultMapping = json.RawMessage(`{"mode":"identity","pick":` + tt.pick + `}`)
		if probs := CheckMapping(c, m); (len(probs) == 0) != tt.ok {
			t.Errorf("pick %s: problems %+v, want ok=%v", tt.pick, probs, tt.ok)
		}
	}
}
