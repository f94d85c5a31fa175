package catalog

import (
	"fmt"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xsd"
)

// benchOps are 1,000 operations with a few fields each.
func benchOps() []synthOp {
	ops := make([]synthOp, 1000)
	for i := range ops {
		ops[i] = synthOp{fmt.Sprintf("Operation%04dByName", i), fmt.Sprintf("urn:op%d", i),
			[]string{"id:string:1", "name:string:0", "count:int:1", "when:dateTime:0"},
			[]string{"result:string:1", "total:decimal:0", "ok:boolean:1"}}
	}
	return ops
}

// BenchmarkParse1000 is the baseline: parsing and compiling the WSDL,
// which every import does before the catalog sees it.
func BenchmarkParse1000(b *testing.B) {
	ops := benchOps()
	synthDefs(b, "urn:bench", ops)
	b.ReportAllocs()
	for b.Loop() {
		synthDefs(b, "urn:bench", ops)
	}
}

// BenchmarkDraftAndReadiness1000 drafts 1,000 operations, derives their
// auto mappings and assesses publish readiness (diagnostics included), as
// autopilot does after the parse.
func BenchmarkDraftAndReadiness1000(b *testing.B) {
	defs := synthDefs(b, "urn:bench", benchOps())
	b.ReportAllocs()
	for b.Loop() {
		if rep := draftAndAssess(b, defs); rep.Status != ReadyToPublish {
			b.Fatalf("status %s", rep.Status)
		}
	}
}

func draftAndAssess(b *testing.B, defs *wsdl.Definitions) ReadinessReport {
	ops, err := DraftOperations(defs, "", "")
	if err != nil {
		b.Fatal(err)
	}
	in := ReadinessInput{Service: model.Service{Status: model.ServiceActive, Direction: model.DirectionPublish},
		Contracts: make(map[string]*xsd.Operation, len(ops)), Mappings: make(map[string]model.Mapping, len(ops)), BackendProfiles: 1}
	for i := range ops {
		ops[i].OperationID = ops[i].OperationKey
		c := Contract(defs, "S", "P", ops[i])
		in.Contracts[ops[i].OperationID], in.Mappings[ops[i].OperationID] = c, AutoMapping(c)
	}
	in.Operations = ops
	return Readiness(in)
}

// BenchmarkDrift1000 compares 1,000 operations against the same contract.
func BenchmarkDrift1000(b *testing.B) {
	defs := synthDefs(b, "urn:bench", benchOps())
	newer := synthDefs(b, "urn:bench", benchOps())
	ops, _ := DraftOperations(defs, "", "")
	b.ReportAllocs()
	for b.Loop() {
		if rep := Drift(defs, newer, ops); rep.Status != UpToDate {
			b.Fatalf("status %s", rep.Status)
		}
	}
}
