package query

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/store"
)

// Traffic search bounds (SPEC 4.10, 8).
const (
	defaultSearchLimit  = 200
	maxSearchLimit      = 1000
	defaultSearchWindow = time.Hour
)

// searchSources are the accepted values of the search's source: SPEC
// 4.10's lb, runtime, both and all (both and all: every searchable
// source).
var searchSources = []string{"runtime", "both", "all"}

var docGetTrafficSearch = adminapi.Doc{
	Summary: "Free-text traffic search over runtime records (SPEC 4.10), newest first, at most limit items; truncated is true " +
		"when more matched. Substrings match case-insensitively.",
	Query: []adminapi.Param{
		{Name: "since", Type: "string", Description: "ISO 8601 start, inclusive; default 1 hour before until"},
		{Name: "until", Type: "string", Description: "ISO 8601 end, inclusive; default now"},
		{Name: "uriContains", Type: "string", Description: "substring of the request path, service key or operation key"},
		{Name: "backendContains", Type: "string", Description: "substring of the backend (host or host:port)"},
		{Name: "statusClass", Type: "string", Description: "any (default), success (2xx), client_error (4xx), server_error (5xx) or an HTTP status such as 502"},
		{Name: "source", Type: "string", Description: "runtime, both (default) or all"},
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

// getTrafficSearch answers GET /traffic-search.
func (a *API) getTrafficSearch(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	s, err := a.parseSearch(r, q)
	if err != nil {
		return err
	}
	limit := s.Limit
	s.Limit++ // one more tells whether the answer is truncated
	logs, err := a.store.SearchTxLogs(r.Context(), s)
	if err != nil {
		return err
	}
	out := searchResult{Items: []searchItem{}, Limit: limit, Truncated: len(logs) > limit}
	for _, l := range logs[:min(len(logs), limit)] {
		out.Items = append(out.Items, searchItem{Source: store.SourceRuntime, ID: strconv.FormatInt(l.ID, 10),
			OccurredAt: l.OccurredAt, CorrelationID: l.CorrelationID, Direction: l.Direction, Environment: l.Environment,
			ServiceKey: l.ServiceKey, OperationKey: l.OperationKey, Method: l.Method, URI: l.Path, StatusCode: l.HTTPStatus,
			ResultCode: l.ResultCode, InBodyFault: l.InBodyFault, LatencyMs: l.TotalMs, Backend: l.BackendTarget,
			ConsumerIP: l.ClientIP})
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}

// parseSearch reads and checks the search parameters.
func (a *API) parseSearch(r *http.Request, q url.Values) (store.TxSearch, error) {
	var (
		s   store.TxSearch
		err error
	)
	if s.Since, err = parseTime(q, "since"); err != nil {
		return s, err
	}
	if s.Until, err = parseTime(q, "until"); err != nil {
		return s, err
	}
	if s.Until.IsZero() {
		s.Until = a.now()
	}
	if s.Since.IsZero() {
		s.Since = s.Until.Add(-defaultSearchWindow)
	}
	if s.Since.After(s.Until) {
		return s, adminapi.FieldError("since", "must not be after until")
	}
	if s.Until.Sub(s.Since) > maxRange {
		return s, adminapi.FieldError("since", "the range from since to until must be at most 366 days")
	}
	if s.URIContains, err = parseText(q, "uriContains"); err != nil {
		return s, err
	}
	if s.BackendContains, err = parseText(q, "backendContains"); err != nil {
		return s, err
	}
	if s.StatusMin, s.StatusMax, err = parseStatusClass(q.Get("statusClass")); err != nil {
		return s, err
	}
	if v := q.Get("source"); v != "" && !slices.Contains(searchSources, v) {
		return s, adminapi.FieldError("source", "must be one of "+strings.Join(searchSources, ", "))
	}
	if s.Direction, err = parseDirection(q); err != nil {
		return s, err
	}
	limit, err := parseInt(q, "limit", defaultSearchLimit, 1, maxSearchLimit)
	if err != nil {
		return s, err
	}
	s.Limit = int(limit)
	switch v := q.Get("monitorFilter"); v {
	case "", "any":
	case "has", "none":
		if s.ServiceIDs, err = a.store.MonitoredServiceIDs(r.Context()); err != nil {
			return s, err
		}
		if s.ServiceIDs == nil {
			s.ServiceIDs = []string{}
		}
		s.ExcludeServiceIDs = v == "none"
	default:
		return s, adminapi.FieldError("monitorFilter", "must be one of has, none, any")
	}
	return s, nil
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
