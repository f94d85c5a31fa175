package upstream

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// get returns an idle connection to key that is still open, or dials one.
func (h *h1Client) get(ctx context.Context, key string, req *http.Request) (*h1Conn, error) {
	now := time.Now()
	for {
		h.mu.Lock()
		list := h.idle[key]
		if len(list) == 0 {
			h.mu.Unlock()
			break
		}
		pc := list[len(list)-1]
		list[len(list)-1] = nil
		h.idle[key] = list[:len(list)-1]
		h.mu.Unlock()
		if now.Sub(pc.idleSince) < h.idleTimeout && alive(pc.c) {
			pc.reused = true
			return pc, nil
		}
		pc.c.Close()
	}
	return h.dial(ctx, key, req.URL)
}

// put returns pc to the idle pool, or closes it when the pool is full.
func (h *h1Client) put(pc *h1Conn) {
	pc.idleSince = time.Now()
	h.mu.Lock()
	if h.idle != nil && len(h.idle[pc.key]) < h.maxIdle {
		h.idle[pc.key] = append(h.idle[pc.key], pc)
		h.mu.Unlock()
		return
	}
	h.mu.Unlock()
	pc.c.Close()
}

// closeIdle closes every idle connection; the client stays usable.
func (h *h1Client) closeIdle() {
	h.mu.Lock()
	idle := h.idle
	h.idle = map[string][]*h1Conn{}
	h.mu.Unlock()
	for _, list := range idle {
		for _, pc := range list {
			pc.c.Close()
		}
	}
}

// dial connects to u's host (TLS with the profile's configuration for
// https), bounded by the dialer's and the handshake's timeouts.
func (h *h1Client) dial(ctx context.Context, key string, u *url.URL) (*h1Conn, error) {
	addr := urlHostPort(u)
	c, err := h.dialTCP(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	if u.Scheme == "https" {
		conf := h.tls.Clone()
		if conf.ServerName == "" {
			conf.ServerName = u.Hostname()
		}
		conf.NextProtos = nil // HTTP/1.1 only
		tc := tls.Client(c, conf)
		hctx, cancel := context.WithTimeout(ctx, h.tlsTimeout)
		err := tc.HandshakeContext(hctx)
		cancel()
		if err != nil {
			c.Close()
			return nil, err
		}
		c = tc
	}
	return &h1Conn{c: c, key: key}, nil
}

// urlHostPort is u's host:port, with the scheme's default port when u
// has none.
func urlHostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if strings.EqualFold(u.Scheme, "https") {
			port = "443"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}

func isConnReset(err error) bool {
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}
