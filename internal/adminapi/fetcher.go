package adminapi

import (
	"context"
	"net/netip"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/fetch"
	"github.com/s2r-project/s2r/internal/store"
)

// Limits of a document fetched by an admin handler (a WSDL or XSD to
// import, a backend's WSDL in a connection test; docs/decisions-import.md).
const (
	MaxDocumentBytes = 20 << 20
	FetchTimeout     = 30 * time.Second
)

// GuardedFetcher returns a fetcher with the policy of the current
// settings: outbound_allowed_cidrs and outbound_denied_cidrs, documents of
// at most MaxDocumentBytes, FetchTimeout per document. Its idle
// connections are closed when ctx (the request's) ends.
func GuardedFetcher(ctx context.Context, st *store.Store) (*fetch.Fetcher, error) {
	settings, err := st.Settings(ctx)
	if err != nil {
		return nil, err
	}
	allowed, err := parsePrefixes(settings.OutboundAllowedCIDRs)
	if err != nil {
		return nil, err
	}
	denied, err := parsePrefixes(settings.OutboundDeniedCIDRs)
	if err != nil {
		return nil, err
	}
	f := fetch.New(fetch.Policy{AllowedCIDRs: allowed, DeniedCIDRs: denied,
		MaxBytes: MaxDocumentBytes, Timeout: FetchTimeout})
	// The fetcher lives as long as the request: its kept-alive
	// connections (and their goroutines) go with it.
	context.AfterFunc(ctx, f.CloseIdleConnections)
	return f, nil
}

// parsePrefixes parses stored CIDR settings (validated when written).
func parsePrefixes(list []string) ([]netip.Prefix, error) {
	out := make([]netip.Prefix, 0, len(list))
	for _, c := range list {
		p, err := netip.ParsePrefix(c)
		if err != nil {
			return nil, apierr.Wrap(apierr.AdmInternal, err, "a stored outbound CIDR setting does not parse")
		}
		out = append(out, p)
	}
	return out, nil
}
