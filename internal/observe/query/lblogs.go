package query

import (
	"net/http"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
)

var docGetLBLogs = adminapi.Doc{
	Summary: "Legacy lb log list (SPEC 4.10; kept for backward compatibility, /traffic-logs is preferred): lb transactions of " +
		"the caller's tenant, newest first, as an ObservabilityPageRecord of the items of /traffic-logs, each merging up to four " +
		"stage events sharing a globalTransactionId. stage chooses the event a transaction is listed (and ordered) by: " +
		"client_response (default) lists completed transactions, client_request also those still in flight.",
	Query: slices.Concat([]adminapi.Param{{Name: "stage", Type: "string",
		Description: "client_request, server_request, server_response or client_response (default)"}},
		edgeFilterDocs, windowParams("15m"), adminapi.PageParams),
	Response: model.ObservabilityPageRecord[trafficLogItem]{},
}

var docGetLBLog = adminapi.Doc{
	Summary: "Legacy lb log detail: the lb transaction whose globalTransactionId is id, its up to four stage events merged " +
		"(as GET /traffic-logs/{id}?source=lb). " + detailDoc,
	Query: []adminapi.Param{
		{Name: "includeCloud", Type: "boolean", Description: "true (default): with the archived payloads and headers; false: without"},
	},
	Response: trafficLogDetail{},
	Errors:   []int{http.StatusNotFound},
}

// getLBLogs answers GET /lb-logs.
func (a *API) getLBLogs(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	f, page, err := a.parseEdgeFilter(r, q)
	if err != nil {
		return err
	}
	f.Sources = []string{model.SourceLB}
	if v := q.Get("stage"); v != "" {
		if !slices.Contains(model.LBStages, v) {
			return adminapi.FieldError("stage", "must be one of "+strings.Join(model.LBStages, ", "))
		}
		f.Stage = v
	}
	return a.writeEdgeLogs(w, r, f, page)
}

// getLBLog answers GET /lb-logs/{id}.
func (a *API) getLBLog(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
		return adminapi.FieldError("id", "must be a UUID (the transaction's globalTransactionId)")
	}
	include, err := parseBool(r.URL.Query(), "includeCloud", true)
	if err != nil {
		return err
	}
	return a.writeLBTransaction(w, r, id, include)
}
