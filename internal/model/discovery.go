package model

import "time"

// AlertRule is the alert rule of a discovery row (SPEC 2.4).
type AlertRule struct {
	RowID                 int64
	Enabled               bool
	MinCalls1h            int64
	FailurePctThreshold   float64
	FailureCountThreshold int64
	UpdatedAt             time.Time
	UpdatedBy             string
}

// AlertRuleWindow is a rule with its row and the row's lb calls and
// failures in a window.
type AlertRuleWindow struct {
	AlertRule
	TenantID     string
	ServiceURI   string
	LBInstanceID string
	Calls        int64
	Failures     int64
}

// OnboardedEndpoint is a service that discovery rows may match: one per
// backend profile (EndpointURL "" for a service without one). Deprecated
// (soft-deleted) services are left out.
type OnboardedEndpoint struct {
	ServiceID   string
	Direction   string
	Environment string
	ServiceKey  string
	Status      string
	EndpointURL string
}

// RowMatch is a discovery row's onboarding match.
type RowMatch struct {
	RowID              int64
	ServiceURI         string
	OnboardedServiceID string // "" when none
	Environment        string
	ServiceKey         string
}

// Sources of a drill-down (SPEC 4.9).
const SourceAll = "all"

// HourlyPoint is one hour of a row's timeline.
type HourlyPoint struct {
	Hour         time.Time
	Calls        int64
	Failures     int64
	LatencySumMs float64
	LatencyMaxMs float64
}

// Consumer is one consumer IP of a row.
type Consumer struct {
	ConsumerIP string
	Calls      int64
	Failures   int64
	LastSeen   time.Time
}

// Exchange is one call of a row with its request and response: an lb
// transaction (its stages merged) or a generic log.
type Exchange struct {
	Source              string
	ID                  string // lb: event id of the client_response; generic: the log's id
	EventID             string
	GlobalTransactionID string // lb only
	InstanceID          string
	Vendor              string
	OccurredAt          time.Time
	Method              string
	URI                 string
	StatusCode          int
	ResultCode          string
	SoapFault           bool
	DurationMs          float64
	ConsumerIP          string
	Backend             string
	RequestHeaders      string // lb only: JSON object
	RequestPayload      string
	ResponseHeaders     string // lb only
	ResponsePayload     string
}

// DiscoveryRow is one master discovery row (table discovery_rows) with its
// vendors and its last-24-hour counts.
type DiscoveryRow struct {
	RowID              int64
	TenantID           string
	ServiceURI         string
	SampleURI          string
	LBInstanceID       string // "" when no lb instance reported the URI
	Vendor             string
	Vendors            []string
	SeenLB             bool
	SeenGeneric        bool
	FirstSeen          time.Time
	LastSeen           time.Time
	OnboardedServiceID string
	Environment        string
	ServiceKey         string
	Calls24h           int64
	Errors24h          int64
}

// DiscoveryRowFilter selects rows of one tenant. Zero fields do not
// filter.
type DiscoveryRowFilter struct {
	TenantID  string
	Q         string // substring of the serviceUri or serviceKey, any case
	Vendor    string // a vendor that reported the row
	Source    string // SourceLB or SourceGeneric
	Onboarded *bool
}
