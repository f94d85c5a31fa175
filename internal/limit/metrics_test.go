package limit

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
)

func TestMetrics(t *testing.T) {
	clock := NewFakeClock(t0)
	r := NewRegistry(clock)
	l := r.Set("p1", BackendSettings{MaxConcurrentRequests: ptr[int64](1)})
	if _, _, err := l.Acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
	l.Acquire(context.Background()) // refused: concurrency
	c := NewClients(0, clock)
	p, err := ClientSettings{ClientKey: ClientKeyIP, RequestsPerMinute: 1}.Compile("s1")
	if err != nil {
		t.Fatal(err)
	}
	c.Allow(p, "10.0.0.1", http.Header{})
	c.Allow(p, "10.0.0.1", http.Header{}) // refused
	reg := prometheus.NewRegistry()
	reg.MustRegister(NewMetrics(r, c, func() map[string]string { return map[string]string{"p1": "s1"} }))
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			labels := ""
			for _, l := range m.GetLabel() {
				labels += l.GetName() + "=" + l.GetValue() + ","
			}
			v := m.GetGauge().GetValue() + m.GetCounter().GetValue()
			got = append(got, fmt.Sprintf("%s{%s} %v", mf.GetName(), labels, v))
		}
	}
	want := []string{
		"s2r_backend_in_flight{profile=p1,service=s1,} 1",
		"s2r_backend_queued{profile=p1,service=s1,} 0",
		"s2r_backend_refused_total{profile=p1,reason=concurrency,service=s1,} 1",
		"s2r_backend_refused_total{profile=p1,reason=rate,service=s1,} 0",
		"s2r_client_rate_limit_clients{} 1",
		"s2r_client_rate_limit_evicted_total{} 0",
		"s2r_client_rate_limited_total{} 1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("metrics (-want +got):\n%s", diff)
	}
}
