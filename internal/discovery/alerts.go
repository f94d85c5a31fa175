package discovery

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// Alert rule defaults (SPEC 2.4).
const (
	DefaultMinCalls1h            = 20
	DefaultFailurePctThreshold   = 10.0
	DefaultFailureCountThreshold = 5
	maxRuleCount                 = 1_000_000_000
)

// AlertRuleView is a row's alert rule.
type AlertRuleView struct {
	Enabled               bool      `json:"enabled"`
	MinCalls1h            int64     `json:"minCalls1h"`
	FailurePctThreshold   float64   `json:"failurePctThreshold"`
	FailureCountThreshold int64     `json:"failureCountThreshold"`
	UpdatedAt             time.Time `json:"updatedAt"`
	UpdatedBy             string    `json:"updatedBy"`
}

func alertRuleView(a model.AlertRule) AlertRuleView {
	return AlertRuleView{Enabled: a.Enabled, MinCalls1h: a.MinCalls1h, FailurePctThreshold: a.FailurePctThreshold,
		FailureCountThreshold: a.FailureCountThreshold, UpdatedAt: a.UpdatedAt, UpdatedBy: a.UpdatedBy}
}

// alertRuleInput is the PUT body; a missing field takes its SPEC default
// (PUT replaces the whole rule).
type alertRuleInput struct {
	Enabled               *bool    `json:"enabled"`
	MinCalls1h            *int64   `json:"minCalls1h"`
	FailurePctThreshold   *float64 `json:"failurePctThreshold"`
	FailureCountThreshold *int64   `json:"failureCountThreshold"`
}

// AlertSaved answers a saved rule.
type AlertSaved struct {
	Status     string `json:"status"` // "saved"
	ServiceURI string `json:"serviceUri"`
}

var docPutAlert = adminapi.Doc{
	Summary: "Save the alert rule of a master discovery row (missing fields take their defaults: enabled false, minCalls1h 20, " +
		"failurePctThreshold 10.0, failureCountThreshold 5). 400 S2R-DISC-0400 when the row has no lbInstanceId; " +
		"404 S2R-DISC-0404 when it is missing or in another tenant.",
	Request: alertRuleInput{}, Response: AlertSaved{}, Errors: []int{http.StatusNotFound},
}

// rule validates in and returns the rule it describes.
func (in alertRuleInput) rule() (model.AlertRule, error) {
	a := model.AlertRule{MinCalls1h: DefaultMinCalls1h, FailurePctThreshold: DefaultFailurePctThreshold,
		FailureCountThreshold: DefaultFailureCountThreshold}
	if in.Enabled != nil {
		a.Enabled = *in.Enabled
	}
	if in.MinCalls1h != nil {
		if *in.MinCalls1h < 0 || *in.MinCalls1h > maxRuleCount {
			return a, adminapi.FieldError("minCalls1h", "must be an integer between 0 and 1000000000")
		}
		a.MinCalls1h = *in.MinCalls1h
	}
	if in.FailurePctThreshold != nil {
		p := *in.FailurePctThreshold
		if math.IsNaN(p) || p < 0 || p > 100 {
			return a, adminapi.FieldError("failurePctThreshold", "must be a number between 0 and 100")
		}
		a.FailurePctThreshold = p
	}
	if in.FailureCountThreshold != nil {
		if *in.FailureCountThreshold < 0 || *in.FailureCountThreshold > maxRuleCount {
			return a, adminapi.FieldError("failureCountThreshold", "must be an integer between 0 and 1000000000")
		}
		a.FailureCountThreshold = *in.FailureCountThreshold
	}
	return a, nil
}

// putAlert saves a row's alert rule.
func (s *Service) putAlert(w http.ResponseWriter, r *http.Request) error {
	var in alertRuleInput
	if err := adminapi.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	rule, err := in.rule()
	if err != nil {
		return err
	}
	row, err := s.loadRow(r)
	if err != nil {
		return err
	}
	if row.LBInstanceID == "" {
		return apierr.New(apierr.DiscBadRequest, "alert rules apply to rows observed by an lb instance; this row has no lbInstanceId")
	}
	c, _ := access.CallerFrom(r.Context())
	rule.RowID, rule.UpdatedAt, rule.UpdatedBy = row.RowID, adminapi.Now(), c.Email
	err = s.cfg.Store.Transact(r.Context(), func(tx *store.Tx) error {
		before, had, err := tx.AlertRule(r.Context(), row.RowID)
		if err != nil {
			return err
		}
		if err := tx.PutAlertRule(r.Context(), rule); err != nil {
			return err
		}
		var beforeState any
		if had {
			beforeState = alertRuleView(before)
		}
		msg := "saved the alert rule of " + row.ServiceURI
		return tx.InsertAudit(r.Context(), adminapi.AuditEvent(r, "discovery.alert_rule.put", "discovery_row",
			strconv.FormatInt(row.RowID, 10), msg, beforeState, alertRuleView(rule)))
	})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, AlertSaved{Status: "saved", ServiceURI: row.ServiceURI})
}

// AlertCandidate is one alert rule with its row and the row's lb traffic
// in the last hour, for the alert evaluation job (internal/notify).
type AlertCandidate struct {
	RowID                 int64
	ServiceURI            string
	TenantID              string
	LBInstanceID          string
	Enabled               bool
	MinCalls1h            int64
	FailurePctThreshold   float64
	FailureCountThreshold int64
	// Calls1h and Failures1h count the row's lb calls (client_response
	// events) in the 60 one-minute buckets [WindowFrom, WindowTo): the
	// current minute and the 59 before it.
	Calls1h    int64
	Failures1h int64
	WindowFrom time.Time
	WindowTo   time.Time
}

// FailurePct is Failures1h as a percentage of Calls1h (0 without calls).
func (c AlertCandidate) FailurePct() float64 {
	if c.Calls1h == 0 {
		return 0
	}
	return float64(c.Failures1h) * 100 / float64(c.Calls1h)
}

// Triggered applies DESIGN 9's rule: the rule is enabled, calls in the
// last hour reach MinCalls1h, and the failure percentage reaches
// FailurePctThreshold or the failures reach FailureCountThreshold.
func (c AlertCandidate) Triggered() bool {
	return c.Enabled && c.Calls1h >= c.MinCalls1h &&
		(c.FailurePct() >= c.FailurePctThreshold || c.Failures1h >= c.FailureCountThreshold)
}

// AlertCandidates returns every alert rule (enabled or not, every tenant)
// with its row's lb calls and failures in the hour up to now, ordered by
// row id. It reads the per-minute rollups, never raw events, so it is
// cheap to call every evaluation interval.
func (s *Service) AlertCandidates(ctx context.Context, now time.Time) ([]AlertCandidate, error) {
	to := now.UTC().Truncate(time.Minute).Add(time.Minute)
	from := to.Add(-time.Hour)
	ws, err := s.cfg.Store.AlertRuleWindows(ctx, from, to)
	if err != nil {
		return nil, err
	}
	out := make([]AlertCandidate, len(ws))
	for i, w := range ws {
		out[i] = AlertCandidate{RowID: w.RowID, ServiceURI: w.ServiceURI, TenantID: w.TenantID, LBInstanceID: w.LBInstanceID,
			Enabled: w.Enabled, MinCalls1h: w.MinCalls1h, FailurePctThreshold: w.FailurePctThreshold,
			FailureCountThreshold: w.FailureCountThreshold, Calls1h: w.Calls, Failures1h: w.Failures, WindowFrom: from, WindowTo: to}
	}
	return out, nil
}
