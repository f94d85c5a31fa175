package upstream_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/upstream"
)

func TestMetrics(t *testing.T) {
	h := upstream.NewHealth()
	br := upstream.NewBreakers(upstream.BreakerConfig{ConsecutiveFailures: 1, OpenFor: time.Hour})
	up := &upstream.Backend{Profile: model.BackendProfile{ProfileID: "p-up"}}
	down := &upstream.Backend{Profile: model.BackendProfile{ProfileID: "p-down"}}
	h.Report(upstream.HealthTarget{ServiceID: "s1", Mode: upstream.HealthTCP, Backend: up}, time.Now(), nil)
	for range upstream.UnhealthyAfter {
		h.Report(upstream.HealthTarget{ServiceID: "s1", Mode: upstream.HealthTCP, Backend: down}, time.Now(), errors.New("refused"))
	}
	s := upstream.NewSelector(h, br)
	p := upstream.Pool{ServiceID: "s1", Mode: upstream.RoutingSingle, Backends: []*upstream.Backend{up}}
	s.Do(t.Context(), p, func(_ context.Context, _ int) (upstream.Verdict, error) {
		return upstream.Verdict{Failure: true}, errors.New("boom")
	})
	reg := prometheus.NewRegistry()
	reg.MustRegister(upstream.NewMetrics(h, br))
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
			got = append(got, fmt.Sprintf("%s{%s} %v", mf.GetName(), labels, m.GetGauge().GetValue()))
		}
	}
	want := []string{
		"s2r_backend_breaker_state{profile=p-up,service=s1,} 2",
		"s2r_backend_healthy{profile=p-down,service=s1,} 0",
		"s2r_backend_healthy{profile=p-up,service=s1,} 1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("metrics (-want +got):\n%s", diff)
	}
}
