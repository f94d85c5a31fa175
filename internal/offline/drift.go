package offline

import (
	"context"
	"fmt"
	"time"

	"github.com/s2r-project/s2r/internal/admin/onboarding"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
)

// Drift classifies NEW against OLD as the server classifies a version
// drafted from OLD against a newer import NEW of its lineage
// (GET …/versions/{versionId}/wsdl-drift): the version's operations are
// those autopilot drafts from OLD. When OLD onboards several services
// (one per SOAP port type) the report holds the changes of each, once,
// and the worst status.
func Drift(ctx context.Context, oldFile, newFile File) (catalog.DriftReport, error) {
	oldDefs, err := oldFile.parse(ctx)
	if err != nil {
		return catalog.DriftReport{}, err
	}
	newDefs, err := newFile.parse(ctx)
	if err != nil {
		return catalog.DriftReport{}, err
	}
	o := onboarding.Options{Environment: DefaultEnvironment, Direction: model.DirectionPublish}
	plans, err := onboarding.PlanServices(oldDefs, "", o, time.Now())
	if err != nil {
		return catalog.DriftReport{}, fmt.Errorf("%s: %w", oldFile.Name, err)
	}
	out := catalog.DriftReport{Status: catalog.UpToDate, Changes: []catalog.Change{}}
	seen := map[catalog.Change]bool{}
	for _, p := range plans {
		rep := catalog.Drift(oldDefs, newDefs, p.Draft.Ops)
		for _, c := range rep.Changes {
			if !seen[c] {
				seen[c] = true
				out.Changes = append(out.Changes, c)
			}
		}
		if rank(rep.Status) > rank(out.Status) {
			out.Status = rep.Status
		}
	}
	return out, nil
}

// rank orders the statuses Drift can answer from best to worst.
func rank(status string) int {
	switch status {
	case catalog.DriftDetected:
		return 1
	case catalog.BreakingDrift:
		return 2
	}
	return 0
}
