package model

import "time"

// HourlyRow is one row of traffic_hourly: the traffic of one source,
// hour and (direction, environment, service key, operation key, service
// id) group.
type HourlyRow struct {
	Source string
	Hour   time.Time
	// TenantID is "" for runtime records (shared by every tenant), the
	// reporting instance's tenant for edge traffic.
	TenantID     string
	Direction    string
	Environment  string
	ServiceKey   string
	OperationKey string
	ServiceID    string
	Requests     int64
	Errors       int64
	LatencySumMs float64
	LatencyMaxMs float64
	// ConverterMaxMs is nil when no record of the group has a converter
	// figure (sources without one).
	ConverterMaxMs *float64
}

// AggregationState is the aggregation job's progress for one source
// (table traffic_aggregation_state, migration 0012).
type AggregationState struct {
	Source string
	// Raw rows with an id above LowWater are looked at again by the next
	// run; HighWater is the largest id seen, at HighWaterAt.
	LowWater, HighWater int64
	HighWaterAt         time.Time
	// RefreshedAt is the end of the last successful run (zero: never).
	RefreshedAt time.Time
}

// MetricQuery selects traffic and how to group it for the observability
// figures (SPEC 4.10, 4.11).
type MetricQuery struct {
	// Sources to combine (union); empty means every source.
	Sources []string
	// Direction, Environments and ServiceKeys filter (empty: no filter).
	// With OnboardedOnly they apply to the onboarded service's values.
	Direction    string
	Environments []string
	ServiceKeys  []string
	// Since and Until bound the time, inclusive. Aggregated queries read
	// every hour that overlaps the range (whole hours).
	Since, Until time.Time
	// TenantID, when not "", keeps the edge traffic of that tenant only
	// (runtime records belong to every tenant).
	TenantID string
	// OnboardedOnly keeps traffic of catalog services only, joined by
	// canonical service id and reported with the service's own direction,
	// environment and key (SPEC 4.11 rule 5).
	OnboardedOnly bool
	// Aggregated reads the hourly aggregates instead of the raw records.
	Aggregated bool
	// Group says which dimensions the rows keep.
	Group Grouping
	// BucketSeconds, when not 0, splits the range into buckets of that
	// many seconds starting at BucketOrigin (zero: Since; aggregated:
	// Since's hour), and MetricRow.Bucket is each row's bucket index.
	// BucketCount, when not 0, folds later indexes into the last bucket
	// (the inclusive end).
	BucketSeconds int64
	BucketCount   int64
	BucketOrigin  time.Time
}

// Grouping is a set of dimensions to group metrics by.
type Grouping uint8

// Dimensions. ByService groups by direction, environment, service key
// (and canonical service id with OnboardedOnly); ByOperation adds the
// operation key.
const (
	BySource Grouping = 1 << iota
	ByService
	ByOperation
)

// MetricRow is the figures of one group (and bucket). On raw records the
// percentiles are exact nearest-rank values; on aggregates P50 is the mean
// and P95 and P99 the largest hourly maximum (SPEC 4.11 rule 2).
type MetricRow struct {
	Bucket       int64
	Source       string
	Direction    string
	Environment  string
	ServiceKey   string
	OperationKey string
	ServiceID    string
	Requests     int64
	Errors       int64
	LatencySumMs float64
	P50Ms        float64
	P95Ms        float64
	P99Ms        float64
	// ConverterP95Ms is nil when no record of the group has a converter
	// figure.
	ConverterP95Ms *float64
}

// Traffic sources (SPEC 4.10): s2r's own transaction records and the
// edge feeds of the ingest API (SourceLB, SourceGeneric).
const (
	SourceRuntime = "runtime"
)

// TxLog is one stored runtime transaction (table runtime_tx_logs). The
// payload fields are set only for debug transactions and are read only by
// the store's TxLogsByCorrelation; lists leave them nil.
type TxLog struct {
	ID            int64     `json:"id"`
	CorrelationID string    `json:"correlationId"`
	OccurredAt    time.Time `json:"occurredAt"`
	Direction     string    `json:"direction"`
	Environment   string    `json:"environment"`
	ServiceKey    string    `json:"serviceKey"`
	ServiceID     string    `json:"serviceId,omitempty"`
	OperationKey  string    `json:"operationKey"`
	OperationID   string    `json:"operationId,omitempty"`
	Method        string    `json:"method"`
	Path          string    `json:"path"`
	HTTPStatus    int       `json:"httpStatus"`
	ResultCode    string    `json:"resultCode"`
	InBodyFault   bool      `json:"inBodyFault"`
	ErrorCode     string    `json:"errorCode,omitempty"`
	TotalMs       float64   `json:"totalMs"`
	BackendMs     float64   `json:"backendMs"`
	ConverterMs   float64   `json:"converterMs"`
	BackendTarget string    `json:"backendTarget,omitempty"`
	ClientIP      string    `json:"clientIp,omitempty"`
	RequestBytes  int64     `json:"requestBytes"`
	ResponseBytes int64     `json:"responseBytes"`
	Debug         bool      `json:"debug"`
	// ConsumerIdentity: the WS-Security identity (DESIGN 10.2), "" for none.
	ConsumerIdentity string `json:"consumerIdentity,omitempty"`
	// ValidationIssues are the response's contract violations under
	// responseValidation "detect" (column validation_issues).
	ValidationIssues []ValidationIssue `json:"validationIssues,omitempty"`

	RequestPayload  []byte `json:"-"`
	ResponsePayload []byte `json:"-"`
	BackendRequest  []byte `json:"-"`
	BackendResponse []byte `json:"-"`
	// DebugHeaders is the JSON object of a debug transaction's redacted
	// headers (column debug_headers); "" when none were captured.
	DebugHeaders string `json:"-"`
}

// TxLogFilter selects runtime logs. Zero fields do not filter. Times are
// inclusive.
type TxLogFilter struct {
	Environment   string
	ServiceKey    string
	OperationKey  string
	CorrelationID string
	Direction     string
	ResultCodes   []string
	// StatusMin and StatusMax bound http_status (inclusive) when StatusMax
	// is not 0: an exact status has both equal, a class such as 4xx is
	// 400..499.
	StatusMin, StatusMax int
	Since, Until         time.Time
	// WithViolations keeps the records with validation issues only
	// (responseValidation detect, DESIGN 10.6).
	WithViolations bool
}

// TxLatency summarizes the latencies of the runtime logs matching a filter:
// nearest-rank percentiles over the raw rows, in milliseconds.
type TxLatency struct {
	Count          int64   `json:"count"`
	ConverterP50Ms float64 `json:"converterP50Ms"`
	ConverterP99Ms float64 `json:"converterP99Ms"`
	TotalP50Ms     float64 `json:"totalP50Ms"`
	TotalP99Ms     float64 `json:"totalP99Ms"`
}

// TxSearch is a free-text search over runtime logs (SPEC 4.10 traffic
// search). Zero fields do not filter; substrings match case-insensitively.
type TxSearch struct {
	Since, Until time.Time // inclusive
	// URIContains matches the request path, the service key or the
	// operation key.
	URIContains string
	// BackendContains matches the backend target (scheme, host:port and
	// path).
	BackendContains string
	// StatusMin and StatusMax bound the HTTP status when StatusMax is not 0.
	StatusMin, StatusMax int
	Direction            string
	// ServiceIDs, when not nil, keeps the records of these services only,
	// or (ExcludeServiceIDs) those of every other service.
	ServiceIDs        []string
	ExcludeServiceIDs bool
	Limit             int
}
