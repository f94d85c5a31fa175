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
	hash, ok := c.hashOf(artifactID)
	if ok {
		if defs, ok := c.get(hash); ok {
			return defs, nil
		}
	} else {
		head, err := c.st.ArtifactHeader(ctx, artifactID)
		if err != nil {
			return nil, fmt.Errorf("contracts: %w", err)
		}
		hash = head.ContentSHA256
		c.rememberID(artifactID, hash)
		if defs, ok := c.get(hash); ok {
			return defs, nil
		}
	}
	v, err, _ := c.group.Do(hash, func() (any, error) {
		if defs, ok := c.get(hash); ok {
			return defs, nil
		}
		defs, err := c.load(context.WithoutCancel(ctx), artifactID)
		if err != nil {
			return nil, err
		}
		c.put(hash, defs)
		return defs, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*wsdl.Definitions), nil
}

// Operation returns the contract of one operation of the artifact: service
// and port may be empty to take the first that has the operation. An
// unknown operation gives an error wrapping ErrNoOperation.
func (c *Cache) Operation(ctx context.Context, artifactID, service, port, operation string) (*xsd.Operation, error) {
	defs, err := c.Definitions(ctx, artifactID)
	if err != nil {
		return nil, err
	}
	op, ok := defs.Operation(service, port, operation)
	if !ok {
		return nil, fmt.Errorf("operation %q (service %q, port %q) of artifact %s: %w",
			operation, service, port, artifactID, ErrNoOperation)
	}
	return op, nil
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

func (c *Cache) get(hash string) (*wsdl.Definitions, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.index[hash]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*entry).defs, true
}

func (c *Cache) put(hash string, defs *wsdl.Definitions) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.index[hash]; ok {
		c.lru.MoveToFront(el)
		return
	}
	c.index[hash] = c.lru.PushFront(&entry{hash: hash, defs: defs})
	for c.lru.Len() > c.size {
		last := c.lru.Back()
		c.lru.Remove(last)
		delete(c.index, last.Value.(*entry).hash)
	}
}
