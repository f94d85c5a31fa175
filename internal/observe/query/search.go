package query

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
)

// Traffic search bounds (SPEC 4.10, 8).
const (
	defaultSearchLimit  = 200
	maxSearchLimit      = 1000
	defaultSearchWindow = time.Hour
)

// searchSources are the accepted values of the search's source (SPEC
// 4.10): lb, runtime, both (lb and runtime) and all (lb, runtime and
// generic).
var searchSources = map[string][]string{
	model.SourceLB:      {model.SourceLB},
	model.SourceRuntime: {model.SourceRuntime},
	"both":              {model.SourceLB, model.SourceRuntime},
	"all":               {model.SourceLB, model.SourceRuntime, model.SourceGeneric},
}

var docGetTrafficSearch = adminapi.Doc{
	Summary: "Free-text traffic search over runtime records, lb transactions and generic logs (SPEC 4.10), newest first, at most " +
		"limit items; truncated is true when more matched. Substrings match case-insensitively. An lb item is one transaction " +
		"(id: its globalTransactionId), found by its client_response event, its stages merged; edge traffic is the caller's " +
		"tenant's only. A filter only some sources have leaves the others out: consumerIpContains and payloadContains search " +
		"lb and generic logs only, monitorFilter (has, none) and direction runtime records only. Payloads were masked at " +
		"ingest, so a masked credential is never found; payloadContains is refused (403) for a reader, who may not see payloads.",
	Query: []adminapi.Param{
		{Name: "since", Type: "string", Description: "ISO 8601 start, inclusive; default 1 hour before until"},
		{Name: "until", Type: "string", Description: "ISO 8601 end, inclusive; default now"},
		{Name: "uriContains", Type: "string", Description: "substring of the request path (URI as sent or serviceUri), service key or operation key"},
		{Name: "backendContains", Type: "string", Description: "substring of the backend (host or host:port)"},
		{Name: "consumerIpContains", Type: "string", Description: "lb and generic logs: substring of the consumer (client) IP"},
		{Name: "payloadContains", Type: "string", Description: "lb and generic logs: substring of a stored payload of the transaction (any stage); operator and admin only"},
		{Name: "statusClass", Type: "string", Description: "any (default), success (2xx), client_error (4xx), server_error (5xx) or an HTTP status such as 502"},
		{Name: "source", Type: "string", Description: "lb, runtime, both (default: lb and runtime) or all (lb, runtime and generic)"},
		{Name: "monitorFilter", Type: "string", Description: "runtime records: has (services with an enabled synthetic monitor), none, any (default)"},
		{Name: "direction", Type: "string", Description: "runtime records: publish, consume or gateway"},
		{Name: "limit", Type: "integer", Description: "at most this many items; default 200, 1..1000"},
	},
	Response: searchResult{},
}

// searchResult is the answer of GET /traffic-search.
type searchResult struct {
	Items     []searchItem `json:"items"`
	Limit     int          `json:"limit"`
	Truncated bool         `json:"truncated"`
}

// searchItem is one matching record, in a shape shared by every source.
type searchItem struct {
	Source        string    `json:"source"`
	ID            string    `json:"id"`
	OccurredAt    time.Time `json:"occurredAt"`
	CorrelationID string    `json:"correlationId,omitempty"`
	GatewayVendor string    `json:"gatewayVendor,omitempty"`
	Direction     string    `json:"direction,omitempty"`
	Environment   string    `json:"environment,omitempty"`
	ServiceKey    string    `json:"serviceKey,omitempty"`
	OperationKey  string    `json:"operationKey,omitempty"`
	Method        string    `json:"method"`
	URI           string    `json:"uri"`
	StatusCode    int       `json:"statusCode"`
	ResultCode    string    `json:"resultCode"`
	InBodyFault   bool      `json:"inBodyFault"`
	LatencyMs     float64   `json:"latencyMs"`
	Backend       string    `json:"backend,omitempty"`
	ConsumerIP    string    `json:"consumerIp,omitempty"`
}

// search is a parsed traffic search: the runtime part, the edge part, and
// which of them run.
type search struct {
	runtime       model.TxSearch
	edge          model.EdgeSearch // Sources empty: no edge source searched
	runtimeWanted bool
	limit         int
}

// getTrafficSearch answers GET /traffic-search.
func (a *API) getTrafficSearch(w http.ResponseWriter, r *http.Request) error {
	s, err := a.parseSearch(r, r.URL.Query())
	if err != nil {
		return err
	}
	// The runtime and edge searches run side by side: each may read most
	// of its window (a rare substring), and the answer waits for both.
	var runtime, edge []searchItem
	g, ctx := errgroup.WithContext(r.Context())
	if s.runtimeWanted {
		g.Go(func() error {
			s.runtime.Limit = s.limit + 1 // one more tells whether the answer is truncated
			logs, err := a.store.SearchTxLogs(ctx, s.runtime)
			for _, l := range logs {
				runtime = append(runtime, searchItem{Source: model.SourceRuntime, ID: strconv.FormatInt(l.ID, 10),
					OccurredAt: l.OccurredAt, CorrelationID: l.CorrelationID, Direction: l.Direction, Environment: l.Environment,
					ServiceKey: l.ServiceKey, OperationKey: l.OperationKey, Method: l.Method, URI: l.Path, StatusCode: l.HTTPStatus,
					ResultCode: l.ResultCode, InBodyFault: l.InBodyFault, LatencyMs: l.TotalMs, Backend: l.BackendTarget,
					ConsumerIP: l.ClientIP})
			}
			return err
		})
	}
	if len(s.edge.Sources) > 0 {
		g.Go(func() error {
			s.edge.Limit = s.limit + 1
			txs, err := a.store.SearchEdge(ctx, s.edge)
			for _, t := range txs {
				edge = append(edge, searchItem{Source: t.Source, ID: t.ID, OccurredAt: t.OccurredAt, GatewayVendor: t.Vendor,
					Direction: t.Direction, Environment: t.Environment, ServiceKey: t.ServiceKey, OperationKey: t.ServiceURI,
					Method: t.Method, URI: t.URI, StatusCode: t.StatusCode, ResultCode: t.ResultCode, InBodyFault: t.SoapFault,
					LatencyMs: ms(t.LatencyMs), Backend: t.Backend, ConsumerIP: t.ConsumerIP})
			}
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	items := append(runtime, edge...)
	slices.SortStableFunc(items, func(x, y searchItem) int { return y.OccurredAt.Compare(x.OccurredAt) })
	out := searchResult{Items: items[:min(len(items), s.limit)], Limit: s.limit, Truncated: len(items) > s.limit}
	if out.Items == nil {
		out.Items = []searchItem{}
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}

// parseSearch reads and checks the search parameters.
func (a *API) parseSearch(r *http.Request, q url.Values) (search, error) {
	var (
		s   search
		rt  = &s.runtime
		err error
	)
	if rt.Since, err = parseTime(q, "since"); err != nil {
		return s, err
	}
	if rt.Until, err = parseTime(q, "until"); err != nil {
		return s, err
	}
	if rt.Until.IsZero() {
		rt.Until = a.now()
	}
	if rt.Since.IsZero() {
		rt.Since = rt.Until.Add(-defaultSearchWindow)
	}
	if rt.Since.After(rt.Until) {
		return s, adminapi.FieldError("since", "must not be after until")
	}
	if rt.Until.Sub(rt.Since) > maxRange {
		return s, adminapi.FieldError("since", "the range from since to until must be at most 366 days")
	}
	if rt.URIContains, err = parseText(q, "uriContains"); err != nil {
		return s, err
	}
	if rt.BackendContains, err = parseText(q, "backendContains"); err != nil {
		return s, err
	}
	if rt.StatusMin, rt.StatusMax, err = parseStatusClass(q.Get("statusClass")); err != nil {
		return s, err
	}
	e := &s.edge
	*e = model.EdgeSearch{TenantID: callerTenant(r), Since: rt.Since, Until: rt.Until, URIContains: rt.URIContains,
		BackendContains: rt.BackendContains, StatusMin: rt.StatusMin, StatusMax: rt.StatusMax}
	if e.ConsumerIPContains, err = parseText(q, "consumerIpContains"); err != nil {
		return s, err
	}
	if e.PayloadContains, err = parseText(q, "payloadContains"); err != nil {
		return s, err
	}
	if e.PayloadContains != "" && !showsPayloads(r) {
		return s, apierr.New(apierr.AdmForbidden, "payloadContains searches payloads, which only operator and admin may see").
			WithDetail("field", "payloadContains")
	}
	sources := searchSources["both"]
	if v := q.Get("source"); v != "" {
		var ok bool
		if sources, ok = searchSources[v]; !ok {
			return s, adminapi.FieldError("source", "must be one of lb, runtime, both, all")
		}
	}
	if rt.Direction, err = parseDirection(q); err != nil {
		return s, err
	}
	limit, err := parseInt(q, "limit", defaultSearchLimit, 1, maxSearchLimit)
	if err != nil {
		return s, err
	}
	s.limit = int(limit)
	if err := a.parseMonitorFilter(r, q, rt); err != nil {
		return s, err
	}
	// A filter only some sources have leaves the others out.
	runtimeOnly := rt.Direction != "" || rt.ServiceIDs != nil
	edgeOnly := e.ConsumerIPContains != "" || e.PayloadContains != ""
	for _, src := range sources {
		switch {
		case src == model.SourceRuntime:
			s.runtimeWanted = !edgeOnly
		case !runtimeOnly:
			e.Sources = append(e.Sources, src)
		}
	}
	return s, nil
}

// parseMonitorFilter reads monitorFilter into the runtime search.
func (a *API) parseMonitorFilter(r *http.Request, q url.Values, rt *model.TxSearch) error {
	switch v := q.Get("monitorFilter"); v {
	case "", "any":
	case "has", "none":
		ids, err := a.store.MonitoredServiceIDs(r.Context())
		if err != nil {
			return err
		}
		if ids == nil {
			ids = []string{}
		}
		rt.ServiceIDs, rt.ExcludeServiceIDs = ids, v == "none"
	default:
		return adminapi.FieldError("monitorFilter", "must be one of has, none, any")
	}
	return nil
}

// parseStatusClass reads statusClass: any, success, client_error,
// server_error or one HTTP status.
func parseStatusClass(v string) (lo, hi int, err error) {
	switch v {
	case "", "any":
		return 0, 0, nil
	case "success":
		return 200, 299, nil
	case "client_error":
		return 400, 499, nil
	case "server_error":
		return 500, 599, nil
	}
	n, convErr := strconv.Atoi(v)
	if convErr != nil || n < 100 || n > 599 {
		return 0, 0, adminapi.FieldError("statusClass", "must be any, success, client_error, server_error or an HTTP status from 100 to 599")
	}
	return n, n, nil
}
