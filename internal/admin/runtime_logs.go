package admin

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
)

// resultCodes are the result codes of runtime transactions (SPEC 4.11
// rule 4 plus success; model.Result*).
var resultCodes = []string{"success", "failed", "backend_failure", "error", "timeout", "response_schema_violation"}

// runtimeDirections are the direction filter values of runtime logs.
var runtimeDirections = []string{"publish", "consume", "gateway"}

// defaultRuntimeLogWindow applies when a runtime-log query names neither a
// window, start/end, nor a correlation id, so an unfiltered call does not
// count the whole table.
const defaultRuntimeLogWindow = 24 * time.Hour

var runtimeLogFilterParams = append([]adminapi.Param{
	{Name: "environment", Type: "string", Description: "exact environment"},
	{Name: "serviceKey", Type: "string", Description: "exact service key"},
	{Name: "operationKey", Type: "string", Description: "exact operation key"},
	{Name: "resultCode", Type: "string", Description: "comma-separated or repeated: " + strings.Join(resultCodes, ", ")},
	{Name: "status", Type: "string", Description: "HTTP status (e.g. 502) or class (2xx, 4xx, 5xx)"},
	{Name: "correlationId", Type: "string", Description: "exact correlation id"},
	{Name: "direction", Type: "string", Description: "publish, consume or gateway"},
	{Name: "violations", Type: "string", Description: "true: only transactions whose response broke the contract under responseValidation detect (validationIssues)"},
}, adminapi.TimeParams...)

var docGetRuntimeLogs = adminapi.Doc{
	Summary: "Runtime transaction logs (one per publish, consume or gateway request), newest first, filtered and paginated. " +
		"Without window, start/end or correlationId the window is the last 24 hours. Payloads are never listed: see debug-traces.",
	Query:    append(runtimeLogFilterParams[:len(runtimeLogFilterParams):len(runtimeLogFilterParams)], adminapi.PageParams...),
	Response: model.ObservabilityPageRecord[model.TxLog]{},
}

var docGetRuntimeLatency = adminapi.Doc{
	Summary: "Latency percentiles (nearest rank, milliseconds) of the runtime logs matching the runtime-logs filters: " +
		"total and converter overhead (time s2r spent apart from the backend), p50 and p99, with the record count.",
	Query:    runtimeLogFilterParams,
	Response: model.TxLatency{},
}

// getRuntimeLogs lists runtime transaction logs (SPEC 4.10).
func (s *server) getRuntimeLogs(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	page, err := adminapi.ParsePage(q)
	if err != nil {
		return err
	}
	f, err := s.parseTxLogFilter(q)
	if err != nil {
		return err
	}
	logs, err := s.store.TxLogs(r.Context(), f, page)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, logs)
}

// getRuntimeLatency answers the latency percentiles of matching logs.
func (s *server) getRuntimeLatency(w http.ResponseWriter, r *http.Request) error {
	f, err := s.parseTxLogFilter(r.URL.Query())
	if err != nil {
		return err
	}
	lat, err := s.store.TxLatencyPercentiles(r.Context(), f)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, lat)
}

// parseTxLogFilter reads the runtime-log filters; a bad one is 400
// S2R-VAL-0400 naming the parameter.
func (s *server) parseTxLogFilter(q url.Values) (model.TxLogFilter, error) {
	now := s.now()
	tr, err := adminapi.ParseTimeRange(q, now)
	if err != nil {
		return model.TxLogFilter{}, err
	}
	f := model.TxLogFilter{
		Environment:   q.Get("environment"),
		ServiceKey:    q.Get("serviceKey"),
		OperationKey:  q.Get("operationKey"),
		CorrelationID: q.Get("correlationId"),
		Direction:     q.Get("direction"),
		Since:         tr.Since,
		Until:         tr.Until,
	}
	for _, p := range []struct{ name, v string }{
		{"environment", f.Environment}, {"serviceKey", f.ServiceKey}, {"operationKey", f.OperationKey},
		{"correlationId", f.CorrelationID},
	} {
		if !utf8.ValidString(p.v) || strings.IndexByte(p.v, 0) >= 0 {
			return f, adminapi.FieldError(p.name, "must be UTF-8 text without NUL")
		}
	}
	if f.Since.IsZero() && f.Until.IsZero() && f.CorrelationID == "" {
		f.Since, f.Until = now.Add(-defaultRuntimeLogWindow), now
	}
	if f.Direction != "" && !slices.Contains(runtimeDirections, f.Direction) {
		return f, adminapi.FieldError("direction", "must be one of "+strings.Join(runtimeDirections, ", "))
	}
	for _, v := range q["resultCode"] {
		for _, rc := range strings.Split(v, ",") {
			rc = strings.TrimSpace(rc)
			if !slices.Contains(resultCodes, rc) {
				return f, adminapi.FieldError("resultCode", "each value must be one of "+strings.Join(resultCodes, ", "))
			}
			if !slices.Contains(f.ResultCodes, rc) {
				f.ResultCodes = append(f.ResultCodes, rc)
			}
		}
	}
	switch q.Get("violations") {
	case "", "false":
	case "true":
		f.WithViolations = true
	default:
		return f, adminapi.FieldError("violations", "must be true or false")
	}
	if v := q.Get("status"); v != "" {
		lo, hi, ok := parseStatusFilter(v)
		if !ok {
			return f, adminapi.FieldError("status", "must be an HTTP status (100..599) or a class such as 4xx")
		}
		f.StatusMin, f.StatusMax = lo, hi
	}
	return f, nil
}

// parseStatusFilter reads "502" as 502..502 and "5xx" as 500..599.
func parseStatusFilter(v string) (lo, hi int, ok bool) {
	v = strings.ToLower(strings.TrimSpace(v))
	if len(v) == 3 && v[1:] == "xx" && v[0] >= '1' && v[0] <= '5' {
		lo = int(v[0]-'0') * 100
		return lo, lo + 99, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 100 || n > 599 {
		return 0, 0, false
	}
	return n, n, true
}
