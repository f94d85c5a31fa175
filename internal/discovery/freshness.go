package discovery

import (
	"context"
	"strconv"
	"time"
)

// VendorF5 is the vendor whose silence sets kpis.f5IngestStale.
const VendorF5 = "f5"

// Freshness is the state of ingest for the dashboard (SPEC 4.11 rule 6):
// when each active connector instance was last heard from, which are
// stale, and the urgent issues they raise.
type Freshness struct {
	GeneratedAt  time.Time `json:"generatedAt"`
	StaleMinutes int64     `json:"staleMinutes"` // dashboard_freshness_stale_minutes
	// F5IngestStale is kpis.f5IngestStale: some active f5 instance has
	// sent neither events nor a heartbeat for StaleMinutes.
	F5IngestStale bool                `json:"f5IngestStale"`
	AnyStale      bool                `json:"anyStale"`
	Instances     []InstanceFreshness `json:"instances"`
	UrgentIssues  []UrgentIssue       `json:"urgentIssues"`
}

// InstanceFreshness is one active (not revoked) instance.
type InstanceFreshness struct {
	InstanceID      string     `json:"instanceId"`
	Name            string     `json:"name"`
	Vendor          string     `json:"vendor"`
	TenantID        string     `json:"tenantId"`
	LastEventAt     *time.Time `json:"lastEventAt"`
	LastHeartbeatAt *time.Time `json:"lastHeartbeatAt"`
	// LastSeenAt is the later of the two; nil when it never sent anything
	// (it is then judged from its registration time).
	LastSeenAt *time.Time `json:"lastSeenAt"`
	Stale      bool       `json:"stale"`
}

// UrgentIssue is one problem for the dashboard's urgentIssues.
type UrgentIssue struct {
	Kind       string     `json:"kind"`     // "ingest_stale"
	Severity   string     `json:"severity"` // "critical" for f5, else "warning"
	Message    string     `json:"message"`
	InstanceID string     `json:"instanceId"`
	Vendor     string     `json:"vendor"`
	TenantID   string     `json:"tenantId"`
	Since      *time.Time `json:"since"` // last heard from; nil: never
}

// Freshness reports ingest freshness at now for every tenant (a caller
// that shows one tenant filters by TenantID). An instance is stale when
// its last event or heartbeat (or, having sent none, its registration)
// is older than staleMinutes: dashboard_freshness_stale_minutes, which the
// caller (the dashboard) has read with the rest of its answer, so one
// answer judges every source by the same value.
func (s *Service) Freshness(ctx context.Context, now time.Time, staleMinutes int64) (Freshness, error) {
	insts, err := s.cfg.Store.IngestInstances(ctx, "")
	if err != nil {
		return Freshness{}, err
	}
	pending := s.seen.snapshot()
	stale := time.Duration(staleMinutes) * time.Minute
	out := Freshness{GeneratedAt: now.UTC(), StaleMinutes: staleMinutes,
		Instances: []InstanceFreshness{}, UrgentIssues: []UrgentIssue{}}
	for _, in := range insts {
		if !in.RevokedAt.IsZero() {
			continue
		}
		event := in.LastEventAt
		if t := pending[in.InstanceID]; t.After(event) {
			event = t
		}
		f := InstanceFreshness{InstanceID: in.InstanceID, Name: in.Name, Vendor: in.Vendor, TenantID: in.TenantID,
			LastEventAt: timePtr(event), LastHeartbeatAt: timePtr(in.LastHeartbeatAt)}
		last := event
		if in.LastHeartbeatAt.After(last) {
			last = in.LastHeartbeatAt
		}
		f.LastSeenAt = timePtr(last)
		judged := last
		if judged.IsZero() {
			judged = in.CreatedAt
		}
		f.Stale = now.Sub(judged) >= stale
		out.Instances = append(out.Instances, f)
		if !f.Stale {
			continue
		}
		out.AnyStale = true
		issue := UrgentIssue{Kind: "ingest_stale", Severity: "warning", InstanceID: in.InstanceID, Vendor: in.Vendor,
			TenantID: in.TenantID, Since: f.LastSeenAt,
			Message: in.Vendor + " ingest instance " + in.Name + " has sent nothing for " +
				strconv.FormatInt(staleMinutes, 10) + " minutes or more; its traffic may show as zero"}
		if in.Vendor == VendorF5 {
			out.F5IngestStale = true
			issue.Severity = "critical"
		}
		out.UrgentIssues = append(out.UrgentIssues, issue)
	}
	return out, nil
}
