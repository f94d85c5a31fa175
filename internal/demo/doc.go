// Package demo is what `s2r demo` adds to `s2r serve`: two sample backends
// on loopback — a SOAP 1.1 document/literal calculator and a JSON REST
// quote service — and the client that onboards them into a running s2r
// through its admin API (publish/demo/calculator and consume/demo/quotes),
// then writes the commands that try them (DESIGN 10.4). It talks to s2r
// only over HTTP, exactly as a user could.
package demo
