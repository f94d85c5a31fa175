// Package loopback gives tests what they serve on 127.0.0.1 beyond
// net/http/httptest: a raw TCP listener that hands every connection to
// the test (pki.go adds a throwaway PKI for TLS and mutual TLS).
package loopback

import (
	"net"
	"testing"
)

// Listen listens on 127.0.0.1 on a free port until the end of the test
// and runs handle on every accepted connection, each in its own
// goroutine; a nil handle closes each connection at once.
func Listen(t testing.TB, handle func(net.Conn)) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	if handle == nil {
		handle = func(c net.Conn) { c.Close() }
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go handle(c)
		}
	}()
	return l
}

// FreeAddr returns a 127.0.0.1 address whose port was free a moment ago,
// for a server that must keep its port across restarts or for an address
// where nothing listens.
func FreeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
