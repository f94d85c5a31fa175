package catalog

import (
	"context"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
	"github.com/s2r-project/s2r/internal/xsd"
)

// TestCorpus drafts, diagnoses, assesses and drift-checks every corpus
// WSDL that imports on its own (single file): nothing may panic, a WSDL
// compared with itself is UP_TO_DATE, and diagnostics are MANUAL_REQUIRED
// for an auto mapping exactly when the contract needs what the import
// could not resolve.
func TestCorpus(t *testing.T) {
	imported, drafted := 0, 0
	for _, rel := range wsdlcorpus.WSDLs(t) {
		b := wsdlcorpus.Read(t, rel)
		defs, err := wsdl.ParseFiles(context.Background(), "root.wsdl", map[string][]byte{"root.wsdl": b})
		if err != nil {
			continue // needs its imports, or not importable: the wsdl tests cover it
		}
		imported++
		ops, err := DraftOperations(defs, "", "")
		if err != nil {
			continue
		}
		drafted++
		checkCorpusDraft(t, rel, defs, ops)
	}
	t.Logf("%d corpus WSDLs imported alone, %d drafted", imported, drafted)
	if drafted == 0 {
		t.Error("no corpus WSDL drafted")
	}
}

func checkCorpusDraft(t *testing.T, rel string, defs *wsdl.Definitions, ops []model.Operation) {
	in := ReadinessInput{Service: model.Service{Status: model.ServiceActive, Direction: model.DirectionPublish},
		Contracts: map[string]*xsd.Operation{}, Mappings: map[string]model.Mapping{}, BackendProfiles: 1}
	svc, port, _ := SelectPort(defs, "", "")
	ix := NewContractIndex(defs)
	unresolved := 0
	for i := range ops {
		ops[i].OperationID = ops[i].OperationKey
		c := ix.Contract(svc, port.Name, ops[i])
		if c == nil {
			t.Errorf("%s: no contract for %s", rel, ops[i].SOAPOperationName)
			continue
		}
		in.Contracts[ops[i].OperationID], in.Mappings[ops[i].OperationID] = c, AutoMapping(c)
		d := Diagnose(c, AutoMapping(c))
		switch {
		case len(c.Unresolved) > 0:
			unresolved++
			if d.Status != ManualRequired {
				t.Errorf("%s %s: needs unresolved components but is %s", rel, ops[i].SOAPOperationName, d.Status)
			}
		case d.Status == ManualRequired:
			t.Errorf("%s %s: auto mapping MANUAL_REQUIRED: %+v", rel, ops[i].SOAPOperationName, d.Reasons)
		}
	}
	in.Operations = ops
	if rep := Readiness(in); rep.Status == Blocked && unresolved == 0 {
		t.Errorf("%s: readiness BLOCKED: %+v", rel, rep.BlockingIssues)
	}
	if rep := Drift(defs, defs, ops); rep.Status != UpToDate {
		t.Errorf("%s: drift against itself = %+v", rel, rep)
	}
}
