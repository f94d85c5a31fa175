package query

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/redact"
	"github.com/s2r-project/s2r/internal/store"
)

// detailDoc is the documentation shared by the traffic-log details.
const detailDoc = "Payloads and headers are the archived part of a transaction: lists never carry them, and they are read " +
	"(\"hydrated\") only here, with includeCloud=true (the default); includeCloud=false answers the transaction without " +
	"them. They were stored as the connector sent them, cut to 64 KB (truncated: true, payloadBytes the size as sent), with " +
	"credentials masked as \"" + redact.Mask + "\" at ingest by the rule of debug captures (credential and API-key headers, " +
	"WS-Security Password, Nonce and BinarySecurityToken, XML elements and \"$headers\" members named in debug_redact_names). " +
	"They are shown to operator and admin only: a reader gets the transaction with payloadsWithheld true. 404 S2R-ADM-0404 " +
	"when the caller's tenant has no such transaction."

var docGetTrafficLog = adminapi.Doc{
	Summary: "One edge transaction (SPEC 4.10 traffic-log detail). id is the globalTransactionId (a UUID) of an lb transaction " +
		"or the numeric id of a generic log; source (lb by default, or generic) must match the id's type. An lb transaction " +
		"merges its up to four stage events (client_request, server_request, server_response, client_response): the summary " +
		"fields are merged from them and events lists each with its headers and payload. A generic log has request and " +
		"response payloads. " + detailDoc,
	Query: []adminapi.Param{
		{Name: "source", Type: "string", Description: "lb (default) for a UUID id, generic for a numeric id"},
		{Name: "includeCloud", Type: "boolean", Description: "true (default): with the archived payloads and headers; false: without"},
	},
	Response: trafficLogDetail{},
	Errors:   []int{http.StatusNotFound},
}

// trafficLogDetail is one edge transaction with its archived payloads.
type trafficLogDetail struct {
	trafficLogItem
	// PayloadsIncluded is includeCloud: whether payloads were read.
	PayloadsIncluded bool `json:"payloadsIncluded"`
	// PayloadsWithheld is true for a reader: payloads and headers are
	// left out.
	PayloadsWithheld bool `json:"payloadsWithheld"`
	// EventID and ReceivedAt are a generic log's.
	EventID    string     `json:"eventId,omitempty"`
	ReceivedAt *time.Time `json:"receivedAt,omitempty"`
	// Events are an lb transaction's stage events in stage order.
	Events []lbEventView `json:"events,omitempty"`
	// Request and Response are a generic log's payloads.
	Request  *payloadView `json:"request,omitempty"`
	Response *payloadView `json:"response,omitempty"`
}

// lbEventView is one stage event of an lb transaction.
type lbEventView struct {
	EventID            string            `json:"eventId"`
	Stage              string            `json:"stage"`
	OccurredAt         time.Time         `json:"occurredAt"`
	ReceivedAt         time.Time         `json:"receivedAt"`
	Method             string            `json:"method,omitempty"`
	Host               string            `json:"host,omitempty"`
	URI                string            `json:"uri"`
	Backend            string            `json:"backend,omitempty"`
	ClientIP           string            `json:"clientIp,omitempty"`
	FrontVirtualServer string            `json:"frontVirtualServer,omitempty"`
	BackVirtualServer  string            `json:"backVirtualServer,omitempty"`
	StatusCode         int               `json:"statusCode"`
	ResultCode         string            `json:"resultCode"`
	SoapFault          bool              `json:"soapFault"`
	DurationMs         float64           `json:"durationMs"`
	BytesIn            int64             `json:"bytesIn"`
	BytesOut           int64             `json:"bytesOut"`
	Headers            map[string]string `json:"headers,omitempty"`
	payloadView
}

// payloadView is one stored payload: its text, its size as sent and
// whether it was cut at 64 KB.
type payloadView struct {
	Payload      string `json:"payload,omitempty"`
	PayloadBytes int64  `json:"payloadBytes"`
	Truncated    bool   `json:"truncated"`
}

// payloadOf is the view of a stored payload (text "" when not read).
func payloadOf(text string, size int64) payloadView {
	return payloadView{Payload: text, PayloadBytes: size, Truncated: size > discovery.MaxPayloadBytes}
}

// getTrafficLog answers GET /traffic-logs/{id}.
func (a *API) getTrafficLog(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	id := r.PathValue("id")
	source, gid, err := parseDetailID(id, q.Get("source"))
	if err != nil {
		return err
	}
	include, err := parseBool(q, "includeCloud", true)
	if err != nil {
		return err
	}
	if source == model.SourceLB {
		return a.writeLBTransaction(w, r, id, include)
	}
	show := showsPayloads(r)
	g, err := a.store.GenericLogByID(r.Context(), callerTenant(r), gid, include && show)
	if errors.Is(err, store.ErrNotFound) {
		return apierr.Newf(apierr.AdmNotFound, "no generic log %s", id)
	}
	if err != nil {
		return err
	}
	received := g.ReceivedAt
	out := trafficLogDetail{trafficLogItem: itemOf(g.EdgeTx), PayloadsIncluded: include, PayloadsWithheld: !show,
		EventID: g.EventID, ReceivedAt: &received}
	out.Request = &payloadView{PayloadBytes: g.RequestPayloadBytes}
	out.Response = &payloadView{PayloadBytes: g.ResponsePayloadBytes}
	if include && show {
		*out.Request = payloadOf(g.RequestPayload, g.RequestPayloadBytes)
		*out.Response = payloadOf(g.ResponsePayload, g.ResponsePayloadBytes)
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}

// parseDetailID reads a traffic-log id and its source (default lb): a
// UUID for lb, a positive integer for generic (gid).
func parseDetailID(id, source string) (string, int64, error) {
	gid, numeric := model.ParseGenericID(id)
	_, uuidErr := uuid.Parse(id)
	isUUID := uuidErr == nil && len(id) == 36
	if !numeric && !isUUID {
		return "", 0, adminapi.FieldError("id", "must be a UUID (an lb globalTransactionId) or a positive integer (a generic log id)")
	}
	switch source {
	case "":
		source = model.SourceLB
	case model.SourceLB, model.SourceGeneric:
	default:
		return "", 0, adminapi.FieldError("source", "must be lb or generic")
	}
	if source == model.SourceLB && !isUUID || source == model.SourceGeneric && !numeric {
		return "", 0, adminapi.FieldError("source", "must match the id: lb for a UUID id, generic for a numeric id")
	}
	return source, gid, nil
}

// writeLBTransaction answers the lb transaction gtid of the caller's
// tenant, with payloads and headers when include (and the caller may
// see them).
func (a *API) writeLBTransaction(w http.ResponseWriter, r *http.Request, gtid string, include bool) error {
	gtid = uuid.MustParse(gtid).String()
	show := showsPayloads(r)
	events, err := a.store.LBTransaction(r.Context(), callerTenant(r), gtid, include && show)
	if err != nil {
		return err
	}
	if len(events) == 0 {
		return apierr.Newf(apierr.AdmNotFound, "no lb transaction %s", gtid)
	}
	sum, err := a.store.LBTransactionSummary(r.Context(), gtid, events)
	if err != nil {
		return err
	}
	out := trafficLogDetail{trafficLogItem: itemOf(sum), PayloadsIncluded: include, PayloadsWithheld: !show,
		Events: make([]lbEventView, len(events))}
	for i, e := range events {
		v := lbEventView{EventID: e.EventID, Stage: e.Stage, OccurredAt: e.OccurredAt, ReceivedAt: e.ReceivedAt, Method: e.Method,
			Host: e.Host, URI: e.URI, Backend: e.Backend, ClientIP: e.ClientIP, FrontVirtualServer: e.FrontVirtualServer,
			BackVirtualServer: e.BackVirtualServer, StatusCode: e.StatusCode, ResultCode: e.ResultCode, SoapFault: e.SoapFault,
			DurationMs: ms(e.DurationMs), BytesIn: e.BytesIn, BytesOut: e.BytesOut, payloadView: payloadOf("", e.PayloadBytes)}
		if include && show {
			v.payloadView = payloadOf(e.Payload, e.PayloadBytes)
			if json.Unmarshal([]byte(e.Headers), &v.Headers) != nil || len(v.Headers) == 0 {
				v.Headers = nil
			}
		}
		out.Events[i] = v
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}
