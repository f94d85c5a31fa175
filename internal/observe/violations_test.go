package observe

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestValidationIssuesStoredAndCounted: the violations of a detect-mode
// response are stored with the record and counted per route in
// s2r_contract_violations_total, those past the listed ones by the
// marker's count.
func TestValidationIssuesStoredAndCounted(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		r, _ := newRecorder(t, Config{Store: s})
		started(t, r)
		issues := []model.ValidationIssue{{Pointer: "/a", Reason: "unknown member"}, {Pointer: "/b", Reason: "bad facet"},
			model.OmittedIssues(3)}
		rec := record(0, time.Now())
		rec.ValidationIssues = issues
		r.Record(rec)
		r.Record(record(2, time.Now()))
		waitFor(t, "records written", func() bool { return r.Stats().Written == 2 })
		got, err := s.TxLogsByCorrelation(context.Background(), rec.CorrelationID)
		if err != nil || len(got) != 1 {
			t.Fatalf("logs = %v, %v", got, err)
		}
		if diff := cmp.Diff(issues, got[0].ValidationIssues); diff != "" {
			t.Errorf("stored issues (-want +got):\n%s", diff)
		}
		if v := value(t, r.metrics.violations.WithLabelValues("dev", "calc", "op")); v != 5 {
			t.Errorf("s2r_contract_violations_total{calc} = %v, want 5", v)
		}
	})
}

func TestStorableIssuesBounded(t *testing.T) {
	in := make([]model.ValidationIssue, 50)
	for i := range in {
		in[i] = model.ValidationIssue{Pointer: string(make([]byte, 5000)), Reason: "r"}
	}
	out := storableIssues(in)
	if len(out) != maxIssues+1 || len(out[0].Pointer) > maxPathLen {
		t.Fatalf("kept %d issues, pointer of %d bytes", len(out), len(out[0].Pointer))
	}
	if last := out[maxIssues]; last != model.OmittedIssues(30) || model.IssueCount(out) != 50 {
		t.Errorf("marker %+v, count %d; want 30 omitted of 50", last, model.IssueCount(out))
	}
	// A marker the runtime wrote adds to the issues cut here.
	in = append(in[:25:25], model.OmittedIssues(100))
	if out := storableIssues(in); len(out) != maxIssues+1 || out[maxIssues].Omitted != 105 {
		t.Errorf("marker after a marker: %d issues, last %+v", len(out), out[len(out)-1])
	}
}
