package main

import (
	"context"
	"time"

	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/notify"
)

// alertCandidates feeds the alert evaluation job (internal/notify) with
// discovery's enabled alert rules and their rows' last hour.
func alertCandidates(disc *discovery.Service) notify.Candidates {
	return notify.CandidatesFunc(func(ctx context.Context, now time.Time) ([]notify.Candidate, error) {
		all, err := disc.AlertCandidates(ctx, now)
		if err != nil {
			return nil, err
		}
		out := make([]notify.Candidate, 0, len(all))
		for _, c := range all {
			if !c.Enabled {
				continue
			}
			out = append(out, notify.Candidate{RowID: c.RowID, ServiceURI: c.ServiceURI, TenantID: c.TenantID,
				MinCalls1h: c.MinCalls1h, FailurePctThreshold: c.FailurePctThreshold,
				FailureCountThreshold: c.FailureCountThreshold, Calls1h: c.Calls1h, Failures1h: c.Failures1h})
		}
		return out, nil
	})
}
