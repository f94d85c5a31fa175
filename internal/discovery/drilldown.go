package discovery

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
)

// Drill-down limits (SPEC 4.9, 8).
const (
	defaultTimelineDays = 7
	maxTimelineDays     = 30
	maxGoodExamples     = 50
	maxConsumers        = 100
	// listPayloadBytes bounds each payload of a listed exchange; the full
	// (64 KB) payload is in the traffic-log detail.
	listPayloadBytes = 16 << 10
)

// DrillDown is the drill-down answer (SPEC 4.9).
type DrillDown struct {
	Row           RowView         `json:"row"`
	Source        string          `json:"source"` // lb, generic or all, as applied
	TimelineDays  int             `json:"timelineDays"`
	TimelineFrom  time.Time       `json:"timelineFrom"` // first hour, inclusive
	TimelineTo    time.Time       `json:"timelineTo"`   // end of the current hour, exclusive
	Timeline      []TimelinePoint `json:"timeline"`
	Consumers     []ConsumerView  `json:"consumers"`
	ConsumerCount int64           `json:"consumerCount"`
	AlertRule     *AlertRuleView  `json:"alertRule"`
	GoodExamples  []ExchangeView  `json:"goodExamples"`
}

// TimelinePoint is one hour; every hour of the window is present.
type TimelinePoint struct {
	Hour         time.Time `json:"hour"`
	Calls        int64     `json:"calls"`
	Failures     int64     `json:"failures"`
	AvgLatencyMs float64   `json:"avgLatencyMs"`
	MaxLatencyMs float64   `json:"maxLatencyMs"`
}

// ConsumerView is one consumer (client IP) of a row in the window.
type ConsumerView struct {
	ConsumerIP string    `json:"consumerIp"`
	Calls      int64     `json:"calls"`
	Failures   int64     `json:"failures"`
	LastSeen   time.Time `json:"lastSeen"`
}

// ExchangeView is one call: an lb transaction (its stages merged) or a
// generic log.
type ExchangeView struct {
	Source              string          `json:"source"`
	ID                  string          `json:"id"` // lb: the client_response event id; generic: the log id
	EventID             string          `json:"eventId"`
	GlobalTransactionID string          `json:"globalTransactionId,omitempty"`
	InstanceID          string          `json:"instanceId"`
	Vendor              string          `json:"vendor"`
	OccurredAt          time.Time       `json:"occurredAt"`
	Method              string          `json:"method"`
	URI                 string          `json:"uri"`
	StatusCode          int             `json:"statusCode"`
	ResultCode          string          `json:"resultCode"`
	SoapFault           bool            `json:"soapFault"`
	DurationMs          float64         `json:"durationMs"`
	ConsumerIP          string          `json:"consumerIp"`
	Backend             string          `json:"backend"`
	Request             ExchangeMessage `json:"request"`
	Response            ExchangeMessage `json:"response"`
}

// ExchangeMessage is one side of an exchange.
type ExchangeMessage struct {
	Headers   map[string]string `json:"headers,omitempty"`
	Payload   string            `json:"payload"`
	Truncated bool              `json:"truncated,omitempty"` // payload cut to 16 KB in lists
}

var docGetDrillDown = adminapi.Doc{
	Summary: "Drill-down of one master discovery row: hourly timeline, consumers, alert rule and up to 50 recent successful " +
		"request/response pairs. 404 S2R-DISC-0404 when the row is missing or in another tenant.",
	Query: []adminapi.Param{
		{Name: "timelineDays", Type: "integer", Description: "1..30, default 7; out of range is clamped"},
		{Name: "source", Type: "string", Description: "lb (default), generic or all; any other value is lb"},
	},
	Response: DrillDown{}, Errors: []int{http.StatusNotFound},
}

// drillDownParams applies SPEC 4.9's rules: timelineDays clamped to
// 1..30 (default 7, also for a non-number), source lb unless generic or
// all.
func drillDownParams(r *http.Request) (days int, source string) {
	q := r.URL.Query()
	days = defaultTimelineDays
	if n, err := strconv.Atoi(q.Get("timelineDays")); err == nil {
		days = min(max(n, 1), maxTimelineDays)
	}
	source = q.Get("source")
	if source != model.SourceGeneric && source != model.SourceAll {
		source = model.SourceLB
	}
	return days, source
}

// getDrillDown answers the drill-down of a row.
func (s *Service) getDrillDown(w http.ResponseWriter, r *http.Request) error {
	row, err := s.loadRow(r)
	if err != nil {
		return err
	}
	days, source := drillDownParams(r)
	now := s.cfg.Now().UTC()
	to := now.Truncate(time.Hour).Add(time.Hour)
	from := to.Add(-time.Duration(days) * 24 * time.Hour)
	ctx := r.Context()
	points, err := s.cfg.Store.DiscoveryTimeline(ctx, row, source, from)
	if err != nil {
		return err
	}
	consumers, count, err := s.cfg.Store.DiscoveryConsumers(ctx, row, source, from, maxConsumers)
	if err != nil {
		return err
	}
	rule, ok, err := s.cfg.Store.AlertRule(ctx, row.RowID)
	if err != nil {
		return err
	}
	examples, _, err := s.exchanges(ctx, row, source, from, false, maxGoodExamples)
	if err != nil {
		return err
	}
	out := DrillDown{Row: rowView(row), Source: source, TimelineDays: days, TimelineFrom: from, TimelineTo: to,
		Timeline: fillTimeline(points, from, to), Consumers: make([]ConsumerView, len(consumers)),
		ConsumerCount: count, GoodExamples: exchangeViews(examples)}
	for i, c := range consumers {
		out.Consumers[i] = ConsumerView{ConsumerIP: c.ConsumerIP, Calls: c.Calls, Failures: c.Failures, LastSeen: c.LastSeen}
	}
	if ok {
		v := alertRuleView(rule)
		out.AlertRule = &v
	}
	return writeJSON(w, http.StatusOK, out)
}

// fillTimeline returns one point per hour in [from, to), zero where no
// call was counted.
func fillTimeline(points []model.HourlyPoint, from, to time.Time) []TimelinePoint {
	byHour := make(map[time.Time]model.HourlyPoint, len(points))
	for _, p := range points {
		byHour[p.Hour.UTC()] = p
	}
	out := make([]TimelinePoint, 0, int(to.Sub(from)/time.Hour))
	for h := from; h.Before(to); h = h.Add(time.Hour) {
		tp := TimelinePoint{Hour: h}
		if p, ok := byHour[h]; ok {
			tp.Calls, tp.Failures, tp.MaxLatencyMs = p.Calls, p.Failures, p.LatencyMaxMs
			if p.Calls > 0 {
				// Microseconds are enough, and rounding hides the last bits a
				// sum's order changes.
				tp.AvgLatencyMs = math.Round(p.LatencySumMs/float64(p.Calls)*1000) / 1000
			}
		}
		out = append(out, tp)
	}
	return out
}

// genericScanLimit bounds the generic logs read to find a vendor's
// exchanges among every vendor's (rows without an lb instance).
const genericScanLimit = 5000

// exchanges returns up to limit of row's newest successful (or failing)
// exchanges of source since from, merged newest first; exhausted reports
// a bounded scan that ended before limit was reached.
func (s *Service) exchanges(ctx context.Context, row model.DiscoveryRow, source string, from time.Time, failures bool, limit int) ([]model.Exchange, bool, error) {
	var (
		out       []model.Exchange
		exhausted bool
	)
	if source != model.SourceGeneric {
		lb, err := s.cfg.Store.LBExchanges(ctx, row.RowID, from, failures, limit)
		if err != nil {
			return nil, false, err
		}
		out = append(out, lb...)
	}
	if source != model.SourceLB {
		vendor := ""
		if row.LBInstanceID == "" {
			vendor = row.Vendor
		}
		gen, ex, err := s.cfg.Store.GenericExchanges(ctx, row.RowID, vendor, from, failures, limit, genericScanLimit)
		if err != nil {
			return nil, false, err
		}
		out = append(out, gen...)
		exhausted = ex
	}
	slices.SortStableFunc(out, func(a, b model.Exchange) int { return b.OccurredAt.Compare(a.OccurredAt) })
	return out, exhausted, nil
}

func exchangeViews(xs []model.Exchange) []ExchangeView {
	out := make([]ExchangeView, 0, len(xs))
	for _, x := range xs {
		out = append(out, ExchangeView{Source: x.Source, ID: x.ID, EventID: x.EventID, GlobalTransactionID: x.GlobalTransactionID,
			InstanceID: x.InstanceID, Vendor: x.Vendor, OccurredAt: x.OccurredAt, Method: x.Method, URI: x.URI,
			StatusCode: x.StatusCode, ResultCode: x.ResultCode, SoapFault: x.SoapFault, DurationMs: x.DurationMs,
			ConsumerIP: x.ConsumerIP, Backend: x.Backend,
			Request: message(x.RequestHeaders, x.RequestPayload), Response: message(x.ResponseHeaders, x.ResponsePayload)})
	}
	return out
}

// message builds one side of an exchange; headers is a stored JSON object.
func message(headers, payload string) ExchangeMessage {
	m := ExchangeMessage{Payload: payload}
	if len(payload) > listPayloadBytes {
		cut, _ := cutPayload(payload, listPayloadBytes)
		m.Payload, m.Truncated = cut, true
	}
	if headers != "" && headers != "{}" {
		_ = json.Unmarshal([]byte(headers), &m.Headers)
	}
	return m
}
