package model

import (
	"encoding/json"
	"time"
)

// Backend auth types (SPEC 2.3). mTLS is independent of the auth type.
const (
	AuthNone                    = "none"
	AuthBasic                   = "basic"
	AuthBearer                  = "bearer"
	AuthAPIKeyHeader            = "api_key_header"
	AuthOAuth2ClientCredentials = "oauth2_client_credentials"
)

// AuthTypes lists every valid authType in documentation order.
var AuthTypes = []string{AuthNone, AuthBasic, AuthBearer, AuthAPIKeyHeader, AuthOAuth2ClientCredentials}

// Defaults of a backend profile's transport and routing fields.
const (
	DefaultAPIKeyHeaderName      = "X-API-Key"
	DefaultConnectTimeoutMs      = 5000
	DefaultTLSHandshakeTimeoutMs = 5000
	DefaultIdleConnTimeoutMs     = 90000
	DefaultMaxIdleConnsPerHost   = 64
	DefaultRoutingWeight         = 1
)

// Credential field names: the secret parts of a backend profile. They are
// the members of BackendCredentials in requests and answers.
const (
	CredPassword     = "password"     // basic
	CredToken        = "token"        // bearer
	CredAPIKey       = "apiKey"       // api_key_header
	CredClientSecret = "clientSecret" // oauth2_client_credentials
	CredClientKeyPEM = "clientKeyPem" // mTLS private key (PEM)
)

// CredentialFields lists the credential field names in a fixed order.
var CredentialFields = []string{CredPassword, CredToken, CredAPIKey, CredClientSecret, CredClientKeyPEM,
	CredWSSPassword, CredWSSSigningKeyPEM}

// Credential is one stored secret. Its exported fields are the credential
// metadata envelope of SPEC 2.3 ({"set", "lastUpdatedAt",
// "lastUpdatedBy"}), the only thing JSON ever shows; the sealed
// (encrypted) value is unexported, so no encoding of a profile can carry
// it. A cleared credential keeps the time and actor of the clearing.
type Credential struct {
	Set           bool       `json:"set"`
	LastUpdatedAt *time.Time `json:"lastUpdatedAt"`
	LastUpdatedBy *string    `json:"lastUpdatedBy"`
	sealed        string
}

// NewCredential returns a credential holding the sealed value (secret.Box
// ciphertext; "" for an unset or cleared credential) last changed at by.
// A zero at and empty by leave the metadata empty.
func NewCredential(sealed string, at time.Time, by string) Credential {
	c := Credential{Set: sealed != "", sealed: sealed}
	if !at.IsZero() {
		at = at.UTC()
		c.LastUpdatedAt = &at
	}
	if by != "" {
		c.LastUpdatedBy = &by
	}
	return c
}

// Sealed returns the sealed value, "" when unset.
func (c Credential) Sealed() string { return c.sealed }

// Equal reports whether c and o hold the same sealed value and metadata
// (go-cmp uses it, so structures holding a credential compare).
func (c Credential) Equal(o Credential) bool {
	return c.sealed == o.sealed && c.Set == o.Set && timePtrEqual(c.LastUpdatedAt, o.LastUpdatedAt) &&
		(c.LastUpdatedBy == nil) == (o.LastUpdatedBy == nil) && (c.LastUpdatedBy == nil || *c.LastUpdatedBy == *o.LastUpdatedBy)
}

func timePtrEqual(a, b *time.Time) bool {
	return (a == nil) == (b == nil) && (a == nil || a.Equal(*b))
}

// IsSet reports whether the credential holds a value.
func (c Credential) IsSet() bool { return c.sealed != "" }

// BackendCredentials holds the secret parts of a backend profile. Which
// ones are required depends on the auth type (and mTLS for ClientKeyPEM).
type BackendCredentials struct {
	Password     Credential `json:"password"`
	Token        Credential `json:"token"`
	APIKey       Credential `json:"apiKey"`
	ClientSecret Credential `json:"clientSecret"`
	ClientKeyPEM Credential `json:"clientKeyPem"`

	// The WS-Security secrets (DESIGN 10.1), used by WSSecurity.
	WSSPassword      Credential `json:"wssPassword"`
	WSSSigningKeyPEM Credential `json:"wssSigningKeyPem"`
}

// Field returns a pointer to the credential named name (one of
// CredentialFields), or nil for an unknown name.
func (c *BackendCredentials) Field(name string) *Credential {
	switch name {
	case CredPassword:
		return &c.Password
	case CredToken:
		return &c.Token
	case CredAPIKey:
		return &c.APIKey
	case CredClientSecret:
		return &c.ClientSecret
	case CredClientKeyPEM:
		return &c.ClientKeyPEM
	case CredWSSPassword:
		return &c.WSSPassword
	case CredWSSSigningKeyPEM:
		return &c.WSSSigningKeyPEM
	}
	return nil
}

// BackendProfile is one backend of a service: where the runtime sends its
// calls (a SOAP endpoint, or the REST base URL of a consume service), how
// it authenticates, its transport timing and its routing preference
// (SPEC 2.1, 2.3, 4.6).
//
// TimeoutMs and RetryCount are nil to use the operation's values, then the
// settings defaults. RoutingPriority orders backends (lower first);
// RoutingWeight (>= 1) weighs round robin. IsDefault mirrors the service's
// defaultBackendProfileId. HealthCheckURL, when set, is fetched by the
// wsdl_fetch health check and the test-connection WSDL pull instead of
// EndpointURL?wsdl.
type BackendProfile struct {
	ProfileID   string `json:"profileId"`
	ServiceID   string `json:"serviceId"`
	Name        string `json:"name"`
	EndpointURL string `json:"endpointUrl"`
	AuthType    string `json:"authType"`

	// Non-secret auth parameters.
	Username         string `json:"username"`         // basic
	APIKeyHeaderName string `json:"apiKeyHeaderName"` // api_key_header
	TokenURL         string `json:"tokenUrl"`         // oauth2_client_credentials
	ClientID         string `json:"clientId"`         // oauth2_client_credentials
	Scope            string `json:"scope"`            // oauth2_client_credentials

	// Credentials are stored sealed; JSON shows only their metadata.
	Credentials BackendCredentials `json:"credentials"`

	MTLSEnabled   bool   `json:"mtlsEnabled"`
	ClientCertPEM string `json:"clientCertPem"`
	CACertPEM     string `json:"caCertPem"`

	ConnectTimeoutMs      int  `json:"connectTimeoutMs"`
	TLSHandshakeTimeoutMs int  `json:"tlsHandshakeTimeoutMs"`
	IdleConnTimeoutMs     int  `json:"idleConnTimeoutMs"`
	MaxIdleConnsPerHost   int  `json:"maxIdleConnsPerHost"`
	TimeoutMs             *int `json:"timeoutMs"`
	RetryCount            *int `json:"retryCount"`

	RoutingPriority int    `json:"routingPriority"`
	RoutingWeight   int    `json:"routingWeight"`
	HealthCheckURL  string `json:"healthCheckUrl"`
	IsDefault       bool   `json:"isDefault"`

	// Backend protection (DESIGN 10.6; BackendProtection says more).
	MaxConcurrentRequests *int64   `json:"maxConcurrentRequests"`
	MaxRequestsPerSecond  *float64 `json:"maxRequestsPerSecond"`
	QueueTimeoutMs        int64    `json:"queueTimeoutMs"`
	// SOAP message security toward the backend (DESIGN 10.1, 10.3): the
	// WS-Security header (nil: none) and WS-Addressing on every
	// synchronous call even when the WSDL does not declare it.
	WSSecurity   *WSSecurity `json:"wsSecurity"`
	WSAddressing bool        `json:"wsAddressing"`

	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// ApplyBackendDefaults fills zero transport and routing fields of p with
// their defaults (the API key header name only for api_key_header).
func ApplyBackendDefaults(p *BackendProfile) {
	if p.AuthType == "" {
		p.AuthType = AuthNone
	}
	if p.AuthType == AuthAPIKeyHeader && p.APIKeyHeaderName == "" {
		p.APIKeyHeaderName = DefaultAPIKeyHeaderName
	}
	for _, f := range []struct {
		v   *int
		def int
	}{
		{&p.ConnectTimeoutMs, DefaultConnectTimeoutMs},
		{&p.TLSHandshakeTimeoutMs, DefaultTLSHandshakeTimeoutMs},
		{&p.IdleConnTimeoutMs, DefaultIdleConnTimeoutMs},
		{&p.MaxIdleConnsPerHost, DefaultMaxIdleConnsPerHost},
		{&p.RoutingWeight, DefaultRoutingWeight},
	} {
		if *f.v == 0 {
			*f.v = f.def
		}
	}
}

// CredentialAAD is the additional data binding a sealed credential to its
// profile and field, so a ciphertext copied elsewhere does not open.
func CredentialAAD(profileID, field string) string {
	return "backend_profile/" + profileID + "/" + field
}

// ConsumerGrants is the consumer IP grant list of a service (DESIGN 6.9):
// the CIDRs whose attributed client addresses may call it through the
// gateway. An empty list grants nobody.
type ConsumerGrants struct {
	ServiceID string     `json:"serviceId"`
	CIDRs     []string   `json:"cidrs"`
	UpdatedAt *time.Time `json:"updatedAt"`
	UpdatedBy string     `json:"updatedBy"`
}

// SyntheticMonitor is the synthetic-monitor configuration of a service: a
// scheduled call of one operation with a dataset or an inline payload,
// expecting a status. Only the configuration exists so far; no runner
// executes it yet.
type SyntheticMonitor struct {
	ServiceID    string          `json:"serviceId"`
	Enabled      bool            `json:"enabled"`
	IntervalSec  int             `json:"intervalSec"`
	OperationKey string          `json:"operationKey"`
	DatasetID    *string         `json:"datasetId"`
	Payload      json.RawMessage `json:"payload"`
	ExpectStatus int             `json:"expectStatus"`
	UpdatedAt    time.Time       `json:"updatedAt"`
	UpdatedBy    string          `json:"updatedBy"`
}

// TestDataset is a named, reusable request payload of a service (SPEC
// 2.3), optionally tied to one operation by its key.
type TestDataset struct {
	DatasetID    string          `json:"datasetId"`
	ServiceID    string          `json:"serviceId"`
	Name         string          `json:"name"`
	OperationKey string          `json:"operationKey"`
	Payload      json.RawMessage `json:"payload"`
	CreatedAt    time.Time       `json:"createdAt"`
	CreatedBy    string          `json:"createdBy"`
}

// Test preview kinds: which backend test produced a preview.
const (
	PreviewApplication     = "application"
	PreviewGeneratedSample = "generated_sample"
	PreviewREST            = "rest"
	PreviewStatusSucceeded = "succeeded"
	PreviewStatusFailed    = "failed"
	PreviewStatusSOAPFault = "soap_fault"
)

// TestPreview is the saved request and response of one backend test call.
// Request and Response are JSON values (the JSON payload, the SOAP
// envelope as a string, the converted answer, the error).
type TestPreview struct {
	PreviewID   string          `json:"previewId"`
	ProfileID   string          `json:"profileId"`
	OperationID *string         `json:"operationId"`
	Kind        string          `json:"kind"`
	Request     json.RawMessage `json:"request"`
	Response    json.RawMessage `json:"response"`
	Status      string          `json:"status"`
	HTTPStatus  int             `json:"httpStatus"`
	LatencyMs   int64           `json:"latencyMs"`
	CreatedAt   time.Time       `json:"createdAt"`
	CreatedBy   string          `json:"createdBy"`
}

// OpenAPIDocument is a stored generated OpenAPI document of a version: the
// exact bytes and their hex SHA-256.
type OpenAPIDocument struct {
	VersionID   string    `json:"versionId"`
	Document    []byte    `json:"-"`
	SHA256      string    `json:"sha256"`
	GeneratedAt time.Time `json:"generatedAt"`
	GeneratedBy string    `json:"generatedBy"`
}
