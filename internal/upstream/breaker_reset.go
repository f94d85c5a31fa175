package upstream

// Track notes the endpoint URL profileID has in the route table now being
// served. When it differs from the one tracked before, the profile's
// breaker is replaced by a fresh, closed one: what it counted was about
// another server, and an open breaker would otherwise refuse the new
// endpoint for up to BreakerOpenFor (the breaker belongs to the profile,
// whose id survives the edit). The first endpoint tracked resets nothing.
func (bs *Breakers) Track(profileID, endpoint string) {
	bs.mu.Lock()
	if bs.endpoints == nil {
		bs.endpoints = map[string]string{}
	}
	old, seen := bs.endpoints[profileID]
	bs.endpoints[profileID] = endpoint
	e, ok := bs.m[profileID]
	if !seen || old == endpoint || !ok {
		bs.mu.Unlock()
		return
	}
	from := breakerState(e.cb.State())
	e.cb = bs.newBreaker(profileID)
	bs.mu.Unlock()
	if f := bs.cfg.OnStateChange; f != nil && from != BreakerClosed {
		f(profileID, from, BreakerClosed)
	}
}
