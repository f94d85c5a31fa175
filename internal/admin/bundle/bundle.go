// Package bundle serves configuration as code (DESIGN 10.5): GET
// /admin/v1/bundle exports services as a bundle, everything that
// recreates them on an empty instance and no secret in any form (a secret
// that is set appears as {"set": true}, one that is not set does not
// appear); POST /admin/v1/bundle:apply applies one, all or nothing in one
// transaction (decode.go reads it strictly, validate.go and
// version_prepare.go check it whole before anything is written, the
// apply_*.go files compare each part with the target's export form and
// write what differs); GET /admin/v1/bundle.schema.json answers its JSON
// Schema (schema.go). client*.go are the `s2r bundle` command's side.
// internal/admin lists the routes (Routes) in its one route table. The
// format is documented in docs/bundles.md.
package bundle

import (
	"encoding/json"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/transform"
)

// The bundle's fixed header values.
const (
	APIVersion = "s2r/v1"
	Kind       = "Bundle"
)

// Bundle is a set of services.
type Bundle struct {
	APIVersion string    `json:"apiVersion"`
	Kind       string    `json:"kind"`
	Services   []Service `json:"services"`
}

// SecretSet stands for a secret that is set: its value never leaves the
// server. In a bundle given to apply, a secret may instead be its value, a
// JSON string: Value holds it then, and is never encoded.
type SecretSet struct {
	Set   bool   `json:"set"`
	Value string `json:"-"`
}

// secretOf is {"set": true} for a set credential, nil (absent) otherwise.
func secretOf(c model.Credential) *SecretSet {
	if !c.IsSet() {
		return nil
	}
	return &SecretSet{Set: true}
}

// Service is one service: its route key, its settings, its active version
// and what belongs to the service whatever the version.
type Service struct {
	ServiceKey                    string          `json:"serviceKey"`
	Environment                   string          `json:"environment"`
	Direction                     string          `json:"direction"`
	ServiceName                   string          `json:"serviceName"`
	Description                   string          `json:"description"`
	Status                        string          `json:"status"`
	DebugEnabled                  bool            `json:"debugEnabled"`
	BackendRoutingMode            string          `json:"backendRoutingMode"`
	BackendHealthCheckMode        string          `json:"backendHealthCheckMode"`
	BackendHealthCheckIntervalSec int             `json:"backendHealthCheckIntervalSec"`
	FaultDetailExposureMode       string          `json:"faultDetailExposureMode"`
	EnvelopeWrapOverride          json.RawMessage `json:"envelopeWrapOverride"`
	ErrorShapeOverride            json.RawMessage `json:"errorShapeOverride"`
	CallbackAuthMode              string          `json:"callbackAuthMode"`
	CallbackSecret                *SecretSet      `json:"callbackSecret,omitempty"`
	// DefaultBackendProfile is the name of the default profile, "" when
	// the service has none.
	DefaultBackendProfile string `json:"defaultBackendProfile"`
	// Version is the active version; nil when the service has none.
	Version         *Version         `json:"version"`
	BackendProfiles []BackendProfile `json:"backendProfiles"`
	// ConsumerGrants are the CIDRs granted to call the service through the
	// gateway (DESIGN 6.9).
	ConsumerGrants []string `json:"consumerGrants"`
	// InboundWSSecurity is the service's inbound WS-Security policy
	// (DESIGN 10.2); nil when it is the default (mode off, nothing set).
	InboundWSSecurity *InboundWSSecurity `json:"inboundWsSecurity,omitempty"`
	// RateLimits is the service's rate limit per client (DESIGN 10.6);
	// nil (absent, null or {}) when it has none. Apply removes a limit
	// the target has when the bundle gives none.
	RateLimits *model.ClientRateLimit `json:"rateLimits,omitempty"`
	// Activate, read by apply only, says whether a new version made from
	// the bundle becomes active; absent or true: it does.
	Activate *bool `json:"activate,omitempty"`
}

// InboundWSSecurity is a service's inbound WS-Security policy with each
// password only as {"set": true}.
type InboundWSSecurity struct {
	Mode                   string           `json:"mode"`
	UsernameTokens         []InboundWSSUser `json:"usernameTokens"`
	TrustedCertificatesPEM []string         `json:"trustedCertificatesPem"`
	RequireSignature       bool             `json:"requireSignature"`
	RequireTimestamp       bool             `json:"requireTimestamp"`
	MaxClockSkewSeconds    int              `json:"maxClockSkewSeconds"`
}

// InboundWSSUser is one accepted username; Password says whether its
// password is set, never what it is.
type InboundWSSUser struct {
	Username string     `json:"username"`
	Password *SecretSet `json:"password,omitempty"`
}

// Version is the active version: its contract and operations.
type Version struct {
	VersionNumber int    `json:"versionNumber"`
	WSDLService   string `json:"wsdlService"`
	WSDLPort      string `json:"wsdlPort"`
	// WSDL is the version's import; nil when the version has none.
	WSDL       *WSDL       `json:"wsdl"`
	Operations []Operation `json:"operations"`
}

// WSDL is the text of every file of an import, by the path (or, for an
// import by URL, the redacted URL) its references use.
type WSDL struct {
	RootPath string            `json:"rootPath"`
	Files    map[string]string `json:"files"`
}

// Operation is one operation of the version with its active mapping.
type Operation struct {
	OperationKey      string `json:"operationKey"`
	SOAPOperationName string `json:"soapOperationName"`
	SOAPVersion       string `json:"soapVersion"`
	RestMethod        string `json:"restMethod"`
	RestPath          string `json:"restPath"`
	TimeoutMs         *int   `json:"timeoutMs"`
	RetryCount        *int   `json:"retryCount"`
	ExecutionMode     string `json:"executionMode"`
	// ResponseValidation is strict (default), detect or off (DESIGN 10.6).
	ResponseValidation string                 `json:"responseValidation"`
	ValidationRules    []model.ValidationRule `json:"validationRules"`
	TransformRules     []transform.Rule       `json:"transformRules"`
	// Mapping is the active mapping; nil when the operation has none.
	Mapping *Mapping `json:"mapping"`
}

// Mapping is an operation's active request, response and fault mapping.
type Mapping struct {
	Source          string          `json:"source"`
	RequestMapping  json.RawMessage `json:"requestMapping"`
	ResponseMapping json.RawMessage `json:"responseMapping"`
	FaultMapping    json.RawMessage `json:"faultMapping"`
}

// BackendProfile is one backend profile, known by its name within the
// service; credentials lists the secrets that are set.
type BackendProfile struct {
	Name                  string               `json:"name"`
	EndpointURL           string               `json:"endpointUrl"`
	AuthType              string               `json:"authType"`
	Username              string               `json:"username"`
	APIKeyHeaderName      string               `json:"apiKeyHeaderName"`
	TokenURL              string               `json:"tokenUrl"`
	ClientID              string               `json:"clientId"`
	Scope                 string               `json:"scope"`
	Credentials           map[string]SecretSet `json:"credentials"`
	MTLSEnabled           bool                 `json:"mtlsEnabled"`
	ClientCertPEM         string               `json:"clientCertPem"`
	CACertPEM             string               `json:"caCertPem"`
	ConnectTimeoutMs      int                  `json:"connectTimeoutMs"`
	TLSHandshakeTimeoutMs int                  `json:"tlsHandshakeTimeoutMs"`
	IdleConnTimeoutMs     int                  `json:"idleConnTimeoutMs"`
	MaxIdleConnsPerHost   int                  `json:"maxIdleConnsPerHost"`
	TimeoutMs             *int                 `json:"timeoutMs"`
	RetryCount            *int                 `json:"retryCount"`
	RoutingPriority       int                  `json:"routingPriority"`
	RoutingWeight         int                  `json:"routingWeight"`
	HealthCheckURL        string               `json:"healthCheckUrl"`
	// Backend protection (DESIGN 10.6): nil caps are unlimited.
	MaxConcurrentRequests *int64   `json:"maxConcurrentRequests"`
	MaxRequestsPerSecond  *float64 `json:"maxRequestsPerSecond"`
	QueueTimeoutMs        int64    `json:"queueTimeoutMs"`
	// WSSecurity is the outbound WS-Security (DESIGN 10.1), nil for none;
	// its secrets are credentials.wssPassword and
	// credentials.wssSigningKeyPem.
	WSSecurity   *model.WSSecurity `json:"wsSecurity"`
	WSAddressing bool              `json:"wsAddressing"`
}
