package routing

import (
	"context"
	"net/netip"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/redact"
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
				Outbound:             upstream.OutboundSettings{Allowed: []netip.Prefix{}, Denied: []netip.Prefix{}},
				DebugMaxPayloadBytes: 64 << 10, AggregationInterval: time.Minute}},
		{name: "stored values", in: func(s *model.Settings) {
			s.MaxPayloadMB, s.AsyncCallbackTTLSeconds, s.DefaultRetentionDays = 3, 60, 7
			s.GatewayTrustedProxies = []string{"10.1.2.3/8", "192.0.2.7", "not a cidr"}
			s.OutboundAllowedCIDRs, s.OutboundDeniedCIDRs = []string{"fd00::/8"}, []string{"169.254.0.0/16"}
			s.DebugMaxPayloadKB, s.AggregationIntervalSeconds = 2, 5
		}, want: Settings{MaxPayloadMB: 3, TrustedProxies: []netip.Prefix{p("10.0.0.0/8"), p("192.0.2.7/32")},
			AsyncCallbackTTL: time.Minute, RetentionDays: 7,
			Outbound:             upstream.OutboundSettings{Allowed: []netip.Prefix{p("fd00::/8")}, Denied: []netip.Prefix{p("169.254.0.0/16")}},
			DebugMaxPayloadBytes: 2 << 10, AggregationInterval: 5 * time.Second}},
		{name: "below 1 is the default", in: func(s *model.Settings) {
			s.MaxPayloadMB, s.AsyncCallbackTTLSeconds, s.DefaultRetentionDays = 0, -1, 0
			s.DebugMaxPayloadKB, s.AggregationIntervalSeconds = 0, -3
		}, want: Settings{MaxPayloadMB: 10, TrustedProxies: []netip.Prefix{}, AsyncCallbackTTL: 24 * time.Hour, RetentionDays: 30,
			Outbound:             upstream.OutboundSettings{Allowed: []netip.Prefix{}, Denied: []netip.Prefix{}},
			DebugMaxPayloadBytes: 64 << 10, AggregationInterval: time.Minute}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := model.DefaultSettings()
			tt.in(&s)
			got := CompileSettings(s, nil)
			if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b netip.Prefix) bool { return a == b }),
				cmpopts.IgnoreUnexported(Settings{}), cmpopts.IgnoreFields(Settings{}, "Redactor")); diff != "" {
				t.Errorf("CompileSettings (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(s, got.Stored()); diff != "" {
				t.Errorf("Stored (-want +got):\n%s", diff)
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

// TestCompiledRedactor: the snapshot's redactor masks the stored
// debug_redact_names and the API-key header names it was compiled with.
func TestCompiledRedactor(t *testing.T) {
	s := model.DefaultSettings()
	s.DebugRedactNames = []string{"pin"}
	red := CompileSettings(s, []string{"X-Tenant-Key"}).Redactor
	if got := string(red.Payload([]byte("<pin>1234</pin>"))); got != "<pin>"+redact.Mask+"</pin>" {
		t.Errorf("payload %q", got)
	}
	h := red.Headers(map[string][]string{"X-Tenant-Key": {"k"}, "X-Keep": {"v"}})
	if h.Get("X-Tenant-Key") != redact.Mask || h.Get("X-Keep") != "v" {
		t.Errorf("headers %v", h)
	}
	if DefaultSettings().Redactor == nil {
		t.Error("the default snapshot has no redactor")
	}
}

// TestReplaced: a table's snapshot says when the Reloader replaces it; the
// defaults and a table no reloader holds never are.
func TestReplaced(t *testing.T) {
	if DefaultSettings().Replaced() != nil || (Fixed{}).Settings().Replaced() != nil {
		t.Error("a snapshot nothing replaces has a Replaced channel")
	}
	rev := int64(0)
	r := NewReloader(ReloaderConfig{Load: func(context.Context) (*Table, error) {
		rev++
		return NewTable(rev, nil, nil).WithSettings(Settings{MaxPayloadMB: int(rev)}), nil
	}})
	first := r.Settings()
	if err := r.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	second := r.Settings()
	select {
	case <-first.Replaced():
	default:
		t.Fatal("the first snapshot was not marked replaced")
	}
	select {
	case <-second.Replaced():
		t.Fatal("the current snapshot is marked replaced")
	default:
	}
	if err := r.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-second.Replaced():
	case <-time.After(time.Second):
		t.Fatal("the second snapshot was not marked replaced")
	}
	if r.Settings().MaxPayloadMB != 2 {
		t.Errorf("current MB %d, want 2", r.Settings().MaxPayloadMB)
	}
}
