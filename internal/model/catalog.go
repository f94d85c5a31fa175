package model

import (
	"encoding/json"
	"time"

	"github.com/s2r-project/s2r/internal/transform"
)

// Service directions (DESIGN 6.1); the runtime route key is (direction,
// environment, serviceKey).
const (
	DirectionPublish = "publish"
	DirectionConsume = "consume"
	DirectionGateway = "gateway"
)

// Service statuses (SPEC 3.2).
const (
	ServiceActive     = "active"
	ServiceDisabled   = "disabled"
	ServiceDeprecated = "deprecated"
)

// Route-level enumerations of SPEC 2.1 and their defaults.
const (
	RoutingSingle        = "single"
	RoutingActivePassive = "active_passive"
	RoutingRoundRobin    = "round_robin"

	HealthCheckNone      = "none"
	HealthCheckPing      = "ping"
	HealthCheckTCP       = "tcp"
	HealthCheckWSDLFetch = "wsdl_fetch"

	FaultDetailSafe = "safe"
	FaultDetailFull = "full"

	CallbackAuthNone         = "none"
	CallbackAuthSharedSecret = "shared_secret"

	DefaultHealthCheckIntervalSec = 30
)

// Service is one SOAP/REST service of the catalog: its identity on the
// runtime, its status and its route-level settings (SPEC 2.1, 2.3).
//
// EnvelopeWrapOverride and ErrorShapeOverride are JSON objects or null;
// their forms are documented in docs/decisions-catalog.md.
// LastTrafficAt is filled by the transaction recorder; it drives the
// traffic filter of the service list.
type Service struct {
	ServiceID                     string          `json:"serviceId"`
	ServiceKey                    string          `json:"serviceKey"`
	ServiceName                   string          `json:"serviceName"`
	Environment                   string          `json:"environment"`
	Direction                     string          `json:"direction"`
	Status                        string          `json:"status"`
	DebugEnabled                  bool            `json:"debugEnabled"`
	Description                   string          `json:"description"`
	BackendRoutingMode            string          `json:"backendRoutingMode"`
	BackendHealthCheckMode        string          `json:"backendHealthCheckMode"`
	BackendHealthCheckIntervalSec int             `json:"backendHealthCheckIntervalSec"`
	DefaultBackendProfileID       *string         `json:"defaultBackendProfileId"`
	FaultDetailExposureMode       string          `json:"faultDetailExposureMode"`
	EnvelopeWrapOverride          json.RawMessage `json:"envelopeWrapOverride"`
	ErrorShapeOverride            json.RawMessage `json:"errorShapeOverride"`
	CallbackAuthMode              string          `json:"callbackAuthMode"`
	// CallbackSecret is the shared secret of async callbacks
	// (callbackAuthMode shared_secret): write-only, shown as its
	// credential metadata envelope.
	CallbackSecret  Credential `json:"callbackSecret"`
	ActiveVersionID *string    `json:"activeVersionId"`
	LastTrafficAt   *time.Time `json:"lastTrafficAt"`
	CreatedAt       time.Time  `json:"createdAt"`
	UpdatedAt       time.Time  `json:"updatedAt"`
}

// ServiceFilter selects services for the paged list.
type ServiceFilter struct {
	Query       string // case-insensitive substring of serviceKey or serviceName
	Environment string
	Direction   string
	Status      string
	// Traffic is "with" (lastTrafficAt set), "without" (never seen) or "".
	Traffic string
	Page    PageRequest
}

// Version statuses. A service has at most one draft and at most one active
// version; activation makes the previous active version inactive, and a
// rollback makes its target active again (docs/decisions-catalog.md).
const (
	VersionDraft    = "draft"
	VersionActive   = "active"
	VersionInactive = "inactive"
)

// Version is one version of a service's operations and mappings. Only a
// draft can be edited.
type Version struct {
	VersionID     string     `json:"versionId"`
	ServiceID     string     `json:"serviceId"`
	VersionNumber int        `json:"versionNumber"`
	Status        string     `json:"status"`
	ArtifactID    *string    `json:"artifactId"`
	WSDLService   string     `json:"wsdlService"`
	WSDLPort      string     `json:"wsdlPort"`
	CreatedAt     time.Time  `json:"createdAt"`
	ActivatedAt   *time.Time `json:"activatedAt"`
	CreatedBy     string     `json:"createdBy"`
	Note          string     `json:"note"`
}

// Execution modes of an operation (SPEC 2.1).
const (
	ExecutionSync          = "sync"
	ExecutionAsyncCallback = "async_callback"
)

// Response validation modes of an operation (DESIGN 10.6).
const (
	// ValidationStrict refuses a response that breaks the contract (502).
	ValidationStrict = "strict"
	// ValidationDetect converts such a response as far as it goes, answers
	// it and records each violation on the transaction record.
	ValidationDetect = "detect"
	// ValidationOff checks nothing beyond what conversion needs.
	ValidationOff = "off"
)

// ValidationModes lists the response validation modes.
var ValidationModes = []string{ValidationStrict, ValidationDetect, ValidationOff}

// Validation rule targets.
const (
	TargetRequest  = "request"
	TargetResponse = "response"
)

// ValidationRule is one per-field regular expression (RE2 syntax). Field
// is a JSON Pointer into the request or response JSON; "*" segments stand
// for every array element.
type ValidationRule struct {
	Field   string `json:"field"`
	Pattern string `json:"pattern"`
	Target  string `json:"target"`
	Message string `json:"message,omitempty"`
}

// Operation is one operation of a version: the SOAP side from the contract
// and the REST side the runtime serves. TimeoutMs and RetryCount are nil to
// use the settings default_timeout_ms and default_retry_count.
type Operation struct {
	OperationID       string `json:"operationId"`
	VersionID         string `json:"versionId"`
	OperationKey      string `json:"operationKey"`
	SOAPOperationName string `json:"soapOperationName"`
	SOAPNamespace     string `json:"soapNamespace"`
	SOAPVersion       string `json:"soapVersion"`
	SOAPAction        string `json:"soapAction"`
	Style             string `json:"style"`
	Use               string `json:"use"`
	RestMethod        string `json:"restMethod"`
	RestPath          string `json:"restPath"`
	TimeoutMs         *int   `json:"timeoutMs"`
	RetryCount        *int   `json:"retryCount"`
	ExecutionMode     string `json:"executionMode"`
	// ResponseValidation is what a backend response that breaks the
	// contract does (DESIGN 10.6): ValidationStrict, ValidationDetect or
	// ValidationOff; "" reads as ValidationStrict.
	ResponseValidation string           `json:"responseValidation"`
	ValidationRules    []ValidationRule `json:"validationRules"`
	TransformRules     []transform.Rule `json:"transformRules"`
}

// Mapping sources.
const (
	MappingAuto   = "auto"
	MappingManual = "manual"
)

// Mapping is one version of an operation's request, response and fault
// mapping; at most one mapping of an operation is active. The mapping
// language is documented in docs/decisions-catalog.md; the auto mapping is
// the identity mapping derived from the contract.
type Mapping struct {
	MappingID       string          `json:"mappingId"`
	OperationID     string          `json:"operationId"`
	MappingVersion  int             `json:"mappingVersion"`
	Active          bool            `json:"active"`
	RequestMapping  json.RawMessage `json:"requestMapping"`
	ResponseMapping json.RawMessage `json:"responseMapping"`
	FaultMapping    json.RawMessage `json:"faultMapping"`
	Source          string          `json:"source"`
	CreatedAt       time.Time       `json:"createdAt"`
	CreatedBy       string          `json:"createdBy"`
}
