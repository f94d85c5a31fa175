package discovery

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/store"
)

// TokenPrefix starts every connector token, so a leaked one is
// recognisable (secret scanners, logs).
const TokenPrefix = "s2ri_"

// newToken returns a connector token: the prefix and 32 random bytes,
// base64url.
func newToken() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return TokenPrefix + base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// hashToken is what is stored of a token: its SHA-256, hex. The token has
// 256 random bits, so a fast hash suffices (no password stretching), and
// it is what makes the per-call check cheap.
func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// Instance is the connector instance an ingest call authenticated as.
type Instance struct {
	InstanceID string
	Vendor     string
	TenantID   string
}

// authCacheLimit bounds the cached token hashes (wrong tokens included);
// past it the cache starts over.
const authCacheLimit = 10000

// authenticator checks bearer tokens against ingest_instances, caching
// each answer (found, unknown or revoked) for ttl: a revocation on any
// instance takes effect everywhere within ttl, and a flood of calls costs
// one hash and a map lookup each.
type authenticator struct {
	store *store.Store
	ttl   time.Duration
	now   func() time.Time

	mu    sync.RWMutex
	cache map[string]authEntry
}

type authEntry struct {
	inst   Instance
	ok     bool
	expiry time.Time
}

func newAuthenticator(st *store.Store, ttl time.Duration, now func() time.Time) *authenticator {
	return &authenticator{store: st, ttl: ttl, now: now, cache: map[string]authEntry{}}
}

// errUnauthorized is the answer to a missing, wrong or revoked token; one
// message for all, so a caller learns nothing about which.
var errUnauthorized = apierr.New(apierr.IngUnauthorized, "missing, invalid or revoked ingest token (Authorization: Bearer <token>)")

// authenticate returns the active instance of r's bearer token.
func (a *authenticator) authenticate(ctx context.Context, r *http.Request) (Instance, error) {
	h := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return Instance{}, errUnauthorized
	}
	token = strings.TrimSpace(token)
	if !strings.HasPrefix(token, TokenPrefix) || len(token) > 128 {
		return Instance{}, errUnauthorized
	}
	hash := hashToken(token)
	now := a.now()
	a.mu.RLock()
	e, hit := a.cache[hash]
	a.mu.RUnlock()
	if !hit || now.After(e.expiry) {
		in, err := a.store.IngestInstanceByTokenHash(ctx, hash)
		switch {
		case errors.Is(err, store.ErrNotFound):
			e = authEntry{}
		case err != nil:
			return Instance{}, apierr.Wrap(apierr.IngUnavailable, err, "connector token could not be checked; retry")
		default:
			e = authEntry{inst: Instance{InstanceID: in.InstanceID, Vendor: in.Vendor, TenantID: in.TenantID}, ok: in.RevokedAt.IsZero()}
		}
		e.expiry = now.Add(a.ttl)
		a.mu.Lock()
		if len(a.cache) >= authCacheLimit {
			a.cache = map[string]authEntry{}
		}
		a.cache[hash] = e
		a.mu.Unlock()
	}
	if !e.ok {
		return Instance{}, errUnauthorized
	}
	return e.inst, nil
}

// forget drops every cached answer (after a revocation in this process).
func (a *authenticator) forget() {
	a.mu.Lock()
	a.cache = map[string]authEntry{}
	a.mu.Unlock()
}
