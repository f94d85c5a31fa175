package limit

import (
	"net/http"
	"strconv"
	"testing"
	"time"
)

func mustPolicy(t testing.TB, scope, body string) *Policy {
	t.Helper()
	s, err := ParseClientSettings([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Compile(scope)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// call is one request of a client script: from ip with the header value
// (if any), under policy number p, after advancing the clock by after.
type call struct {
	p      int
	ip     string
	header string
	after  time.Duration
	want   time.Duration // 0: passes; else the refusal's RetryAfter
}

func TestClientsAllow(t *testing.T) {
	perMinute2 := `{"clientKey":"ip","requestsPerMinute":60,"burst":2}`
	byHeader := `{"clientKey":"header:x-client-id","requestsPerMinute":60,"burst":1}`
	tests := []struct {
		name     string
		policies []string
		calls    []call
	}{
		{"burst then refusal then refill", []string{perMinute2}, []call{
			{ip: "10.0.0.1"}, {ip: "10.0.0.1"}, {ip: "10.0.0.1", want: time.Second},
			{ip: "10.0.0.1", after: 500 * time.Millisecond, want: 500 * time.Millisecond},
			{ip: "10.0.0.1", after: 500 * time.Millisecond}}},
		{"clients are apart", []string{perMinute2}, []call{
			{ip: "10.0.0.1"}, {ip: "10.0.0.1"}, {ip: "10.0.0.2"}, {ip: "10.0.0.2"}, {ip: "10.0.0.2", want: time.Second}}},
		{"services are apart", []string{perMinute2, perMinute2}, []call{
			{ip: "10.0.0.1"}, {ip: "10.0.0.1"}, {p: 1, ip: "10.0.0.1"}, {p: 1, ip: "10.0.0.1"},
			{ip: "10.0.0.1", want: time.Second}}},
		{"header values are apart, whatever the IP", []string{byHeader}, []call{
			{ip: "10.0.0.1", header: "a"}, {ip: "10.0.0.2", header: "a", want: time.Second},
			{ip: "10.0.0.1", header: "b"}}},
		{"no header falls back to the IP", []string{byHeader}, []call{
			{ip: "10.0.0.1"}, {ip: "10.0.0.1", want: time.Second}, {ip: "10.0.0.2"}, {ip: "10.0.0.1", header: "a"}}},
		{"slow rate", []string{`{"clientKey":"ip","requestsPerMinute":1}`}, []call{
			{ip: "::1"}, {ip: "::1", want: time.Minute}, {ip: "::1", after: time.Minute}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := NewFakeClock(t0)
			c := NewClients(0, clock)
			var ps []*Policy
			for i, body := range tt.policies {
				ps = append(ps, mustPolicy(t, string(rune('a'+i)), body))
			}
			for i, cl := range tt.calls {
				clock.Advance(cl.after)
				h := http.Header{}
				if cl.header != "" {
					h.Set("X-Client-Id", cl.header)
				}
				err := c.Allow(ps[cl.p], cl.ip, h)
				var got time.Duration
				if r, ok := AsRefusal(err); ok {
					got = r.RetryAfter
				} else if err != nil {
					t.Fatal(err)
				}
				if got != cl.want {
					t.Fatalf("call %d: retry after %v, want %v", i, got, cl.want)
				}
			}
		})
	}
}

func TestClientShardEvictsLeastRecent(t *testing.T) {
	var s clientShard
	s.init(2)
	rule := newGCRA(1, 1)
	for _, k := range []uint64{1, 2, 1, 3} { // 2 is least recent when 3 comes
		s.take(k, 0, rule)
	}
	if _, ok := s.index[2]; ok || len(s.index) != 2 {
		t.Fatalf("index = %v, want clients 1 and 3", s.index)
	}
	// Client 1 is still limited; client 2 was forgotten and passes again.
	if w, _ := s.take(1, 0, rule); w == 0 {
		t.Error("client 1 lost its bucket")
	}
	if w, evicted := s.take(2, 0, rule); w != 0 || !evicted {
		t.Errorf("client 2: wait %v evicted %v, want 0 true", w, evicted)
	}
}

func TestClientsStayBounded(t *testing.T) {
	const capacity = 1024
	c := NewClients(capacity, NewFakeClock(t0))
	p := mustPolicy(t, "s", `{"clientKey":"ip","requestsPerMinute":60}`)
	const n = 10 * capacity
	for i := range n {
		if err := c.AllowKey(p, "client-"+strconv.Itoa(i)); err != nil {
			t.Fatal(err)
		}
	}
	s := c.Snapshot()
	if s.Clients > capacity || s.Clients+int(s.Evicted) != n {
		t.Errorf("snapshot %+v: want at most %d clients and %d seen in all", s, capacity, n)
	}
}
