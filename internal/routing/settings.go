package routing

import (
	"net/netip"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/redact"
	"github.com/s2r-project/s2r/internal/upstream"
)

// Settings is the one runtime snapshot of the global settings, compiled
// with the route table from the same configuration revision: it is
// swapped with the table and, when a load fails, the old one stays with
// it. The request path reads it per request or per connection, and the
// background jobs (recorder, aggregation, ingest, alerts) read it instead
// of the store, so a settings change reaches them all through one load.
//
// A Settings is a value; its lists, its Redactor and what Stored returns
// are shared by every copy and must not be modified.
type Settings struct {
	// MaxPayloadMB is max_payload_mb (at least 1).
	MaxPayloadMB int
	// TrustedProxies is gateway_trusted_proxies.
	TrustedProxies []netip.Prefix
	// Outbound is outbound_allowed_cidrs and outbound_denied_cidrs.
	Outbound upstream.OutboundSettings
	// AsyncCallbackTTL is async_callback_ttl_seconds.
	AsyncCallbackTTL time.Duration
	// RetentionDays is default_retention_days (at least 1).
	RetentionDays int64
	// DebugMaxPayloadBytes is debug_max_payload_kb in bytes: where a debug
	// capture is cut.
	DebugMaxPayloadBytes int
	// Redactor masks credentials in captured and ingested traffic: the
	// names of debug_redact_names and the API-key header names of every
	// backend profile. Never nil in a compiled snapshot (CompileSettings,
	// DefaultSettings, every table's); build snapshots with those.
	Redactor *redact.Redactor
	// AggregationInterval is aggregation_interval_seconds.
	AggregationInterval time.Duration

	// stored is the settings as read, for the rarer settings (Stored).
	stored *model.Settings
	// replaced is closed when a newer snapshot replaces this one (the
	// table's; see Replaced).
	replaced chan struct{}
}

// CompileSettings compiles the stored settings, and the API-key header
// names of the backend profiles (store.APIKeyHeaderNames), into the
// runtime's snapshot. Unparsable CIDRs (which the admin refuses) are
// skipped; a number below 1 (which the admin refuses too) is the default.
func CompileSettings(s model.Settings, apiKeyHeaders []string) Settings {
	d := model.DefaultSettings()
	return Settings{
		MaxPayloadMB:   int(positive(s.MaxPayloadMB, d.MaxPayloadMB)),
		TrustedProxies: parsePrefixes(s.GatewayTrustedProxies),
		Outbound: upstream.OutboundSettings{Allowed: parsePrefixes(s.OutboundAllowedCIDRs),
			Denied: parsePrefixes(s.OutboundDeniedCIDRs)},
		AsyncCallbackTTL:     time.Duration(positive(s.AsyncCallbackTTLSeconds, d.AsyncCallbackTTLSeconds)) * time.Second,
		RetentionDays:        positive(s.DefaultRetentionDays, d.DefaultRetentionDays),
		DebugMaxPayloadBytes: int(positive(s.DebugMaxPayloadKB, d.DebugMaxPayloadKB)) << 10,
		Redactor:             redact.New(s.DebugRedactNames, apiKeyHeaders),
		AggregationInterval:  time.Duration(positive(s.AggregationIntervalSeconds, d.AggregationIntervalSeconds)) * time.Second,
		stored:               &s,
	}
}

// Stored returns the settings as stored at the snapshot's revision, for
// what reads a setting the snapshot does not compile (the alert mail
// settings, for one). Its lists are shared: read them, never modify them.
func (s Settings) Stored() model.Settings {
	if s.stored == nil {
		return model.DefaultSettings()
	}
	return *s.stored
}

// Replaced returns a channel that is closed once the Reloader has swapped
// in a newer snapshot (with its table): a job that waits on a setting,
// such as an interval, selects on it and reads the settings again. It is
// nil, and so never ready, for a snapshot nothing replaces (the defaults,
// Fixed, a table no Reloader holds).
func (s Settings) Replaced() <-chan struct{} { return s.replaced }

// Fixed is a settings source whose snapshot never changes, for one-shot
// commands that run a job once with the settings read when they start
// (s2r loadgen -bulk, scripts/trafficgen).
type Fixed struct{ Snapshot Settings }

// Settings returns f's snapshot.
func (f Fixed) Settings() Settings { return f.Snapshot }

// positive returns v, or def when v is below 1.
func positive(v, def int64) int64 {
	if v < 1 {
		return def
	}
	return v
}

// parsePrefixes parses CIDRs and bare addresses (a one-address prefix),
// skipping what does not parse.
func parsePrefixes(cidrs []string) []netip.Prefix {
	out := make([]netip.Prefix, 0, len(cidrs))
	for _, c := range cidrs {
		if p, err := netip.ParsePrefix(c); err == nil {
			out = append(out, p.Masked())
		} else if a, err := netip.ParseAddr(c); err == nil {
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
		}
	}
	return out
}
