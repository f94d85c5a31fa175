//go:build unix

package upstream

import (
	"crypto/tls"
	"net"
	"syscall"
)

// alive reports whether an idle connection is still open and quiet: a
// non-blocking peek at the socket sees the backend's close (EOF or an
// error) or bytes it sent unasked (a TLS alert, garbage), and either way
// the connection is not reused. Nothing is consumed.
func alive(c net.Conn) bool {
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	sc, ok := c.(syscall.Conn)
	if !ok {
		return true
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	open := false
	var buf [1]byte
	err = rc.Read(func(fd uintptr) bool {
		n, _, rerr := syscall.Recvfrom(int(fd), buf[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		open = n < 0 && (rerr == syscall.EAGAIN || rerr == syscall.EWOULDBLOCK)
		return true // never wait for readiness
	})
	return err == nil && open
}
