package routing

import (
	"crypto/sha256"
	"encoding/json"
	"sync"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// OpCache keeps compiled operations across reloads, so a configuration
// change recompiles only the operations it touched: a revision bump for
// one service (or for a dataset, a monitor, a setting) does not compile
// every plan and JSON Schema of the catalog again. Compiled operations are
// immutable, so tables share them.
//
// An entry is keyed by everything its compilation reads: the stored
// operation, its active mapping, the contract's content hash, the
// version's WSDL service and port, and the settings defaults. Entries not
// used by the last successful load are dropped by Rotate.
type OpCache struct {
	mu        sync.Mutex
	cur, next map[[32]byte]*Operation
	hits      int
}

// NewOpCache returns an empty cache.
func NewOpCache() *OpCache {
	return &OpCache{cur: map[[32]byte]*Operation{}, next: map[[32]byte]*Operation{}}
}

// Rotate keeps only the entries used since the previous Rotate and
// returns how many operations were reused.
func (c *OpCache) Rotate() (reused int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	reused = c.hits
	c.cur, c.next, c.hits = c.next, map[[32]byte]*Operation{}, 0
	return reused
}

// Discard forgets the entries used since the previous Rotate (a load that
// failed).
func (c *OpCache) Discard() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, op := range c.next {
		c.cur[k] = op
	}
	c.next, c.hits = map[[32]byte]*Operation{}, 0
}

func (c *OpCache) get(k [32]byte) *Operation {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	op := c.cur[k]
	if op == nil {
		op = c.next[k]
	}
	if op != nil {
		c.next[k] = op
		c.hits++
	}
	return op
}

func (c *OpCache) put(k [32]byte, op *Operation) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.next[k] = op
}

// opKey fingerprints what compileOperation reads; ok is false when the
// inputs do not encode (then the operation is compiled without caching).
func opKey(src Source, o model.Operation) (key [32]byte, ok bool) {
	in := struct {
		Op                   model.Operation
		Req, Resp, Fault     json.RawMessage
		Contract, Svc, Port  string
		Timeout              time.Duration
		Retries              int
		HasContract, Mapping bool
	}{Op: o, Svc: src.Version.WSDLService, Port: src.Version.WSDLPort,
		Timeout: src.DefaultTimeout, Retries: src.DefaultRetries, HasContract: src.Contract != nil}
	if mp, found := src.Mappings[o.OperationID]; found {
		in.Req, in.Resp, in.Fault, in.Mapping = mp.RequestMapping, mp.ResponseMapping, mp.FaultMapping, true
	}
	if src.Artifact != nil {
		in.Contract = src.Artifact.ContentSHA256
		if in.Contract == "" {
			return key, false // no content identity: never share
		}
	} else if src.Contract != nil {
		return key, false
	}
	b, err := json.Marshal(in)
	if err != nil {
		return key, false
	}
	return sha256.Sum256(b), true
}
