package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/s2r-project/s2r/internal/engine"
)

// ShutdownTimeout bounds how long in-flight requests may take to finish
// after shutdown begins.
const ShutdownTimeout = 20 * time.Second

// Listener is one HTTP listener.
type Listener struct {
	Name    string // "main" or "admin", for logs
	Addr    string // host:port; port 0 picks a free port
	Handler http.Handler
	Logger  *slog.Logger
	// Engine serves the listener with s2r's own HTTP/1.1 engine
	// (internal/engine) instead of net/http: the main listener does,
	// unless S2R_HTTP_ENGINE=net/http.
	Engine bool
	// OnReady is called with the bound address once the socket accepts
	// connections (tests use it with port 0).
	OnReady func(name string, addr net.Addr)
}

// framingToken returns a fresh random token for a listener's framing
// refusals.
func framingToken() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("framing token: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// Run listens, serves until ctx ends, then shuts down gracefully: it stops
// accepting, lets in-flight requests finish within ShutdownTimeout, and
// returns nil on a clean stop.
func (l Listener) Run(ctx context.Context) error {
	ln, err := net.Listen("tcp", l.Addr)
	if err != nil {
		return fmt.Errorf("%s listener: %w", l.Name, err)
	}
	token, err := framingToken()
	if err != nil {
		ln.Close()
		return err
	}
	addr := ln.Addr()
	srv := l.server(ctx, ln, token)
	l.Logger.Info("listening", "listener", l.Name, "addr", addr.String(), "engine", engineName(l.Engine))
	if l.OnReady != nil {
		l.OnReady(l.Name, addr)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.serve() }()
	select {
	case err := <-errc:
		return fmt.Errorf("%s listener: %w", l.Name, err)
	case <-ctx.Done():
	}
	l.Logger.Info("shutting down", "listener", l.Name)
	sctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	err = srv.shutdown(sctx)
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	if err != nil {
		srv.close()
		return fmt.Errorf("%s listener shutdown: %w", l.Name, err)
	}
	return nil
}

func engineName(own bool) string {
	if own {
		return "s2r"
	}
	return "net/http"
}

// httpServer is what Run needs of either server.
type httpServer struct {
	serve    func() error
	shutdown func(context.Context) error
	close    func() error
}

// server builds the listener's server: the engine, or net/http behind the
// strict framing check.
func (l Listener) server(ctx context.Context, ln net.Listener, token string) httpServer {
	base := withFramingToken(context.WithoutCancel(ctx), token)
	if l.Engine {
		e := &engine.Server{
			Handler:           l.Handler,
			ReadHeaderTimeout: readHeaderTimeout,
			IdleTimeout:       idleTimeout,
			MaxHeaderBytes:    maxHeaderBytes,
			Logger:            l.Logger,
			BaseContext:       base,
			Refusal:           func(reason string) *http.Request { return refusalRequest(token, reason) },
		}
		return httpServer{serve: func() error { return e.Serve(ln) }, shutdown: e.Shutdown, close: e.Close}
	}
	srv := &http.Server{
		Handler:           l.Handler,
		ReadHeaderTimeout: readHeaderTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(l.Logger.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return base },
	}
	sln := strictListener{Listener: ln, token: token} // framing.go
	return httpServer{serve: func() error { return srv.Serve(sln) }, shutdown: srv.Shutdown, close: srv.Close}
}

// The timeouts and head limit of both servers.
const (
	readHeaderTimeout = 10 * time.Second
	idleTimeout       = 120 * time.Second
	maxHeaderBytes    = 1 << 20
)
