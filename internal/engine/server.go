// Package engine is s2r's own HTTP/1.1 server, used for the main listener
// (runtime, health, metrics, ingest and, by default, admin and the
// console): one goroutine per connection, pooled buffers, the request head
// parsed in place with one allocation for all its strings, framing checked
// by the strict parser (framing.go) on every head, and an answer's head
// and first bytes sent in one write. It serves an ordinary http.Handler,
// so every middleware, guard, record and metric runs as on net/http.
//
// What it does not do, and where net/http stays: TLS, HTTP/2, Hijack and
// request trailers (checked, then dropped).
// The separate admin listener and S2R_HTTP_ENGINE=net/http use net/http
// (docs/engine.md).
package engine

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Server serves HTTP/1.1 on a listener with Handler.
type Server struct {
	Handler http.Handler
	// ReadHeaderTimeout bounds reading a request head once its first
	// byte arrived; IdleTimeout bounds the wait for that first byte on a
	// kept-alive connection. Zero means none.
	ReadHeaderTimeout time.Duration
	IdleTimeout       time.Duration
	// MaxHeaderBytes bounds a request head (its slack of 4 KB as
	// net/http); a longer head is refused.
	MaxHeaderBytes int
	Logger         *slog.Logger
	// BaseContext is the parent of every request's context.
	BaseContext context.Context
	// Refusal builds the request a refused head is answered through: the
	// handler chain answers it (400 in the error shape, Connection:
	// close) and nothing after it is read from the connection. nil
	// answers a plain 400.
	Refusal func(reason string) *http.Request

	mu       sync.Mutex
	ln       net.Listener
	conns    map[*conn]struct{}
	shutdown atomic.Bool
}

// ErrServerClosed is returned by Serve after Shutdown or Close.
var ErrServerClosed = http.ErrServerClosed

// Serve accepts connections on ln and serves each on its own goroutine
// until Shutdown or Close; it always returns a non-nil error.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.shutdown.Load() {
		s.mu.Unlock()
		ln.Close()
		return ErrServerClosed
	}
	s.ln, s.conns = ln, map[*conn]struct{}{}
	s.mu.Unlock()
	var delay time.Duration
	for {
		rwc, err := ln.Accept()
		if err != nil {
			if s.shutdown.Load() {
				return ErrServerClosed
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, errTooManyFiles) {
				// Out of descriptors or a transient accept failure:
				// back off like net/http instead of spinning.
				delay = min(max(2*delay, 5*time.Millisecond), time.Second)
				s.logger().Warn("accept failed; retrying", "error", err, "retryIn", delay)
				time.Sleep(delay)
				continue
			}
			return err
		}
		delay = 0
		c := newConn(s, rwc)
		if !s.track(c, true) {
			rwc.Close()
			return ErrServerClosed
		}
		go c.serve()
	}
}

// track adds or removes c; adding fails once shutdown began.
func (s *Server) track(c *conn, add bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !add {
		delete(s.conns, c)
		return true
	}
	if s.shutdown.Load() {
		return false
	}
	s.conns[c] = struct{}{}
	return true
}

// Shutdown stops accepting, closes idle connections, lets each active one
// finish its request (answered with Connection: close) and returns when
// none is left, or with ctx's error when ctx ends first.
func (s *Server) Shutdown(ctx context.Context) error {
	s.shutdown.Store(true)
	s.mu.Lock()
	if s.ln != nil {
		s.ln.Close()
	}
	s.mu.Unlock()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if s.closeIdle() == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// closeIdle closes the connections waiting for a request and returns how
// many connections are left.
func (s *Server) closeIdle() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		if c.state.CompareAndSwap(stateIdle, stateClosed) {
			c.rwc.Close()
		}
	}
	return len(s.conns)
}

// Close closes the listener and every connection at once.
func (s *Server) Close() error {
	s.shutdown.Store(true)
	s.mu.Lock()
	defer s.mu.Unlock()
	var err error
	if s.ln != nil {
		err = s.ln.Close()
	}
	for c := range s.conns {
		c.rwc.Close()
	}
	return err
}

func (s *Server) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

func (s *Server) baseContext() context.Context {
	if s.BaseContext != nil {
		return s.BaseContext
	}
	return context.Background()
}
