package discovery

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// RowView is a master discovery row as the admin API shows it (DESIGN 9
// fields, and what helps read them).
type RowView struct {
	RowID              int64     `json:"rowId"`
	ServiceURI         string    `json:"serviceUri"`
	LBInstanceID       string    `json:"lbInstanceId,omitempty"` // only when an lb instance reported the URI
	Vendor             string    `json:"vendor"`
	Vendors            []string  `json:"vendors"` // every vendor that reported calls
	Sources            []string  `json:"sources"` // lb, generic
	FirstSeen          time.Time `json:"firstSeen"`
	LastSeen           time.Time `json:"lastSeen"`
	Calls24h           int64     `json:"calls24h"`
	Errors24h          int64     `json:"errors24h"`
	OnboardedServiceID string    `json:"onboardedServiceId,omitempty"` // only when an onboarded service matches
	Environment        string    `json:"environment"`                  // the service's, or "discovered"
	ServiceKey         string    `json:"serviceKey"`                   // the service's, or the serviceUri
	SampleURI          string    `json:"sampleUri"`                    // one URI as sent, before normalisation
	TenantID           string    `json:"tenantId"`
}

func rowView(r model.DiscoveryRow) RowView {
	v := RowView{RowID: r.RowID, ServiceURI: r.ServiceURI, LBInstanceID: r.LBInstanceID, Vendor: r.Vendor, Vendors: r.Vendors,
		Sources: []string{}, FirstSeen: r.FirstSeen, LastSeen: r.LastSeen, Calls24h: r.Calls24h, Errors24h: r.Errors24h,
		OnboardedServiceID: r.OnboardedServiceID, Environment: r.Environment, ServiceKey: r.ServiceKey,
		SampleURI: r.SampleURI, TenantID: r.TenantID}
	if r.SeenLB {
		v.Sources = append(v.Sources, model.SourceLB)
	}
	if r.SeenGeneric {
		v.Sources = append(v.Sources, model.SourceGeneric)
	}
	if v.Vendors == nil {
		v.Vendors = []string{}
	}
	return v
}

var docGetRows = adminapi.Doc{
	Summary: "Master discovery rows of the caller's tenant, most recently seen first: one per normalised serviceUri seen in lb " +
		"events or generic logs, with calls and errors of the last 24 hourly buckets.",
	Query: append([]adminapi.Param{
		{Name: "q", Type: "string", Description: "substring of the serviceUri or serviceKey, any case"},
		{Name: "vendor", Type: "string", Description: "a vendor that reported the row (f5, kong, …)"},
		{Name: "source", Type: "string", Description: "lb or generic: rows seen in that source"},
		{Name: "onboarded", Type: "boolean", Description: "true: rows matching an onboarded service; false: shadow services"},
	}, adminapi.PageParams...),
	Response: model.ObservabilityPageRecord[RowView]{},
}

// getRows lists the caller's tenant's rows.
func (s *Service) getRows(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	page, err := adminapi.ParsePage(q)
	if err != nil {
		return err
	}
	f := model.DiscoveryRowFilter{TenantID: callerTenant(r), Q: q.Get("q"), Vendor: q.Get("vendor")}
	if len(f.Q) > 256 {
		return adminapi.FieldError("q", "must be at most 256 characters")
	}
	switch src := q.Get("source"); src {
	case "", model.SourceLB, model.SourceGeneric:
		f.Source = src
	default:
		return adminapi.FieldError("source", "must be lb or generic")
	}
	if v := q.Get("onboarded"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return adminapi.FieldError("onboarded", "must be true or false")
		}
		f.Onboarded = &b
	}
	rows, err := s.cfg.Store.DiscoveryRows(r.Context(), f, s.cfg.Now(), page)
	if err != nil {
		return err
	}
	items := make([]RowView, len(rows.Items))
	for i, row := range rows.Items {
		items[i] = rowView(row)
	}
	return writeJSON(w, http.StatusOK, model.NewPage(items, page, rows.TotalItems))
}

// errRowNotFound is the answer for a row that is missing or in another
// tenant: the two are indistinguishable on purpose.
var errRowNotFound = apierr.New(apierr.DiscNotFound, "master discovery row not found")

// loadRow returns the row of r's {rowId} if it is in the caller's tenant.
func (s *Service) loadRow(r *http.Request) (model.DiscoveryRow, error) {
	id, err := strconv.ParseInt(r.PathValue("rowId"), 10, 64)
	if err != nil || id <= 0 {
		return model.DiscoveryRow{}, errRowNotFound
	}
	row, err := s.cfg.Store.DiscoveryRow(r.Context(), id, s.cfg.Now())
	if errors.Is(err, store.ErrNotFound) {
		return model.DiscoveryRow{}, errRowNotFound
	}
	if err != nil {
		return model.DiscoveryRow{}, err
	}
	if row.TenantID != callerTenant(r) {
		return model.DiscoveryRow{}, errRowNotFound
	}
	return row, nil
}
