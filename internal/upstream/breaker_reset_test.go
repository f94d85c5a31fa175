package upstream_test

import (
	"errors"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/upstream"
)

// TestBreakerTrackResetsOnNewEndpoint: an open breaker stays open while
// the profile keeps its endpoint, and is fresh (closed, calls allowed)
// once the route table brings a new endpoint for the profile.
func TestBreakerTrackResetsOnNewEndpoint(t *testing.T) {
	var changes []string
	br := upstream.NewBreakers(upstream.BreakerConfig{ConsecutiveFailures: 1, OpenFor: time.Hour,
		OnStateChange: func(id string, from, to upstream.BreakerState) {
			changes = append(changes, id+":"+from.String()+">"+to.String())
		}})
	br.Track("p1", "http://10.0.0.1/a")
	done, err := br.Allow("p1")
	if err != nil {
		t.Fatal(err)
	}
	done(true)
	if got := br.State("p1"); got != upstream.BreakerOpen {
		t.Fatalf("state after a failure = %v, want open", got)
	}
	br.Track("p1", "http://10.0.0.1/a")
	if _, err := br.Allow("p1"); !errors.Is(err, upstream.ErrBreakerOpen) {
		t.Fatalf("same endpoint: Allow = %v, want ErrBreakerOpen", err)
	}
	br.Track("p2", "http://10.0.0.9/") // another profile: p1 unchanged
	if got := br.State("p1"); got != upstream.BreakerOpen {
		t.Fatalf("state after tracking another profile = %v, want open", got)
	}
	br.Track("p1", "http://10.0.0.2/a")
	if got := br.State("p1"); got != upstream.BreakerClosed {
		t.Fatalf("state after a new endpoint = %v, want closed", got)
	}
	if _, err := br.Allow("p1"); err != nil {
		t.Fatalf("new endpoint: Allow = %v, want nil", err)
	}
	want := []string{"p1:closed>open", "p1:open>closed"}
	if len(changes) != 2 || changes[0] != want[0] || changes[1] != want[1] {
		t.Errorf("state changes = %v, want %v", changes, want)
	}
}
