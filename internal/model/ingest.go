package model

import "time"

// Stages of a load-balancer transaction (DESIGN 9): one transaction has up
// to four events sharing a global transaction id.
const (
	StageClientRequest  = "client_request"
	StageServerRequest  = "server_request"
	StageServerResponse = "server_response"
	StageClientResponse = "client_response"
)

// Traffic sources of discovery rollups.
const (
	SourceLB      = "lb"
	SourceGeneric = "generic"
)

// LBEvent is one raw load-balancer event as stored in lb_events. Strings
// are validated and bounded by the caller (internal/discovery).
type LBEvent struct {
	EventID             [16]byte
	GlobalTransactionID [16]byte
	// Row is the index of the event's discovery row in IngestBatch.Rows.
	Row                int
	Stage              string
	OccurredAt         time.Time
	FrontVirtualServer string
	BackVirtualServer  string
	ClientIP           string
	Method             string
	Host               string
	URI                string
	Backend            string
	StatusCode         int
	DurationMs         float64
	BytesIn, BytesOut  int64
	ResultCode         string
	SoapFault          bool
	// Failure is set on a failing client_response, the stage that counts
	// as the transaction's call.
	Failure      bool
	Headers      string // JSON object
	Payload      string // at most 64 KB
	PayloadBytes int64  // size as sent
}

// Counted reports whether the event is a call in the rollups.
func (e *LBEvent) Counted() bool { return e.Stage == StageClientResponse }

// GenericLog is one access-log record of another gateway (generic_logs).
type GenericLog struct {
	EventID              [16]byte
	Row                  int // index in IngestBatch.Rows
	Vendor               string
	RawURI               string
	OccurredAt           time.Time
	Method               string
	StatusCode           int
	LatencyMs            float64
	ConsumerIP           string
	Backend              string
	ResultCode           string
	SoapFault            bool
	Failure              bool
	RequestPayload       string
	ResponsePayload      string
	RequestPayloadBytes  int64
	ResponsePayloadBytes int64
}

// RowRef names the discovery row of a batch's events: the normalised
// service URI and the onboarded service it matches (empty: none, and
// Environment/ServiceKey are "discovered" and the URI).
type RowRef struct {
	ServiceURI         string
	SampleURI          string
	Vendor             string // vendor a new row gets from this batch
	OnboardedServiceID string
	Environment        string
	ServiceKey         string
}

// IngestBatch is one validated ingest call: lb events or generic logs
// (one kind per batch) of one connector instance.
type IngestBatch struct {
	TenantID       string
	InstanceID     string
	InstanceVendor string
	ReceivedAt     time.Time
	Rows           []RowRef
	LB             []LBEvent
	Generic        []GenericLog
}

// IngestResult counts what an ingest call stored.
type IngestResult struct {
	Stored     int // events newly stored
	Duplicates int // events whose id was already stored (or repeated in the batch)
}

// IngestInstance is a registered ingest connector (table ingest_instances).
// The token itself is never stored: TokenHash is the hex SHA-256 the
// connector's bearer token must hash to.
type IngestInstance struct {
	InstanceID      string
	Vendor          string
	Name            string
	TenantID        string
	TokenHash       string
	CreatedAt       time.Time
	CreatedBy       string
	RevokedAt       time.Time // zero while active
	RevokedBy       string
	LastEventAt     time.Time // zero before the first stored event
	LastHeartbeatAt time.Time // zero before the first heartbeat
}
