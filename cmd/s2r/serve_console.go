package main

import (
	"log/slog"
	"net"
)

// consoleAnnouncer is the OnReady hook of the listeners: once the listener
// that serves the console (named listener) is bound, it logs the console's
// URL, so a newcomer finds it in the first lines of the log (DESIGN 10.4).
func consoleAnnouncer(log *slog.Logger, listener string) func(string, net.Addr) {
	return func(name string, addr net.Addr) {
		if name == listener {
			log.Info("console", "url", listenerURL(addr.String())+"/console/")
		}
	}
}

// listenerURL is the http URL a browser or curl on this machine reaches a
// bound host:port at: an unspecified host (0.0.0.0, ::) becomes 127.0.0.1.
func listenerURL(hostport string) string {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return "http://" + hostport
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}
