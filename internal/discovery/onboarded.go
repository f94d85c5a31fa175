package discovery

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// ShadowEnvironment is the environment of traffic that matches no
// onboarded service (DESIGN 9); its serviceKey is the serviceUri.
const ShadowEnvironment = "discovered"

// Match is the onboarded service a serviceUri belongs to.
type Match struct {
	ServiceID   string // "" for a shadow service
	Environment string
	ServiceKey  string
}

// shadow returns the match of an unmatched serviceUri.
func shadow(serviceURI string) Match {
	return Match{Environment: ShadowEnvironment, ServiceKey: serviceURI}
}

// matchKey is one path that leads to a service.
type matchKey struct {
	path   string
	match  Match
	active bool
}

// matcher maps normalised serviceUris to onboarded services
// (docs/discovery.md, "Matching onboarded services"):
//
//  1. s2r's own runtime path: a serviceUri equal to, or under,
//     NormalizeURI("/{direction}/{environment}/{serviceKey}") belongs to
//     that service; the longest such path wins. This is what a load
//     balancer in front of s2r sees.
//  2. Otherwise the path of a backend profile's endpoint URL, normalised
//     the same way, equal to the serviceUri (root "/" never matches). This
//     is what a load balancer or gateway in front of the SOAP backend sees.
//     When several services share that path (dev and prod backends often
//     do), an active service wins over a disabled one, then the smallest
//     (environment, serviceKey).
//
// Deprecated (soft-deleted) services match nothing.
type matcher struct {
	runtime []matchKey // longest path first
	backend map[string]matchKey
}

// newMatcher builds the matcher of endpoints.
func newMatcher(endpoints []model.OnboardedEndpoint) *matcher {
	m := &matcher{backend: map[string]matchKey{}}
	seen := map[string]bool{}
	for _, e := range endpoints {
		k := Match{ServiceID: e.ServiceID, Environment: e.Environment, ServiceKey: e.ServiceKey}
		active := e.Status == "active"
		if !seen[e.ServiceID] {
			seen[e.ServiceID] = true
			p := NormalizeURI("/" + e.Direction + "/" + e.Environment + "/" + e.ServiceKey)
			m.runtime = append(m.runtime, matchKey{path: p, match: k, active: active})
		}
		if e.EndpointURL == "" {
			continue
		}
		u, err := url.Parse(e.EndpointURL)
		if err != nil || u.Path == "" {
			continue
		}
		p := NormalizeURI(u.EscapedPath())
		if p == "/" {
			continue
		}
		cand := matchKey{path: p, match: k, active: active}
		if old, ok := m.backend[p]; !ok || better(cand, old) {
			m.backend[p] = cand
		}
	}
	slices.SortStableFunc(m.runtime, func(a, b matchKey) int {
		if c := cmp.Compare(len(b.path), len(a.path)); c != 0 {
			return c
		}
		if better(a, b) {
			return -1
		}
		if better(b, a) {
			return 1
		}
		return 0
	})
	return m
}

// better orders candidates for one path: active first, then environment,
// serviceKey and service id.
func better(a, b matchKey) bool {
	if a.active != b.active {
		return a.active
	}
	return cmp.Or(strings.Compare(a.match.Environment, b.match.Environment),
		strings.Compare(a.match.ServiceKey, b.match.ServiceKey),
		strings.Compare(a.match.ServiceID, b.match.ServiceID)) < 0
}

// match returns the service of serviceURI, or its shadow.
func (m *matcher) match(serviceURI string) Match {
	if m != nil {
		for _, k := range m.runtime {
			if serviceURI == k.path || strings.HasPrefix(serviceURI, k.path) && serviceURI[len(k.path)] == '/' {
				return k.match
			}
		}
		if k, ok := m.backend[serviceURI]; ok {
			return k.match
		}
	}
	return shadow(serviceURI)
}

// loadMatcher reads the onboarded services and builds their matcher.
func loadMatcher(ctx context.Context, st *store.Store) (*matcher, error) {
	eps, err := st.OnboardedEndpoints(ctx)
	if err != nil {
		return nil, fmt.Errorf("discovery: load onboarded services: %w", err)
	}
	return newMatcher(eps), nil
}

// reconcile re-matches every discovery row with m and stores the rows
// whose match changed (a service onboarded, renamed or deprecated since).
// It returns how many rows changed. Every instance runs it after a
// configuration change; they write the same matches, so no lock is taken.
func reconcile(ctx context.Context, st *store.Store, m *matcher) (int, error) {
	rows, err := st.DiscoveryRowMatches(ctx)
	if err != nil {
		return 0, err
	}
	var updates []model.RowMatch
	for _, r := range rows {
		k := m.match(r.ServiceURI)
		if k.ServiceID != r.OnboardedServiceID || k.Environment != r.Environment || k.ServiceKey != r.ServiceKey {
			updates = append(updates, model.RowMatch{RowID: r.RowID, ServiceURI: r.ServiceURI,
				OnboardedServiceID: k.ServiceID, Environment: k.Environment, ServiceKey: k.ServiceKey})
		}
	}
	changed := 0
	for chunk := range slices.Chunk(updates, 500) {
		err := st.Transact(ctx, func(tx *store.Tx) error {
			for _, u := range chunk {
				if err := tx.SetDiscoveryRowMatch(ctx, u); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return changed, err
		}
		changed += len(chunk)
	}
	return changed, nil
}
