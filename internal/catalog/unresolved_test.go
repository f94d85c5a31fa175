package catalog

import (
	"os"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/wsdl"
)

// TestDiagnoseUnresolved: an operation whose body needs a type the import
// could not resolve is MANUAL_REQUIRED with a reason naming file, line and
// the missing name, until a person saves a mapping for it; an operation of
// the same WSDL that needs nothing missing is AUTO_READY.
func TestDiagnoseUnresolved(t *testing.T) {
	b, err := os.ReadFile("../wsdl/testdata/lenient/missing-type.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	defs, err := wsdl.ParseFiles(t.Context(), "orders.wsdl", map[string][]byte{"orders.wsdl": b})
	if err != nil {
		t.Fatal(err)
	}
	place, _ := defs.Operation("", "", "PlaceOrder")
	status, _ := defs.Operation("", "", "GetStatus")
	d := Diagnose(place, AutoMapping(place))
	if d.Status != ManualRequired {
		t.Fatalf("PlaceOrder %s: %+v", d.Status, d.Reasons)
	}
	r := d.Reasons[0]
	if r.Code != ReasonUnresolved || r.Severity != "blocking" || r.File != "orders.wsdl" || r.Line != 16 || r.Name != "{urn:orders}Address" {
		t.Errorf("reason %+v", r)
	}
	manual := AutoMapping(place)
	manual.Source = model.MappingManual
	if d := Diagnose(place, manual); d.Status != AutoReadyWithWarnings || d.Reasons[0].Severity != "warning" {
		t.Errorf("with a manual mapping: %s %+v", d.Status, d.Reasons)
	}
	if d := Diagnose(status, AutoMapping(status)); d.Status != AutoReady {
		t.Errorf("GetStatus %s: %+v", d.Status, d.Reasons)
	}
}
