package model

import (
	"encoding/json"
	"fmt"
	"net/mail"
	"net/netip"
	"slices"
	"strings"
)

// SettingKind is the JSON type of a setting.
type SettingKind string

// Setting kinds.
const (
	KindInteger    SettingKind = "integer"
	KindBoolean    SettingKind = "boolean"
	KindString     SettingKind = "string"
	KindStringList SettingKind = "string_list"
	KindCredential SettingKind = "credential" // write-only; read as CredentialMetadata
)

// Formats of string settings and list items.
const (
	FormatCIDR  = "cidr"
	FormatEmail = "email"
	FormatHost  = "host"
	FormatName  = "name"
)

// Limits on string settings.
const (
	maxStringLen     = 320
	maxListItems     = 100
	maxCredentialLen = 1024
)

// SettingSpec describes one setting: its name, JSON kind, bounds and how it
// is decoded. The admin API validates, documents and stores settings from
// this one table.
type SettingSpec struct {
	Name        string
	Kind        SettingKind
	Description string
	Min, Max    int64    // KindInteger bounds, inclusive
	Enum        []string // KindString allowed values, when not nil
	Format      string   // KindString / KindStringList item format, when not ""

	get     func(*Settings) any
	set     func(*Settings, json.RawMessage) error
	setMeta func(*Settings, CredentialMetadata)
}

// SettingSpecs returns the specification of every setting, in API order.
func SettingSpecs() []SettingSpec { return slices.Clone(settingSpecs) }

// LookupSetting returns the spec of the setting named name.
func LookupSetting(name string) (SettingSpec, bool) {
	i := slices.IndexFunc(settingSpecs, func(s SettingSpec) bool { return s.Name == name })
	if i < 0 {
		return SettingSpec{}, false
	}
	return settingSpecs[i], true
}

// Value returns the current value of the setting in s (for a credential,
// its CredentialMetadata).
func (sp SettingSpec) Value(s *Settings) any { return sp.get(s) }

// SetCredentialMetadata records the metadata of credential setting sp in s;
// it does nothing for other kinds.
func (sp SettingSpec) SetCredentialMetadata(s *Settings, meta CredentialMetadata) {
	if sp.setMeta != nil {
		sp.setMeta(s, meta)
	}
}

// Apply decodes raw strictly and sets the setting in s. The error is a
// *FieldError; its reason never quotes the value. Credentials cannot be
// applied this way.
func (sp SettingSpec) Apply(s *Settings, raw json.RawMessage) error {
	if sp.Kind == KindCredential {
		return fieldErr(sp.Name, "is a credential and is stored separately")
	}
	if isNull(raw) {
		return fieldErr(sp.Name, "must not be null")
	}
	return sp.set(s, raw)
}

var settingSpecs = []SettingSpec{
	intSpec("default_timeout_ms", "Default backend timeout of an operation, in milliseconds.", 1, 600000,
		func(s *Settings) *int64 { return &s.DefaultTimeoutMs }),
	intSpec("default_retry_count", "Default retry count of an operation; retries apply only before a response byte arrived.", 0, 10,
		func(s *Settings) *int64 { return &s.DefaultRetryCount }),
	intSpec("default_retention_days", "Days traffic logs, runtime logs and audit events are kept.", 1, 3650,
		func(s *Settings) *int64 { return &s.DefaultRetentionDays }),
	boolSpec("debug_payload_logging_enabled", "Log request and response payloads for every route, as if debug were on.",
		func(s *Settings) *bool { return &s.DebugPayloadLoggingEnabled }),
	intSpec("debug_max_payload_kb", "Largest payload kept in a debug log entry, in KB; longer payloads are truncated.", 1, 10240,
		func(s *Settings) *int64 { return &s.DebugMaxPayloadKB }),
	listSpec("debug_redact_names", "Local names (case-insensitive) of XML elements and \"$headers\" members whose values debug captures "+
		"mask before storage, besides WS-Security Password, Nonce and BinarySecurityToken and credential headers.", FormatName,
		func(s *Settings) *[]string { return &s.DebugRedactNames }),
	intSpec("dashboard_freshness_stale_minutes", "Minutes after which a traffic aggregation source counts as stale.", 1, 10080,
		func(s *Settings) *int64 { return &s.DashboardFreshnessStaleMinutes }),
	intSpec("aggregation_interval_seconds", "Seconds between runs of the hourly traffic aggregation (windows over 1 hour read it).", 5, 86400,
		func(s *Settings) *int64 { return &s.AggregationIntervalSeconds }),
	intSpec("max_payload_mb", "Largest request or response body on every surface, in MB; larger gives 413.", 1, 1024,
		func(s *Settings) *int64 { return &s.MaxPayloadMB }),
	intSpec("async_callback_ttl_seconds", "Seconds an async execution waits for its callback before it expires.", 60, 2592000,
		func(s *Settings) *int64 { return &s.AsyncCallbackTTLSeconds }),
	listSpec("gateway_trusted_proxies", "CIDRs of proxies trusted to set X-Forwarded-For in front of the gateway.", FormatCIDR,
		func(s *Settings) *[]string { return &s.GatewayTrustedProxies }),
	listSpec("outbound_allowed_cidrs", "CIDRs the control plane may fetch from even when loopback or link-local.", FormatCIDR,
		func(s *Settings) *[]string { return &s.OutboundAllowedCIDRs }),
	listSpec("outbound_denied_cidrs", "CIDRs the control plane must never fetch from.", FormatCIDR,
		func(s *Settings) *[]string { return &s.OutboundDeniedCIDRs }),
	stringSpec("smtp_host", "SMTP relay host for alert mails; empty disables delivery.", FormatHost, nil,
		func(s *Settings) *string { return &s.SMTPHost }),
	intSpec("smtp_port", "SMTP relay port.", 1, 65535,
		func(s *Settings) *int64 { return &s.SMTPPort }),
	stringSpec("smtp_username", "SMTP user name; empty for no authentication.", "", nil,
		func(s *Settings) *string { return &s.SMTPUsername }),
	{Name: "smtp_password", Kind: KindCredential, Description: "SMTP password. Write-only: a string sets it, null clears it; reads return the credential metadata envelope.",
		get:     func(s *Settings) any { return s.SMTPPassword },
		setMeta: func(s *Settings, m CredentialMetadata) { s.SMTPPassword = m }},
	stringSpec("smtp_from", "Sender address of alert mails.", FormatEmail, nil,
		func(s *Settings) *string { return &s.SMTPFrom }),
	stringSpec("smtp_tls_mode", "TLS towards the SMTP relay.", "", []string{SMTPTLSStartTLS, SMTPTLSImplicit, SMTPTLSNone},
		func(s *Settings) *string { return &s.SMTPTLSMode }),
	listSpec("alert_recipients", "E-mail addresses that receive alert mails.", FormatEmail,
		func(s *Settings) *[]string { return &s.AlertRecipients }),
	boolSpec("alerts_enabled", "Send alert mails; needs smtp_host, smtp_from and at least one recipient.",
		func(s *Settings) *bool { return &s.AlertsEnabled }),
	intSpec("alert_evaluation_interval_seconds", "Seconds between two evaluations of the discovery alert rules.", 5, 86400,
		func(s *Settings) *int64 { return &s.AlertEvaluationIntervalSeconds }),
	intSpec("alert_cooldown_minutes", "Least minutes between two alert mails of one rule; a recovery waits for it too.", 1, 10080,
		func(s *Settings) *int64 { return &s.AlertCooldownMinutes }),
}

func intSpec(name, desc string, lo, hi int64, field func(*Settings) *int64) SettingSpec {
	return SettingSpec{Name: name, Kind: KindInteger, Description: desc, Min: lo, Max: hi,
		get: func(s *Settings) any { return *field(s) },
		set: func(s *Settings, raw json.RawMessage) error {
			var v int64
			if err := json.Unmarshal(raw, &v); err != nil {
				return fieldErr(name, "must be an integer")
			}
			if v < lo || v > hi {
				return fieldErr(name, fmt.Sprintf("must be between %d and %d", lo, hi))
			}
			*field(s) = v
			return nil
		}}
}

func boolSpec(name, desc string, field func(*Settings) *bool) SettingSpec {
	return SettingSpec{Name: name, Kind: KindBoolean, Description: desc,
		get: func(s *Settings) any { return *field(s) },
		set: func(s *Settings, raw json.RawMessage) error {
			var v bool
			if err := json.Unmarshal(raw, &v); err != nil {
				return fieldErr(name, "must be a boolean")
			}
			*field(s) = v
			return nil
		}}
}

func stringSpec(name, desc, format string, enum []string, field func(*Settings) *string) SettingSpec {
	return SettingSpec{Name: name, Kind: KindString, Description: desc, Format: format, Enum: enum,
		get: func(s *Settings) any { return *field(s) },
		set: func(s *Settings, raw json.RawMessage) error {
			var v string
			if err := json.Unmarshal(raw, &v); err != nil {
				return fieldErr(name, "must be a string")
			}
			if enum != nil && !slices.Contains(enum, v) {
				return fieldErr(name, "must be one of "+strings.Join(enum, ", "))
			}
			if reason := checkString(v, format); reason != "" && v != "" {
				return fieldErr(name, reason)
			}
			*field(s) = v
			return nil
		}}
}

func listSpec(name, desc, format string, field func(*Settings) *[]string) SettingSpec {
	return SettingSpec{Name: name, Kind: KindStringList, Description: desc, Format: format,
		get: func(s *Settings) any { return slices.Clone(*field(s)) },
		set: func(s *Settings, raw json.RawMessage) error {
			var v []string
			if err := json.Unmarshal(raw, &v); err != nil || v == nil {
				return fieldErr(name, "must be an array of strings")
			}
			if len(v) > maxListItems {
				return fieldErr(name, fmt.Sprintf("must have at most %d items", maxListItems))
			}
			for i, item := range v {
				if reason := checkString(item, format); reason != "" {
					return &FieldError{Field: name, Index: i, Reason: reason}
				}
			}
			*field(s) = v
			return nil
		}}
}

// checkString returns why v does not fit format, or "".
func checkString(v, format string) string {
	if len(v) > maxStringLen {
		return fmt.Sprintf("must be at most %d characters", maxStringLen)
	}
	if strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return "must not contain control characters"
	}
	switch format {
	case FormatCIDR:
		if _, err := netip.ParsePrefix(v); err != nil {
			return "must be a CIDR such as 10.0.0.0/8 or fd00::/8"
		}
	case FormatEmail:
		if a, err := mail.ParseAddress(v); err != nil || a.Address == "" {
			return "must be an e-mail address"
		}
	case FormatName:
		if v == "" || strings.ContainsFunc(v, func(r rune) bool { return r == ' ' || r == ':' || r == '<' || r == '>' || r == '"' }) {
			return "must be a non-empty name without spaces, colons, quotes or angle brackets"
		}
	case FormatHost:
		if strings.ContainsAny(v, " /@?#[]") || (strings.Contains(v, ":") && !isIP(v)) {
			return "must be a host name or IP address without scheme or port"
		}
	}
	return ""
}

// isIP reports whether v is an IP address.
func isIP(v string) bool {
	_, err := netip.ParseAddr(v)
	return err == nil
}

// isNull reports whether raw is the JSON literal null.
func isNull(raw json.RawMessage) bool {
	return strings.TrimSpace(string(raw)) == "null"
}
