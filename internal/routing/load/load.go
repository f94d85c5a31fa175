// Package load compiles the stored configuration into a routing.Table: it
// is the one place where the route table meets the store, so the data
// plane, which imports only package routing, never reaches the database.
package load

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/s2r-project/s2r/internal/contracts"
	"github.com/s2r-project/s2r/internal/limit"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/upstream"
	"github.com/s2r-project/s2r/internal/wssec"
)

// Config is what a load reads from.
type Config struct {
	Store     *store.Store
	Contracts *contracts.Cache // nil: a private cache
	Secrets   *secret.Box
	Logger    *slog.Logger
	// Ops reuses compiled operations across loads; nil compiles all.
	Ops *routing.OpCache
	// OnSwap is the reloader's routing.ReloaderConfig.OnSwap.
	OnSwap func(*routing.Table)
	// Nonces remembers the WS-Security UsernameToken nonces of inbound
	// policies (the store, shared by every instance, in s2r serve); nil:
	// one in-memory store per reloader.
	Nonces wssec.NonceStore
	// Limits holds the backend profiles' limiters across tables
	// (protection.go); nil: backends are not limited or counted.
	Limits *limit.Registry
	// Breakers, when set, gets the endpoint of every profile of each table
	// swapped in, so a changed endpoint gets a fresh breaker.
	Breakers *upstream.Breakers
}

// Table builds the route table from the store: every active service with
// an active version (disabled and deprecated services are absent, so they
// answer 404), with the settings snapshot of the same revision
// (routing.Settings, which the background jobs read too). A service that
// does not compile is left out and listed in Table.Errors; a failure to
// read the store fails the whole load.
func Table(ctx context.Context, cfg Config) (*routing.Table, error) {
	if cfg.Contracts == nil {
		cfg.Contracts = contracts.New(cfg.Store)
	}
	if cfg.Nonces == nil {
		cfg.Nonces = &wssec.MemoryNonces{}
	}
	st := cfg.Store
	// The revision is read first: data read after it is at least as new,
	// and a later bump triggers another load anyway.
	rev, err := st.Revision(ctx)
	if err != nil {
		return nil, err
	}
	settings, snapshot, err := readSettings(ctx, st)
	if err != nil {
		return nil, err
	}
	services, err := activeServices(ctx, st)
	if err != nil {
		return nil, err
	}
	var out []*routing.Service
	var bad []routing.ServiceError
	ok := false
	if cfg.Ops != nil {
		defer func() {
			if ok {
				cfg.Ops.Rotate()
			} else {
				cfg.Ops.Discard()
			}
		}()
	}
	for _, m := range services {
		src, err := source(ctx, cfg, m, settings)
		if err == nil {
			var s *routing.Service
			if s, err = routing.Compile(src); err == nil {
				out = append(out, s)
				continue
			}
		}
		if isStoreFailure(err) {
			return nil, err
		}
		bad = append(bad, routing.ServiceError{ServiceID: m.ServiceID,
			Key: routing.Key{Direction: m.Direction, Environment: m.Environment, ServiceKey: m.ServiceKey}, Err: err})
	}
	ok = true
	return routing.NewTable(rev, out, bad).WithSettings(snapshot), nil
}

// Settings reads the stored settings and compiles them into a snapshot
// without a route table, for one-shot commands that run a job once
// (routing.Fixed). s2r serve reads its snapshot from the Reloader.
func Settings(ctx context.Context, st *store.Store) (routing.Settings, error) {
	_, s, err := readSettings(ctx, st)
	return s, err
}

// readSettings reads what the settings snapshot is compiled from: the
// settings and the API-key header names of every backend profile (of
// any service, active or not: a captured header is masked by the name
// whatever service it passed through).
func readSettings(ctx context.Context, st *store.Store) (model.Settings, routing.Settings, error) {
	settings, err := st.Settings(ctx)
	if err != nil {
		return settings, routing.Settings{}, err
	}
	keys, err := st.APIKeyHeaderNames(ctx)
	if err != nil {
		return settings, routing.Settings{}, err
	}
	return settings, routing.CompileSettings(settings, keys), nil
}

// isStoreFailure tells a database failure (the whole load fails and the
// old table stays) from a problem of one service's configuration.
func isStoreFailure(err error) bool {
	var se storeErr
	return errors.As(err, &se)
}

// storeErr marks an error reading the store.
type storeErr struct{ error }

func (e storeErr) Unwrap() error { return e.error }

func activeServices(ctx context.Context, st *store.Store) ([]model.Service, error) {
	var out []model.Service
	for page := 1; ; page++ {
		p, err := st.Services(ctx, model.ServiceFilter{Status: model.ServiceActive,
			Page: model.PageRequest{Page: page, PageSize: model.MaxPageSize}})
		if err != nil {
			return nil, err
		}
		for _, s := range p.Items {
			if s.ActiveVersionID != nil {
				out = append(out, s)
			}
		}
		if page >= p.TotalPages {
			return out, nil
		}
	}
}

// source reads one service's rows and opens its backends' credentials.
func source(ctx context.Context, cfg Config, m model.Service, settings model.Settings) (routing.Source, error) {
	st := cfg.Store
	// debug_payload_logging_enabled turns debug capture on for every route.
	m.DebugEnabled = m.DebugEnabled || settings.DebugPayloadLoggingEnabled
	src := routing.Source{
		Ops:            cfg.Ops,
		Service:        m,
		DefaultTimeout: time.Duration(settings.DefaultTimeoutMs) * time.Millisecond,
		DefaultRetries: int(settings.DefaultRetryCount),
	}
	var err error
	if src.Version, err = st.Version(ctx, *m.ActiveVersionID); err != nil {
		return src, readErr("version", err)
	}
	if id := src.Version.ArtifactID; id != nil {
		a, err := st.Artifact(ctx, *id)
		if err != nil {
			return src, readErr("artifact", err)
		}
		src.Artifact = &a
		if src.Contract, err = cfg.Contracts.Definitions(ctx, *id); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return src, fmt.Errorf("contract: %w", err)
			}
			return src, fmt.Errorf("contract %s: %w", *id, err) // a parse failure belongs to this service
		}
	}
	if src.Operations, err = st.Operations(ctx, src.Version.VersionID); err != nil {
		return src, readErr("operations", err)
	}
	if src.Mappings, err = st.ActiveMappings(ctx, src.Version.VersionID); err != nil {
		return src, readErr("mappings", err)
	}
	profiles, err := st.BackendProfiles(ctx, m.ServiceID)
	if err != nil {
		return src, readErr("backend profiles", err)
	}
	for _, p := range profiles {
		b, err := upstream.Open(cfg.Secrets, p)
		if err != nil {
			// A credential that does not open is the backend's problem:
			// calls through it answer 502 S2R-RUN-0505, the service stays.
			b = upstream.Backend{Profile: p}
			cfg.logger().Warn("backend credentials do not open", "serviceId", m.ServiceID, "profileId", p.ProfileID, "error", err.Error())
		}
		if b.Limiter, err = cfg.limiter(p); err != nil {
			return src, err
		}
		src.Backends = append(src.Backends, b)
	}
	if src.RateLimit, err = st.ServiceRateLimit(ctx, m.ServiceID); err != nil {
		return src, readErr("rate limit", err)
	}
	if m.CallbackSecret.IsSet() {
		if cfg.Secrets == nil {
			cfg.logger().Warn("callback secret cannot be opened: no secret key", "serviceId", m.ServiceID)
		} else if b, err := cfg.Secrets.Open(m.CallbackSecret.Sealed(), model.CallbackSecretAAD(m.ServiceID)); err != nil {
			// Callbacks of a shared_secret service then all answer 401.
			cfg.logger().Warn("callback secret does not open", "serviceId", m.ServiceID, "error", err.Error())
		} else {
			src.CallbackSecret = b
		}
	}
	g, err := st.ConsumerGrants(ctx, m.ServiceID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return src, readErr("consumer grants", err)
	}
	src.Grants = g.CIDRs
	if src.InboundWSS, err = inboundWSS(ctx, cfg, m.ServiceID); err != nil {
		return src, err
	}
	src.Nonces = cfg.Nonces
	return src, nil
}

// inboundWSS reads the service's inbound WS-Security policy and opens its
// passwords; nil for mode off. A password that does not open is left
// out (that user's requests then fail authentication) and logged.
func inboundWSS(ctx context.Context, cfg Config, serviceID string) (*model.InboundWSSecurity, error) {
	c, err := cfg.Store.InboundWSS(ctx, serviceID)
	if err != nil {
		return nil, readErr("inbound ws-security", err)
	}
	if c.Mode == "" || c.Mode == model.WSSModeOff {
		return nil, nil
	}
	p := &model.InboundWSSecurity{Mode: c.Mode, TrustedCertificatesPEM: c.TrustedCertificatesPEM,
		RequireSignature: c.RequireSignature, RequireTimestamp: c.RequireTimestamp, MaxClockSkewSeconds: c.MaxClockSkewSeconds}
	for _, u := range c.UsernameTokens {
		if cfg.Secrets == nil || !u.Password.Set {
			cfg.logger().Warn("inbound WS-Security password cannot be opened", "serviceId", serviceID, "username", u.Username)
			continue
		}
		pw, err := cfg.Secrets.Open(u.Password.Sealed(), model.InboundWSSPasswordAAD(serviceID, u.Username))
		if err != nil {
			cfg.logger().Warn("inbound WS-Security password does not open", "serviceId", serviceID, "username", u.Username,
				"error", err.Error())
			continue
		}
		p.UsernameTokens = append(p.UsernameTokens, model.WSSUserPassword{Username: u.Username, Password: string(pw)})
	}
	return p, nil
}

func readErr(what string, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%s: %w", what, err) // a row went away: the service's problem
	}
	return storeErr{fmt.Errorf("read %s: %w", what, err)}
}

func (c Config) logger() *slog.Logger {
	if c.Logger != nil {
		return c.Logger
	}
	return slog.Default()
}

// NewReloader returns a reloader that loads from cfg and watches the
// store's revision (in-process nudge, PostgreSQL LISTEN/NOTIFY, and a poll
// every interval as the fallback).
func NewReloader(cfg Config, interval time.Duration) *routing.Reloader {
	if cfg.Contracts == nil {
		cfg.Contracts = contracts.New(cfg.Store)
	}
	if cfg.Ops == nil {
		cfg.Ops = routing.NewOpCache()
	}
	if cfg.Nonces == nil {
		cfg.Nonces = &wssec.MemoryNonces{}
	}
	return routing.NewReloader(routing.ReloaderConfig{
		Load:     func(ctx context.Context) (*routing.Table, error) { return Table(ctx, cfg) },
		Watch:    cfg.Store.WatchRevision,
		Interval: interval,
		Logger:   cfg.logger(),
		OnSwap:   cfg.onSwap,
	})
}
