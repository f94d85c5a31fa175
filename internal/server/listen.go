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
	ln = strictListener{Listener: ln, token: token} // framing.go
	srv := &http.Server{
		Handler:           l.Handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    1 << 20,
		ErrorLog:          slog.NewLogLogger(l.Logger.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
		ConnContext:       func(ctx context.Context, _ net.Conn) context.Context { return withFramingToken(ctx, token) },
	}
	l.Logger.Info("listening", "listener", l.Name, "addr", addr.String())
	if l.OnReady != nil {
		l.OnReady(l.Name, addr)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("%s listener: %w", l.Name, err)
	case <-ctx.Done():
	}
	l.Logger.Info("shutting down", "listener", l.Name)
	sctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	err = srv.Shutdown(sctx)
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	if err != nil {
		srv.Close()
		return fmt.Errorf("%s listener shutdown: %w", l.Name, err)
	}
	return nil
}
