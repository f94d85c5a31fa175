// Package leakcheck fails a package's tests when goroutines they started
// are still running after the last test (go.uber.org/goleak): a request
// path, a transport or a background job that does not stop leaks
// goroutines and, usually, connections with them.
//
// A test package opts in with
//
//	func TestMain(m *testing.M) { leakcheck.Main(m) }
//
// and names the goroutines it knowingly leaves running with goleak
// options (IgnoreTopFunction, narrowly).
package leakcheck

import (
	"fmt"
	"net/http"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// Main runs the tests of m and, when they pass, looks for goroutines
// still running. Idle keep-alive connections of http.DefaultTransport
// (which tests use as a client) are closed first: they are the client's,
// not the code under test's.
func Main(m *testing.M, ignore ...goleak.Option) {
	code := m.Run()
	if code == 0 {
		if t, ok := http.DefaultTransport.(*http.Transport); ok {
			t.CloseIdleConnections()
		}
		if err := goleak.Find(ignore...); err != nil {
			fmt.Fprintf(os.Stderr, "leakcheck: goroutines still running after the tests:\n%v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}
