package limit

import (
	"hash/maphash"
	"net/http"
	"sync/atomic"
)

// DefaultMaxClients is the default capacity of a Clients table: 2^20
// (1,048,576) clients. The memory budget is 80 bytes a client, 80 MiB for
// a full table; BenchmarkClientsMemory measured about 68 bytes a client at
// one million clients (a 24-byte entry plus the map slot pointing at it).
const DefaultMaxClients = 1 << 20

// clientShards is the number of independently locked parts of a Clients
// table; a power of two.
const clientShards = 64

// Clients holds the rate-limit bucket of each recently seen client, of
// every service sharing it, up to a fixed number: past it, the client seen
// least recently in its shard is forgotten (it starts again with a full
// burst when it comes back). A client is a 64-bit hash of its service,
// key kind and key value under a seed chosen at start, so an entry has a
// fixed size whatever the key's length and nobody can aim for collisions.
type Clients struct {
	clock   Clock
	seed    maphash.Seed
	shards  [clientShards]clientShard
	refused atomic.Uint64
	evicted atomic.Uint64
}

// NewClients returns a table of at most maxClients clients (0:
// DefaultMaxClients) reading clock (nil: the system clock).
func NewClients(maxClients int, clock Clock) *Clients {
	if maxClients <= 0 {
		maxClients = DefaultMaxClients
	}
	if clock == nil {
		clock = SystemClock{}
	}
	c := &Clients{clock: clock, seed: maphash.MakeSeed()}
	per := max((maxClients+clientShards-1)/clientShards, 1)
	for i := range c.shards {
		c.shards[i].init(per)
	}
	return c
}

// Allow counts one request of the client that ip and h identify under p.
// Over the limit it returns a *Refusal whose RetryAfter is when the next
// request of that client would pass.
func (c *Clients) Allow(p *Policy, ip string, h http.Header) error {
	kind, value := p.clientValue(ip, h)
	return c.allow(p, c.hash(p.scope, kind, value))
}

// AllowKey is Allow for a client key the caller already extracted.
func (c *Clients) AllowKey(p *Policy, key string) error {
	return c.allow(p, c.hash(p.scope, 'k', key))
}

func (c *Clients) allow(p *Policy, key uint64) error {
	now := c.clock.Now().UnixNano()
	s := &c.shards[key%clientShards]
	wait, evicted := s.take(key, now, p.rule)
	if evicted {
		c.evicted.Add(1)
	}
	if wait > 0 {
		c.refused.Add(1)
		return &Refusal{Reason: ReasonClientRate, RetryAfter: wait}
	}
	return nil
}

func (c *Clients) hash(scope string, kind byte, value string) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	h.WriteString(scope)
	h.WriteByte(0)
	h.WriteByte(kind)
	h.WriteString(value)
	return h.Sum64()
}

// ClientsSnapshot is what a Clients table has counted, for /metrics.
type ClientsSnapshot struct {
	Clients int    // clients held now
	Refused uint64 // requests refused, since start
	Evicted uint64 // clients forgotten to make room, since start
}

// Snapshot returns the current counts.
func (c *Clients) Snapshot() ClientsSnapshot {
	n := 0
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		n += len(s.index)
		s.mu.Unlock()
	}
	return ClientsSnapshot{Clients: n, Refused: c.refused.Load(), Evicted: c.evicted.Load()}
}
