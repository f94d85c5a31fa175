package model

import (
	"encoding/json"
	"time"
)

// Settings are the mutable, installation-wide settings of s2r (SPEC 2.3,
// DESIGN 6). JSON names are the snake_case setting names of the admin API.
// A credential (smtp_password) is never held in plaintext here: the field
// carries only its metadata envelope; the sealed value lives in the store.
type Settings struct {
	DefaultTimeoutMs               int64              `json:"default_timeout_ms"`
	DefaultRetryCount              int64              `json:"default_retry_count"`
	DefaultRetentionDays           int64              `json:"default_retention_days"`
	DebugPayloadLoggingEnabled     bool               `json:"debug_payload_logging_enabled"`
	DebugMaxPayloadKB              int64              `json:"debug_max_payload_kb"`
	DebugRedactNames               []string           `json:"debug_redact_names"`
	DashboardFreshnessStaleMinutes int64              `json:"dashboard_freshness_stale_minutes"`
	AggregationIntervalSeconds     int64              `json:"aggregation_interval_seconds"`
	MaxPayloadMB                   int64              `json:"max_payload_mb"`
	AsyncCallbackTTLSeconds        int64              `json:"async_callback_ttl_seconds"`
	GatewayTrustedProxies          []string           `json:"gateway_trusted_proxies"`
	OutboundAllowedCIDRs           []string           `json:"outbound_allowed_cidrs"`
	OutboundDeniedCIDRs            []string           `json:"outbound_denied_cidrs"`
	SMTPHost                       string             `json:"smtp_host"`
	SMTPPort                       int64              `json:"smtp_port"`
	SMTPUsername                   string             `json:"smtp_username"`
	SMTPPassword                   CredentialMetadata `json:"smtp_password"`
	SMTPFrom                       string             `json:"smtp_from"`
	SMTPTLSMode                    string             `json:"smtp_tls_mode"`
	AlertRecipients                []string           `json:"alert_recipients"`
	AlertsEnabled                  bool               `json:"alerts_enabled"`
	AlertEvaluationIntervalSeconds int64              `json:"alert_evaluation_interval_seconds"`
	AlertCooldownMinutes           int64              `json:"alert_cooldown_minutes"`
}

// CredentialMetadata is what the API returns instead of a credential
// (SPEC 2.3): whether it is set, and when and by whom it last changed.
type CredentialMetadata struct {
	Set           bool       `json:"set"`
	LastUpdatedAt *time.Time `json:"lastUpdatedAt,omitempty"`
	LastUpdatedBy string     `json:"lastUpdatedBy,omitempty"`
}

// SMTP TLS modes.
const (
	SMTPTLSStartTLS = "starttls" // plain connection upgraded with STARTTLS (required)
	SMTPTLSImplicit = "tls"      // TLS from the first byte (port 465)
	SMTPTLSNone     = "none"     // no TLS; only for trusted local relays
)

// DefaultSettings returns every setting at its default. Lists are empty,
// never nil, so they render as [].
func DefaultSettings() Settings {
	return Settings{
		DefaultTimeoutMs:               30000,
		DefaultRetryCount:              0,
		DefaultRetentionDays:           30,
		DebugPayloadLoggingEnabled:     false,
		DebugMaxPayloadKB:              64,
		DebugRedactNames:               DefaultDebugRedactNames(),
		DashboardFreshnessStaleMinutes: 60,
		AggregationIntervalSeconds:     60,
		MaxPayloadMB:                   10,
		AsyncCallbackTTLSeconds:        86400,
		GatewayTrustedProxies:          []string{},
		OutboundAllowedCIDRs:           []string{},
		OutboundDeniedCIDRs:            []string{},
		SMTPHost:                       "",
		SMTPPort:                       587,
		SMTPUsername:                   "",
		SMTPFrom:                       "",
		SMTPTLSMode:                    SMTPTLSStartTLS,
		AlertRecipients:                []string{},
		AlertsEnabled:                  false,
		AlertEvaluationIntervalSeconds: 60,
		AlertCooldownMinutes:           60,
	}
}

// DefaultDebugRedactNames returns the default of setting
// debug_redact_names: the local names of XML elements and "$headers"
// members whose values debug captures mask (docs/decisions-observe.md).
func DefaultDebugRedactNames() []string {
	return []string{"password", "passwd", "secret", "token", "apikey", "api_key", "authorization"}
}

// SettingsPatch is a validated partial update of the settings.
type SettingsPatch struct {
	// Values holds the canonical JSON of each plain setting to change.
	Values map[string]json.RawMessage
	// Credentials holds each credential setting to change: the new plaintext,
	// or nil to clear it.
	Credentials map[string]*string
}

// Names returns the names of every setting the patch changes, sorted.
func (p SettingsPatch) Names() []string {
	names := make([]string, 0, len(p.Values)+len(p.Credentials))
	for _, spec := range settingSpecs {
		_, v := p.Values[spec.Name]
		_, c := p.Credentials[spec.Name]
		if v || c {
			names = append(names, spec.Name)
		}
	}
	return names
}

// Validate checks rules that span several settings. It is called on the
// merged result of a patch.
func (s *Settings) Validate() error {
	if s.AlertsEnabled {
		if s.SMTPHost == "" {
			return fieldErr("alerts_enabled", "alerts need smtp_host to be set")
		}
		if len(s.AlertRecipients) == 0 {
			return fieldErr("alerts_enabled", "alerts need at least one alert_recipients entry")
		}
		if s.SMTPFrom == "" {
			return fieldErr("alerts_enabled", "alerts need smtp_from to be set")
		}
	}
	return nil
}
