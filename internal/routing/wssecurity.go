package routing

import (
	"fmt"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/wssec"
)

// compileInboundWSS compiles the service's inbound WS-Security policy
// into a verifier (certificates parsed here, never on the request path);
// nil when there is none or its mode is off.
func compileInboundWSS(src Source) (*wssec.Verifier, error) {
	p := src.InboundWSS
	if p == nil || p.Mode == "" || p.Mode == model.WSSModeOff {
		return nil, nil
	}
	v, err := wssec.NewVerifier(p, src.Nonces)
	if err != nil {
		return nil, fmt.Errorf("inbound WS-Security: %w", err)
	}
	return v, nil
}
