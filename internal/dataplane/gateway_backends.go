package dataplane

import (
	"context"
	"net/http"

	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/upstream"
)

// SelectedBackends is the Backends of publish and consume: each call goes
// through the Selector (routing mode, health, circuit breaker) and the
// shared upstream Client.
//
// "Success" for active_passive on these directions is any answer but a
// 502, 503 or 504 (a proxy in front of the backend saying it is not
// there); failover happens on those and on a failure to connect, never
// after the request may have been processed. Breaker failures are connect
// errors, timeouts and 5xx answers, except a 500 carrying a SOAP Fault
// (upstream.IsBackendFailure, upstream.IsFailedAnswer).
type SelectedBackends struct {
	Client   *upstream.Client
	Selector *upstream.Selector
}

var _ Backends = SelectedBackends{}

// Do implements Backends.
func (s SelectedBackends) Do(ctx context.Context, svc *routing.Service, req upstream.Request) (*upstream.Response, *routing.Backend, error) {
	var resp *upstream.Response
	i, err := s.Selector.Do(ctx, poolOf(svc), func(ctx context.Context, i int) (upstream.Verdict, error) {
		r, err := s.Client.Do(ctx, svc.Backends[i].Backend, req)
		resp = r
		if err != nil {
			return upstream.Verdict{Failure: upstream.IsBackendFailure(0, err), Failover: upstream.FailedBeforeSend(err)}, err
		}
		return upstream.Verdict{
			Failure:  upstream.IsFailedAnswer(r.StatusCode, r.Header.Get("Content-Type")),
			Failover: unavailableStatus(r.StatusCode),
		}, nil
	})
	var b *routing.Backend
	if i >= 0 {
		b = svc.Backends[i]
	}
	if err != nil {
		return nil, b, err
	}
	return resp, b, nil
}

func unavailableStatus(s int) bool {
	return s == http.StatusBadGateway || s == http.StatusServiceUnavailable || s == http.StatusGatewayTimeout
}

// HealthTargets lists the backends of t to health-check (services whose
// backendHealthCheckMode is not none), for upstream.Checker.Targets. The
// wsdl_fetch check looks for the contract's target namespace and the SOAP
// operation names of the service.
func HealthTargets(t *routing.Table) []upstream.HealthTarget {
	var out []upstream.HealthTarget
	for _, svc := range t.Services() {
		if svc.HealthCheckMode == "" || svc.HealthCheckMode == upstream.HealthNone {
			continue
		}
		var ns string
		if svc.Contract != nil {
			ns = svc.Contract.TargetNamespace
		}
		ops := make([]string, 0, len(svc.Operations))
		for _, op := range svc.Operations {
			if op.SOAPName != "" {
				ops = append(ops, op.SOAPName)
			}
		}
		for _, b := range svc.Backends {
			out = append(out, upstream.HealthTarget{ServiceID: svc.ID, ServiceKey: svc.ServiceKey, Mode: svc.HealthCheckMode,
				Interval: svc.HealthCheckInterval, Backend: &b.Backend, Namespace: ns, Operations: ops})
		}
	}
	return out
}
