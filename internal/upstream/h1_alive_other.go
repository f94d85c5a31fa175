//go:build !unix

package upstream

import "net"

// alive cannot peek at a socket here: an idle connection the backend
// closed is found when the request fails on it (and is then sent again
// when that is safe, see h1Client.RoundTrip).
func alive(net.Conn) bool { return true }
