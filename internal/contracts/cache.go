// Package contracts turns stored WSDL import artifacts into parsed
// contracts, once: a bounded, concurrency-safe cache from artifact id to
// *wsdl.Definitions, memoized by the artifact's content hash.
//
// Every user of a stored contract goes through it: the catalog
// (diagnostics, readiness, drift), backend tests and OpenAPI generation,
// and the runtime's route compilation. Loading is single-flight: when many
// goroutines ask for the same contract at once, one loads the files from
// the store and parses them, the others wait for its result.
//
// The cached *wsdl.Definitions are shared: callers must treat them (and
// every *xsd.Operation in them) as read-only.
package contracts

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"sync"

	"golang.org/x/sync/singleflight"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xsd"
)

// DefaultSize is the number of parsed contracts New keeps.
const DefaultSize = 64

// maxIDs bounds the artifact id → content hash memo; it is cleared when
// full (ids are cheap to look up again).
const maxIDs = 16384

// ErrNoOperation is returned (wrapped) by Cache.Operation when the
// contract has no such service, port or operation. It wraps
// store.ErrNotFound, so callers that map ErrNotFound to 404 need nothing
// more.
var ErrNoOperation = fmt.Errorf("contracts: no such operation: %w", store.ErrNotFound)

// Cache is a bounded LRU of parsed contracts keyed by content hash. It is
// safe for concurrent use.
type Cache struct {
	st    *store.Store
	size  int
	group singleflight.Group

	mu    sync.Mutex
	ids   map[string]string        // artifact id → content hash
	index map[string]*list.Element // content hash → LRU element
	lru   *list.List               // of *entry, most recent first
}

type entry struct {
	hash string
	defs *wsdl.Definitions
	ops  map[opKey]*xsd.Operation
}

// opKey finds an operation; an empty service or port stands for "the
// first that has it", as in wsdl.Definitions.Operation.
type opKey struct{ service, port, name string }

// indexOperations maps every (service, port, name), and the forms with
// service and/or port left empty, to the operation Definitions.Operation
// would return, so a lookup is O(1) instead of a scan of every operation.
func indexOperations(defs *wsdl.Definitions) map[opKey]*xsd.Operation {
	ops := defs.Operations()
	idx := make(map[opKey]*xsd.Operation, 2*len(ops))
	for _, b := range ops {
		for _, k := range []opKey{{b.Service, b.Port, b.Name}, {b.Service, "", b.Name}, {"", b.Port, b.Name}, {"", "", b.Name}} {
			if _, ok := idx[k]; !ok {
				idx[k] = b.Operation
			}
		}
	}
	return idx
}

// New returns a cache of DefaultSize contracts loaded from st.
func New(st *store.Store) *Cache { return NewSize(st, DefaultSize) }

// NewSize returns a cache keeping at most size parsed contracts (at least 1).
func NewSize(st *store.Store, size int) *Cache {
	return &Cache{
		st: st, size: max(size, 1),
		ids: map[string]string{}, index: map[string]*list.Element{}, lru: list.New(),
	}
}

// Definitions returns the parsed contract of the artifact with id. A
// missing artifact gives an error wrapping store.ErrNotFound; a stored
// artifact that no longer parses (for example after a parser change) gives
// the *wsdl.ImportError.
func (c *Cache) Definitions(ctx context.Context, artifactID string) (*wsdl.Definitions, error) {
	e, err := c.entryFor(ctx, artifactID)
	if err != nil {
		return nil, err
	}
	return e.defs, nil
}

// Operation returns the contract of one operation of the artifact: service
// and port may be empty to take the first that has the operation. An
// unknown operation gives an error wrapping ErrNoOperation. Lookups use an
// index built once per contract.
func (c *Cache) Operation(ctx context.Context, artifactID, service, port, operation string) (*xsd.Operation, error) {
	e, err := c.entryFor(ctx, artifactID)
	if err != nil {
		return nil, err
	}
	op, ok := e.ops[opKey{service, port, operation}]
	if !ok {
		return nil, fmt.Errorf("operation %q (service %q, port %q) of artifact %s: %w",
			operation, service, port, artifactID, ErrNoOperation)
	}
	return op, nil
}

// entryFor returns the cache entry of an artifact, loading it when needed.
func (c *Cache) entryFor(ctx context.Context, artifactID string) (*entry, error) {
	hash, ok := c.hashOf(artifactID)
	if !ok {
		head, err := c.st.ArtifactHeader(ctx, artifactID)
		if err != nil {
			return nil, fmt.Errorf("contracts: %w", err)
		}
		hash = head.ContentSHA256
		c.rememberID(artifactID, hash)
	}
	if e, ok := c.get(hash); ok {
		return e, nil
	}
	v, err, _ := c.group.Do(hash, func() (any, error) {
		if e, ok := c.get(hash); ok {
			return e, nil
		}
		defs, err := c.load(context.WithoutCancel(ctx), artifactID)
		if err != nil {
			return nil, err
		}
		return c.put(hash, defs), nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*entry), nil
}

// Prime stores defs, parsed by the caller from exactly the files of a
// (the import path parses before it stores), so the first use does not
// parse again. a.ContentSHA256 must be set.
func (c *Cache) Prime(a model.Artifact, defs *wsdl.Definitions) {
	if a.ContentSHA256 == "" || defs == nil {
		return
	}
	c.rememberID(a.ArtifactID, a.ContentSHA256)
	c.put(a.ContentSHA256, defs)
}

// Len returns the number of parsed contracts held.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// load reads the artifact's files and parses them. The context is
// detached from the first caller's cancellation so that one impatient
// caller does not fail the others waiting on the same load.
func (c *Cache) load(ctx context.Context, artifactID string) (*wsdl.Definitions, error) {
	a, err := c.st.Artifact(ctx, artifactID)
	if err != nil {
		return nil, fmt.Errorf("contracts: %w", err)
	}
	defs, err := Parse(ctx, a)
	if err != nil {
		var ie *wsdl.ImportError
		if errors.As(err, &ie) {
			return nil, err
		}
		return nil, fmt.Errorf("contracts: parse artifact %s: %w", artifactID, err)
	}
	return defs, nil
}

func (c *Cache) hashOf(id string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	h, ok := c.ids[id]
	return h, ok
}

func (c *Cache) rememberID(id, hash string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.ids) >= maxIDs {
		clear(c.ids)
	}
	c.ids[id] = hash
}

func (c *Cache) get(hash string) (*entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.index[hash]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*entry), true
}

func (c *Cache) put(hash string, defs *wsdl.Definitions) *entry {
	e := &entry{hash: hash, defs: defs, ops: indexOperations(defs)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.index[hash]; ok {
		c.lru.MoveToFront(el)
		return el.Value.(*entry)
	}
	c.index[hash] = c.lru.PushFront(e)
	for c.lru.Len() > c.size {
		last := c.lru.Back()
		c.lru.Remove(last)
		delete(c.index, last.Value.(*entry).hash)
	}
	return e
}
