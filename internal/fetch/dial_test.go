package fetch

import (
	"context"
	"errors"
	"testing"

	"github.com/s2r-project/s2r/internal/tests/loopback"
)

// TestPolicyDialContext: the exported dialer refuses loopback by default,
// connects once the address is allowed, and refuses other networks.
func TestPolicyDialContext(t *testing.T) {
	l := loopback.Listen(t, nil)
	ctx := context.Background()
	var fe *Error
	if _, err := (Policy{}).DialContext(ctx, "tcp", l.Addr().String()); !errors.As(err, &fe) || fe.Reason != ReasonBlockedAddress {
		t.Errorf("loopback without allow list: %v, want blocked_address", err)
	}
	if _, err := (Policy{}).DialContext(ctx, "tcp", "localhost:25"); !errors.As(err, &fe) || fe.Reason != ReasonBlockedAddress {
		t.Errorf("localhost by name: %v, want blocked_address", err)
	}
	allowed := Policy{AllowedCIDRs: prefixes("127.0.0.0/8")}
	c, err := allowed.DialContext(ctx, "tcp", l.Addr().String())
	if err != nil {
		t.Fatalf("allowed loopback: %v", err)
	}
	c.Close()
	denied := Policy{AllowedCIDRs: prefixes("127.0.0.0/8"), DeniedCIDRs: prefixes("127.0.0.1/32")}
	if _, err := denied.DialContext(ctx, "tcp", l.Addr().String()); !errors.As(err, &fe) || fe.Reason != ReasonBlockedAddress {
		t.Errorf("denied wins: %v", err)
	}
	if _, err := allowed.DialContext(ctx, "unix", "/tmp/x.sock"); !errors.As(err, &fe) || fe.Reason != ReasonBadURL {
		t.Errorf("unix network: %v, want bad_url", err)
	}
}
