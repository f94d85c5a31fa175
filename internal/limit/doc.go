// Package limit protects backends and services from too much traffic
// (DESIGN 10.6), on each instance separately:
//
//   - A Limiter caps one backend profile's calls in flight
//     (maxConcurrentRequests) and per second (maxRequestsPerSecond). A call
//     over a cap waits up to queueTimeoutMs for room, then is refused with a
//     *Refusal the caller answers as 503 S2R-RUN-0509 with Retry-After. A
//     Registry keeps one Limiter per profile id and reconfigures it in place
//     when the profile's settings change, so calls already in flight stay
//     counted.
//   - A Clients table holds a rate-limit bucket per client of a service
//     ({"clientKey", "requestsPerMinute", "burst"}). It has a fixed number
//     of entries, evicts the least recently seen client, and is sharded so
//     that requests seldom wait on one another's lock. A client over its
//     limit is refused with a *Refusal answered as 429 S2R-RUN-0429.
//
// Both cap requests with the generic cell rate algorithm (GCRA): a bucket
// is one "theoretical arrival time", so a client costs a few dozen bytes.
// Time comes from a Clock, so tests move it by hand.
package limit
