package model

import (
	"strconv"
	"time"
)

// LBEventRecord is one stored lb event, as a transaction's detail shows
// it. Headers and Payload are empty unless asked for.
type LBEventRecord struct {
	EventID            string
	Stage              string
	OccurredAt         time.Time
	ReceivedAt         time.Time
	InstanceID         string
	Vendor             string
	RowID              int64
	ServiceURI         string
	FrontVirtualServer string
	BackVirtualServer  string
	ClientIP           string
	Method             string
	Host               string
	URI                string
	Backend            string
	StatusCode         int
	DurationMs         float64
	BytesIn            int64
	BytesOut           int64
	ResultCode         string
	SoapFault          bool
	Headers            string // JSON object
	Payload            string
	PayloadBytes       int64
}

// GenericLogRecord is one stored generic log with its payloads (empty
// unless asked for).
type GenericLogRecord struct {
	EdgeTx
	EventID              string
	ReceivedAt           time.Time
	RequestPayload       string
	ResponsePayload      string
	RequestPayloadBytes  int64
	ResponsePayloadBytes int64
}

// VSFailure is the count of one edge result code at one pair of virtual
// servers.
type VSFailure struct {
	FrontVirtualServer string
	BackVirtualServer  string
	ResultCode         string
	Count              int64
	LastSeen           time.Time
}

// ParseGenericID reads a generic log id: a positive decimal integer.
func ParseGenericID(v string) (int64, bool) {
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil && n > 0 && strconv.FormatInt(n, 10) == v
}

// LBStages are the stages of an lb transaction in their order.
var LBStages = []string{StageClientRequest, StageServerRequest, StageServerResponse, StageClientResponse}

// EdgeTx is one edge transaction in a list: an lb transaction (its stage
// events merged by global transaction id) or a generic log. Environment,
// ServiceKey, ServiceID and Direction are the current service match of
// its discovery row.
type EdgeTx struct {
	Source     string
	ID         string // lb: the global transaction id; generic: the log's numeric id
	Vendor     string
	InstanceID string
	RowID      int64
	// OccurredAt is the time of the event the list is ordered by (lb: the
	// anchor stage, client_response unless a stage is asked for);
	// StartedAt the earliest stage's (lb), else OccurredAt.
	OccurredAt  time.Time
	StartedAt   time.Time
	ServiceURI  string
	URI         string // as sent
	Environment string
	ServiceKey  string
	ServiceID   string
	Direction   string
	Method      string
	StatusCode  int
	ResultCode  string
	SoapFault   bool
	LatencyMs   float64
	ConsumerIP  string
	Backend     string
	FrontVS     string
	BackVS      string
	BytesIn     int64
	BytesOut    int64
	// Stages lists the lb stages stored for the transaction, in order.
	Stages []string
}

// EdgeFilter selects edge transactions for a list (SPEC 4.10 traffic
// logs and the legacy lb logs). Zero fields do not filter; substrings
// match case-insensitively with % and _ taken literally.
type EdgeFilter struct {
	TenantID string
	// Sources are lb, generic or both.
	Sources     []string
	Vendors     []string
	InstanceID  string
	ResultCodes []string // lb only: a result-code filter leaves generic logs out
	ServiceURI  string   // substring of the normalised serviceUri or the URI as sent
	Customer    string   // substring of the consumer IP
	FrontVS     string   // substring; lb only
	BackVS      string   // substring; lb only
	// Stage is the lb stage the list shows transactions by (default
	// client_response: completed transactions; client_request also lists
	// those still in flight).
	Stage        string
	Since, Until time.Time // inclusive
}

// EdgeSearch is a free-text search over lb transactions (their
// client_response, the counted stage) and generic logs (SPEC 4.10 traffic
// search). Zero fields do not filter; substrings match case-insensitively
// with % and _ taken literally.
type EdgeSearch struct {
	TenantID string
	Sources  []string // lb, generic
	// Since and Until bound the time, inclusive.
	Since, Until time.Time
	// URIContains matches the normalised serviceUri, the URI as sent and
	// the service key the event was ingested with.
	URIContains        string
	BackendContains    string
	ConsumerIPContains string
	// PayloadContains matches any stored payload of the transaction (lb:
	// of any of its stages; generic: request or response).
	PayloadContains string
	// StatusMin and StatusMax bound the HTTP status when StatusMax is not 0.
	StatusMin, StatusMax int
	Limit                int
}

// EdgeError reports whether an lb call (its client_response) or a
// generic log is an error by SPEC 4.11 rule 4, mapped onto the edge's
// fields (docs/decisions-observe.md, "Edge sources: lb and generic"): a
// SOAP fault is the in-body fault; an HTTP status of 500 or more a
// backend_failure, of 400 to 499 a failed (refused) request, as s2r's own
// records count them; any edge result code other than "ok" and "success"
// (timeout, reset, no_backend, tls_error, or a gateway's own failed,
// error, …) an error. Status 0 alone (no answer) says nothing: the edge
// reports why with its result code.
func EdgeError(statusCode int, resultCode string, soapFault bool) bool {
	return soapFault || statusCode >= 400 || resultCode != "" && resultCode != "ok" && resultCode != "success"
}
