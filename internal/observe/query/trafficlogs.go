package query

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
)

// Values of the traffic-logs source parameter (SPEC 4.10).
const sourceAll = "all"

var trafficLogSources = []string{model.SourceLB, model.SourceGeneric, sourceAll}

// edgeFilterDocs are the filters shared by /traffic-logs and /lb-logs.
var edgeFilterDocs = []adminapi.Param{
	{Name: "vendor", Type: "string", Description: "gateway vendors (f5, kong, …), comma-separated or repeated"},
	{Name: "instanceId", Type: "string", Description: "UUID of the connector instance that reported the traffic"},
	{Name: "resultCode", Type: "string", Description: "edge result codes (ok, reset, timeout, no_backend, tls_error, …), " +
		"comma-separated or repeated; generic logs are left out when given"},
	{Name: "serviceUri", Type: "string", Description: "substring of the normalised serviceUri or of the URI as sent"},
	{Name: "customer", Type: "string", Description: "substring of the consumer (client) IP"},
	{Name: "frontVirtualServer", Type: "string", Description: "substring of the front virtual server (lb only: generic logs are left out when given)"},
	{Name: "backVirtualServer", Type: "string", Description: "substring of the back virtual server or pool (lb only, likewise)"},
}

var docGetTrafficLogs = adminapi.Doc{
	Summary: "Unified traffic logs of the edge sources (SPEC 4.10): lb transactions and generic gateway logs of the caller's tenant, " +
		"newest first, as an ObservabilityPageRecord. An lb item is one transaction (id: its globalTransactionId), listed by its " +
		"client_response event (the answer the client got; transactions still in flight are in /lb-logs?stage=client_request) " +
		"with its up to four stage events merged; a generic item is one log (id: its numeric id). Every item has source and " +
		"gatewayVendor; environment, serviceKey and direction are the onboarded service the serviceUri matches now (else " +
		"environment \"discovered\" and the serviceUri as key); error applies SPEC 4.11 rule 4. Lists carry no payloads: " +
		"GET /traffic-logs/{id} has them.",
	Query: slices.Concat([]adminapi.Param{{Name: "source", Type: "string", Description: "lb, generic or all (default)"}},
		edgeFilterDocs, windowParams("15m"), adminapi.PageParams),
	Response: model.ObservabilityPageRecord[trafficLogItem]{},
}

// trafficLogItem is one edge transaction of a list.
type trafficLogItem struct {
	Source             string    `json:"source"`
	ID                 string    `json:"id"`
	GatewayVendor      string    `json:"gatewayVendor"`
	InstanceID         string    `json:"instanceId"`
	OccurredAt         time.Time `json:"occurredAt"`
	StartedAt          time.Time `json:"startedAt"`
	ServiceURI         string    `json:"serviceUri"`
	URI                string    `json:"uri"`
	Direction          string    `json:"direction,omitempty"`
	Environment        string    `json:"environment"`
	ServiceKey         string    `json:"serviceKey"`
	ServiceID          string    `json:"serviceId,omitempty"`
	Method             string    `json:"method"`
	StatusCode         int       `json:"statusCode"`
	ResultCode         string    `json:"resultCode"`
	SoapFault          bool      `json:"soapFault"`
	Error              bool      `json:"error"`
	LatencyMs          float64   `json:"latencyMs"`
	ConsumerIP         string    `json:"consumerIp,omitempty"`
	Backend            string    `json:"backend,omitempty"`
	FrontVirtualServer string    `json:"frontVirtualServer,omitempty"`
	BackVirtualServer  string    `json:"backVirtualServer,omitempty"`
	BytesIn            int64     `json:"bytesIn"`
	BytesOut           int64     `json:"bytesOut"`
	// Stages lists the lb stage events stored for the transaction.
	Stages []string `json:"stages,omitempty"`
}

// itemOf is the list item of an edge transaction.
func itemOf(t model.EdgeTx) trafficLogItem {
	return trafficLogItem{Source: t.Source, ID: t.ID, GatewayVendor: t.Vendor, InstanceID: t.InstanceID,
		OccurredAt: t.OccurredAt, StartedAt: t.StartedAt, ServiceURI: t.ServiceURI, URI: t.URI, Direction: t.Direction,
		Environment: t.Environment, ServiceKey: t.ServiceKey, ServiceID: t.ServiceID, Method: t.Method,
		StatusCode: t.StatusCode, ResultCode: t.ResultCode, SoapFault: t.SoapFault,
		Error: model.EdgeError(t.StatusCode, t.ResultCode, t.SoapFault), LatencyMs: ms(t.LatencyMs), ConsumerIP: t.ConsumerIP,
		Backend: t.Backend, FrontVirtualServer: t.FrontVS, BackVirtualServer: t.BackVS, BytesIn: t.BytesIn, BytesOut: t.BytesOut,
		Stages: t.Stages}
}

// getTrafficLogs answers GET /traffic-logs.
func (a *API) getTrafficLogs(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	f, page, err := a.parseEdgeFilter(r, q)
	if err != nil {
		return err
	}
	switch v := q.Get("source"); v {
	case "", sourceAll:
	case model.SourceLB, model.SourceGeneric:
		f.Sources = []string{v}
	default:
		return adminapi.FieldError("source", "must be one of "+strings.Join(trafficLogSources, ", "))
	}
	return a.writeEdgeLogs(w, r, f, page)
}

// writeEdgeLogs answers one page of f.
func (a *API) writeEdgeLogs(w http.ResponseWriter, r *http.Request, f model.EdgeFilter, page model.PageRequest) error {
	res, err := a.store.EdgeLogs(r.Context(), f, page)
	if err != nil {
		return err
	}
	items := make([]trafficLogItem, len(res.Items))
	for i, t := range res.Items {
		items[i] = itemOf(t)
	}
	return adminapi.WriteJSON(w, http.StatusOK, model.NewPage(items, page, res.TotalItems))
}

// parseEdgeFilter reads the filters, window and page shared by
// /traffic-logs and /lb-logs; the caller's tenant scopes them.
func (a *API) parseEdgeFilter(r *http.Request, q url.Values) (model.EdgeFilter, model.PageRequest, error) {
	f := model.EdgeFilter{TenantID: callerTenant(r)}
	tr, err := parseWindow(q, "15m", a.now())
	if err != nil {
		return f, model.PageRequest{}, err
	}
	f.Since, f.Until = tr.since, tr.until
	if f.Vendors, err = parseLowerList(q, "vendor"); err != nil {
		return f, model.PageRequest{}, err
	}
	if f.ResultCodes, err = parseLowerList(q, "resultCode"); err != nil {
		return f, model.PageRequest{}, err
	}
	if v := q.Get("instanceId"); v != "" {
		if _, err := uuid.Parse(v); err != nil || len(v) != 36 {
			return f, model.PageRequest{}, adminapi.FieldError("instanceId", "must be a UUID such as 0b6c3e52-8d2f-4f0e-9a51-3c1d2e4f5a6b")
		}
		f.InstanceID = strings.ToLower(v)
	}
	for _, t := range []struct {
		name string
		dst  *string
	}{{"serviceUri", &f.ServiceURI}, {"customer", &f.Customer}, {"frontVirtualServer", &f.FrontVS},
		{"backVirtualServer", &f.BackVS}} {
		if *t.dst, err = parseText(q, t.name); err != nil {
			return f, model.PageRequest{}, err
		}
	}
	page, err := adminapi.ParsePage(q)
	return f, page, err
}

// parseLowerList is parseList with the values lower-cased (vendors and
// result codes are stored lower-case).
func parseLowerList(q url.Values, name string) ([]string, error) {
	vals, err := parseList(q, name)
	for i, v := range vals {
		vals[i] = strings.ToLower(v)
	}
	return vals, err
}
