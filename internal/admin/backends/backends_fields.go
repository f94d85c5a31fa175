package backends

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
)

// backendProfileBody documents the members of a backend profile create or
// PATCH body. Every member is optional on PATCH; endpointUrl is required
// on create. In credentials a string sets the secret, null clears it and
// an absent member keeps it.
type backendProfileBody struct {
	Name                  string           `json:"name,omitempty"`
	EndpointURL           string           `json:"endpointUrl,omitempty"`
	AuthType              string           `json:"authType,omitempty"`
	Username              string           `json:"username,omitempty"`
	APIKeyHeaderName      string           `json:"apiKeyHeaderName,omitempty"`
	TokenURL              string           `json:"tokenUrl,omitempty"`
	ClientID              string           `json:"clientId,omitempty"`
	Scope                 string           `json:"scope,omitempty"`
	Credentials           *credentialsBody `json:"credentials,omitempty"`
	MTLSEnabled           bool             `json:"mtlsEnabled,omitempty"`
	ClientCertPEM         string           `json:"clientCertPem,omitempty"`
	CACertPEM             string           `json:"caCertPem,omitempty"`
	ConnectTimeoutMs      int              `json:"connectTimeoutMs,omitempty"`
	TLSHandshakeTimeoutMs int              `json:"tlsHandshakeTimeoutMs,omitempty"`
	IdleConnTimeoutMs     int              `json:"idleConnTimeoutMs,omitempty"`
	MaxIdleConnsPerHost   int              `json:"maxIdleConnsPerHost,omitempty"`
	TimeoutMs             *int             `json:"timeoutMs,omitempty"`
	RetryCount            *int             `json:"retryCount,omitempty"`
	RoutingPriority       int              `json:"routingPriority,omitempty"`
	RoutingWeight         int              `json:"routingWeight,omitempty"`
	HealthCheckURL        string           `json:"healthCheckUrl,omitempty"`
	IsDefault             bool             `json:"isDefault,omitempty"`
	protectionBody
	// SOAP message security (DESIGN 10.1, 10.3); null removes wsSecurity.
	WSSecurity   *model.WSSecurity `json:"wsSecurity,omitempty"`
	WSAddressing bool              `json:"wsAddressing,omitempty"`
}

// credentialsBody documents the credentials member: each a string (set)
// or null (clear).
type credentialsBody struct {
	Password     *string `json:"password,omitempty"`
	Token        *string `json:"token,omitempty"`
	APIKey       *string `json:"apiKey,omitempty"`
	ClientSecret *string `json:"clientSecret,omitempty"`
	ClientKeyPEM *string `json:"clientKeyPem,omitempty"`
	// WS-Security secrets: the UsernameToken password and the PEM signing key.
	WSSPassword      *string `json:"wssPassword,omitempty"`
	WSSSigningKeyPEM *string `json:"wssSigningKeyPem,omitempty"`
}

// profileEdit is a decoded create or PATCH body.
type profileEdit struct {
	members map[string]jsontext.Value
	creds   map[string]adminapi.CredentialChange
	// isDefault is the requested isDefault, nil when absent.
	isDefault *bool
}

// maxPEMBytes bounds certificate and key members.
const maxPEMBytes = 64 << 10

// profileFields apply one member each to a profile.
var profileFields = map[string]func(p *model.BackendProfile, v jsontext.Value) error{
	"name":             profileText("name", 1, 100, func(p *model.BackendProfile) *string { return &p.Name }),
	"endpointUrl":      profileURL("endpointUrl", false, func(p *model.BackendProfile) *string { return &p.EndpointURL }),
	"healthCheckUrl":   profileURL("healthCheckUrl", true, func(p *model.BackendProfile) *string { return &p.HealthCheckURL }),
	"tokenUrl":         profileURL("tokenUrl", true, func(p *model.BackendProfile) *string { return &p.TokenURL }),
	"username":         profileText("username", 0, 256, func(p *model.BackendProfile) *string { return &p.Username }),
	"apiKeyHeaderName": profileText("apiKeyHeaderName", 0, 128, func(p *model.BackendProfile) *string { return &p.APIKeyHeaderName }),
	"clientId":         profileText("clientId", 0, 512, func(p *model.BackendProfile) *string { return &p.ClientID }),
	"scope":            profileText("scope", 0, 1024, func(p *model.BackendProfile) *string { return &p.Scope }),
	"clientCertPem":    profileText("clientCertPem", 0, maxPEMBytes, func(p *model.BackendProfile) *string { return &p.ClientCertPEM }),
	"caCertPem":        profileText("caCertPem", 0, maxPEMBytes, func(p *model.BackendProfile) *string { return &p.CACertPEM }),
	"authType": func(p *model.BackendProfile, v jsontext.Value) error {
		t, err := adminapi.StringMember("authType", v)
		if err != nil {
			return err
		}
		if !slices.Contains(model.AuthTypes, t) {
			return adminapi.FieldError("authType", "must be one of "+strings.Join(model.AuthTypes, ", "))
		}
		p.AuthType = t
		return nil
	},
	"mtlsEnabled": func(p *model.BackendProfile, v jsontext.Value) error {
		if v.Kind() != 't' && v.Kind() != 'f' {
			return adminapi.FieldError("mtlsEnabled", "must be a boolean")
		}
		p.MTLSEnabled = v.Kind() == 't'
		return nil
	},
	"connectTimeoutMs":      profileInt("connectTimeoutMs", 1, 120000, func(p *model.BackendProfile) *int { return &p.ConnectTimeoutMs }),
	"tlsHandshakeTimeoutMs": profileInt("tlsHandshakeTimeoutMs", 1, 120000, func(p *model.BackendProfile) *int { return &p.TLSHandshakeTimeoutMs }),
	"idleConnTimeoutMs":     profileInt("idleConnTimeoutMs", 1, 3600000, func(p *model.BackendProfile) *int { return &p.IdleConnTimeoutMs }),
	"maxIdleConnsPerHost":   profileInt("maxIdleConnsPerHost", 1, 10000, func(p *model.BackendProfile) *int { return &p.MaxIdleConnsPerHost }),
	"routingPriority":       profileInt("routingPriority", -1000000, 1000000, func(p *model.BackendProfile) *int { return &p.RoutingPriority }),
	"routingWeight":         profileInt("routingWeight", 1, 1000, func(p *model.BackendProfile) *int { return &p.RoutingWeight }),
	"timeoutMs": func(p *model.BackendProfile, v jsontext.Value) (err error) {
		p.TimeoutMs, err = adminapi.NullableInt("timeoutMs", v, 1, 600000)
		return err
	},
	"retryCount": func(p *model.BackendProfile, v jsontext.Value) (err error) {
		p.RetryCount, err = adminapi.NullableInt("retryCount", v, 0, 10)
		return err
	},
	// Backend protection (backends_protection.go).
	"maxConcurrentRequests": setMaxConcurrentRequests,
	"maxRequestsPerSecond":  setMaxRequestsPerSecond,
	"queueTimeoutMs":        setQueueTimeoutMs,
	"wsSecurity":            applyWSSecurity,   // backends_wss.go
	"wsAddressing":          applyWSAddressing, // backends_wss.go
}

func profileText(field string, lo, hi int, dst func(*model.BackendProfile) *string) func(*model.BackendProfile, jsontext.Value) error {
	return func(p *model.BackendProfile, v jsontext.Value) error {
		t, err := adminapi.StringMember(field, v)
		if err != nil {
			return err
		}
		if !strings.HasSuffix(field, "Pem") {
			t = strings.TrimSpace(t)
		}
		if n := len(t); n < lo || n > hi {
			return adminapi.FieldError(field, "must be "+strconv.Itoa(lo)+" to "+strconv.Itoa(hi)+" bytes")
		}
		*dst(p) = t
		return nil
	}
}

func profileInt(field string, lo, hi int, dst func(*model.BackendProfile) *int) func(*model.BackendProfile, jsontext.Value) error {
	return func(p *model.BackendProfile, v jsontext.Value) error {
		n, err := adminapi.IntMember(field, v, lo, hi)
		*dst(p) = n
		return err
	}
}

// profileURL accepts an absolute http or https URL with a host and no
// user information or fragment; optional URLs may be "".
func profileURL(field string, optional bool, dst func(*model.BackendProfile) *string) func(*model.BackendProfile, jsontext.Value) error {
	return func(p *model.BackendProfile, v jsontext.Value) error {
		s, err := adminapi.StringMember(field, v)
		if err != nil {
			return err
		}
		s = strings.TrimSpace(s)
		if s == "" && optional {
			*dst(p) = ""
			return nil
		}
		if err := checkProfileURL(field, s); err != nil {
			return err
		}
		*dst(p) = s
		return nil
	}
}

// checkProfileURL validates an outbound URL of a profile.
func checkProfileURL(field, s string) error {
	if len(s) > 2048 {
		return adminapi.FieldError(field, "must be at most 2048 characters")
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return adminapi.FieldError(field, "is not a valid URL")
	case u.Scheme != "http" && u.Scheme != "https":
		return adminapi.FieldError(field, "must be an http or https URL")
	case u.Host == "" || u.Hostname() == "":
		return adminapi.FieldError(field, "must name a host")
	case u.User != nil:
		return adminapi.FieldError(field, "must not carry user information; use the profile's auth settings")
	case u.Fragment != "" || strings.Contains(s, "#"):
		return adminapi.FieldError(field, "must not have a fragment")
	}
	return nil
}

// decodeProfileEdit splits a decoded body into profile members, the
// credentials changes and isDefault, rejecting unknown members.
func decodeProfileEdit(members map[string]jsontext.Value) (profileEdit, error) {
	e := profileEdit{members: map[string]jsontext.Value{}, creds: map[string]adminapi.CredentialChange{}}
	for name, v := range members {
		switch name {
		case "credentials":
			if err := decodeCredentials(v, e.creds); err != nil {
				return e, err
			}
		case "isDefault":
			if v.Kind() != 't' && v.Kind() != 'f' {
				return e, adminapi.FieldError("isDefault", "must be a boolean")
			}
			b := v.Kind() == 't'
			e.isDefault = &b
		default:
			if _, ok := profileFields[name]; !ok {
				return e, adminapi.FieldError(name, "unknown field")
			}
			e.members[name] = v
		}
	}
	return e, nil
}

func decodeCredentials(v jsontext.Value, out map[string]adminapi.CredentialChange) error {
	var m map[string]jsontext.Value
	if v.Kind() != '{' || json.Unmarshal(v, &m) != nil {
		return adminapi.FieldError("credentials", "must be an object of credential fields")
	}
	for name, cv := range m {
		field := "credentials." + name
		if !slices.Contains(model.CredentialFields, name) {
			return adminapi.FieldError(field, "unknown credential; use one of "+strings.Join(model.CredentialFields, ", "))
		}
		if cv.Kind() == 'n' {
			out[name] = adminapi.CredentialChange{Clear: true}
			continue
		}
		var s string
		if cv.Kind() != '"' || json.Unmarshal(cv, &s) != nil {
			return adminapi.FieldError(field, "must be a string (set) or null (clear)")
		}
		if s == "" || len(s) > maxPEMBytes {
			return adminapi.FieldError(field, "must be 1 to "+strconv.Itoa(maxPEMBytes)+" bytes; null clears it")
		}
		out[name] = adminapi.CredentialChange{Value: s}
	}
	return nil
}

// applyProfileMembers applies the members in name order.
func applyProfileMembers(p *model.BackendProfile, members map[string]jsontext.Value) error {
	for _, name := range adminapi.SortedNames(members) {
		if err := profileFields[name](p, members[name]); err != nil {
			return err
		}
	}
	return nil
}

// checkProfile validates the whole profile after the changes: the
// non-secret parameters each auth type needs, the certificates, and the
// mTLS key pair when the key is at hand (clientKey, "" when not).
func checkProfile(p model.BackendProfile, clientKey string) error {
	if p.EndpointURL == "" {
		return adminapi.FieldError("endpointUrl", "is required")
	}
	if err := checkProtection(p); err != nil {
		return err
	}
	switch p.AuthType {
	case model.AuthBasic:
		if p.Username == "" {
			return adminapi.FieldError("username", "is required for authType basic")
		}
	case model.AuthAPIKeyHeader:
		if !headerToken(p.APIKeyHeaderName) {
			return adminapi.FieldError("apiKeyHeaderName", "must be an HTTP header name")
		}
	case model.AuthOAuth2ClientCredentials:
		if p.TokenURL == "" {
			return adminapi.FieldError("tokenUrl", "is required for authType oauth2_client_credentials")
		}
		if p.ClientID == "" {
			return adminapi.FieldError("clientId", "is required for authType oauth2_client_credentials")
		}
	}
	if p.CACertPEM != "" && !x509.NewCertPool().AppendCertsFromPEM([]byte(p.CACertPEM)) {
		return adminapi.FieldError("caCertPem", "must hold at least one PEM certificate")
	}
	if p.ClientCertPEM != "" {
		if err := checkCertPEM(p.ClientCertPEM); err != nil {
			return adminapi.FieldError("clientCertPem", err.Error())
		}
	}
	if p.MTLSEnabled && p.ClientCertPEM == "" {
		return adminapi.FieldError("clientCertPem", "is required when mtlsEnabled is true")
	}
	if clientKey != "" && p.ClientCertPEM != "" {
		if _, err := tls.X509KeyPair([]byte(p.ClientCertPEM), []byte(clientKey)); err != nil {
			return adminapi.FieldError("credentials.clientKeyPem", "does not match clientCertPem or is not a PEM private key")
		}
	}
	return nil
}

type certError string

func (e certError) Error() string { return string(e) }

// checkCertPEM checks that s holds a parsable PEM certificate.
func checkCertPEM(s string) error {
	block, _ := pem.Decode([]byte(s))
	if block == nil || block.Type != "CERTIFICATE" {
		return certError("must be a PEM certificate")
	}
	if _, err := x509.ParseCertificate(block.Bytes); err != nil {
		return certError("is not a valid X.509 certificate")
	}
	return nil
}

// headerToken reports whether name is a valid HTTP header name.
func headerToken(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if r > 0x7e || r <= ' ' || strings.ContainsRune("\"(),/:;<=>?@[\\]{}", r) {
			return false
		}
	}
	return true
}
