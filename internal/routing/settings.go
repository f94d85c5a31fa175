package routing

import (
	"net/netip"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/upstream"
)

// Settings is the runtime's snapshot of the global settings it reads per
// request or per connection, compiled with the route table from the same
// configuration revision: it is swapped with the table and, when a load
// fails, the old one stays with it.
type Settings struct {
	// MaxPayloadMB is max_payload_mb (at least 1).
	MaxPayloadMB int
	// TrustedProxies is gateway_trusted_proxies.
	TrustedProxies []netip.Prefix
	// Outbound is outbound_allowed_cidrs and outbound_denied_cidrs.
	Outbound upstream.OutboundSettings
	// AsyncCallbackTTL is async_callback_ttl_seconds.
	AsyncCallbackTTL time.Duration
	// RetentionDays is default_retention_days.
	RetentionDays int64
}

// CompileSettings parses the stored settings into the runtime's snapshot.
// Unparsable CIDRs (which the admin refuses) are skipped; a number below
// 1 (which the admin refuses too) is the default.
func CompileSettings(s model.Settings) Settings {
	d := model.DefaultSettings()
	return Settings{
		MaxPayloadMB:   int(positive(s.MaxPayloadMB, d.MaxPayloadMB)),
		TrustedProxies: parsePrefixes(s.GatewayTrustedProxies),
		Outbound: upstream.OutboundSettings{Allowed: parsePrefixes(s.OutboundAllowedCIDRs),
			Denied: parsePrefixes(s.OutboundDeniedCIDRs)},
		AsyncCallbackTTL: time.Duration(positive(s.AsyncCallbackTTLSeconds, d.AsyncCallbackTTLSeconds)) * time.Second,
		RetentionDays:    positive(s.DefaultRetentionDays, d.DefaultRetentionDays),
	}
}

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
