// Package poll waits in tests for what happens asynchronously (a route
// table reload, a recorder's flush, a job's run, a restarted process):
// it polls a condition until it holds or a deadline passes.
package poll

import (
	"testing"
	"time"
)

// interval is the pause between two polls.
const interval = 20 * time.Millisecond

// Until polls cond until it holds and returns how long that took; when d
// passes first it fails the test, naming what it waited for.
func Until(t testing.TB, d time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > d {
			t.Fatalf("%s: not within %v", what, d)
		}
		time.Sleep(interval)
	}
	return time.Since(start)
}

// UntilOK polls check until it returns "" and returns how long that took;
// when d passes first it fails the test with check's last answer, which
// says what is still wrong.
func UntilOK(t testing.TB, d time.Duration, what string, check func() string) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		msg := check()
		if msg == "" {
			return time.Since(start)
		}
		if time.Since(start) > d {
			t.Fatalf("%s: not within %v: %s", what, d, msg)
		}
		time.Sleep(interval)
	}
}
