package routing

import (
	"net/netip"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/upstream"
)

func TestCompileSettings(t *testing.T) {
	p := netip.MustParsePrefix
	tests := []struct {
		name string
		in   func(*model.Settings)
		want Settings
	}{
		{name: "defaults", in: func(*model.Settings) {},
			want: Settings{MaxPayloadMB: 10, TrustedProxies: []netip.Prefix{}, AsyncCallbackTTL: 24 * time.Hour, RetentionDays: 30,
				Outbound: upstream.OutboundSettings{Allowed: []netip.Prefix{}, Denied: []netip.Prefix{}}}},
		{name: "stored values", in: func(s *model.Settings) {
			s.MaxPayloadMB, s.AsyncCallbackTTLSeconds, s.DefaultRetentionDays = 3, 60, 7
			s.GatewayTrustedProxies = []string{"10.1.2.3/8", "192.0.2.7", "not a cidr"}
			s.OutboundAllowedCIDRs, s.OutboundDeniedCIDRs = []string{"fd00::/8"}, []string{"169.254.0.0/16"}
		}, want: Settings{MaxPayloadMB: 3, TrustedProxies: []netip.Prefix{p("10.0.0.0/8"), p("192.0.2.7/32")},
			AsyncCallbackTTL: time.Minute, RetentionDays: 7,
			Outbound: upstream.OutboundSettings{Allowed: []netip.Prefix{p("fd00::/8")}, Denied: []netip.Prefix{p("169.254.0.0/16")}}}},
		{name: "below 1 is the default", in: func(s *model.Settings) {
			s.MaxPayloadMB, s.AsyncCallbackTTLSeconds, s.DefaultRetentionDays = 0, -1, 0
		}, want: Settings{MaxPayloadMB: 10, TrustedProxies: []netip.Prefix{}, AsyncCallbackTTL: 24 * time.Hour, RetentionDays: 30,
			Outbound: upstream.OutboundSettings{Allowed: []netip.Prefix{}, Denied: []netip.Prefix{}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := model.DefaultSettings()
			tt.in(&s)
			if diff := cmp.Diff(tt.want, CompileSettings(s), cmp.Comparer(func(a, b netip.Prefix) bool { return a == b })); diff != "" {
				t.Errorf("CompileSettings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTableSettings(t *testing.T) {
	var nilTable *Table
	if got := nilTable.Settings().MaxPayloadMB; got != 10 {
		t.Errorf("nil table MaxPayloadMB = %d, want 10", got)
	}
	base := NewTable(3, nil, nil)
	withS := base.WithSettings(Settings{MaxPayloadMB: 4})
	if base.Settings().MaxPayloadMB != 10 || withS.Settings().MaxPayloadMB != 4 || withS.Revision() != 3 {
		t.Errorf("WithSettings: base %d, copy %d at revision %d", base.Settings().MaxPayloadMB, withS.Settings().MaxPayloadMB, withS.Revision())
	}
}
