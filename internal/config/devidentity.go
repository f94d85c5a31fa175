package config

import (
	"fmt"
	"net"
	"net/mail"
	"strings"
)

// checkDevIdentity accepts S2R_DEV_IDENTITY only as a plain e-mail and only
// when every listener is bound to a loopback address: the option makes
// requests without identity headers act as that identity, which must never
// be reachable from another machine.
func (c Config) checkDevIdentity() error {
	if c.DevIdentity == "" {
		return nil
	}
	if a, err := mail.ParseAddress(c.DevIdentity); err != nil || a.Address != c.DevIdentity {
		return fmt.Errorf("%s: invalid e-mail address %q", EnvDevIdentity, c.DevIdentity)
	}
	listeners := []struct{ name, addr string }{{EnvListenAddr, c.ListenAddr}, {EnvAdminListenAddr, c.AdminListenAddr}}
	for _, l := range listeners {
		if l.addr == "" {
			continue
		}
		if !IsLoopbackAddr(l.addr) {
			return fmt.Errorf("%s: allowed only when every listener is on a loopback address; %s is %q (use 127.0.0.1:<port>)",
				EnvDevIdentity, l.name, l.addr)
		}
	}
	return nil
}

// IsLoopbackAddr reports whether a listen address host:port binds only
// loopback interfaces: a loopback IP literal or the name localhost. An
// empty host (every interface) is not loopback.
func IsLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
