package dataplane

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/upstream"
)

// Backends sends one call of a service to its backends by the service's
// routing mode (SPEC 4.6): it picks the backend (single, active_passive,
// round_robin, health and circuit breaker) and returns the answer with the
// backend that gave it. Failures are *upstream.Error or *apierr.Error
// (503 S2R-RUN-0503 when no backend is usable, 503 S2R-RUN-0529 when the
// breaker is open). The chosen backend is returned even on failure when
// one was tried, for the transaction record.
type Backends interface {
	Do(ctx context.Context, svc *routing.Service, req upstream.Request) (*upstream.Response, *routing.Backend, error)
}

// backendCall is one call a publish or consume request makes to its
// service's backends, with what the transaction record needs to know.
type backendCall struct {
	d     *Dispatcher
	r     *http.Request // the client's request: its context and traceparent
	rec   *model.TxRecord
	debug bool // record what was sent and received
	maxMB int  // the largest backend response accepted, in MiB
}

// do sends req through the backends of svc,
// carrying the client's traceparent, and notes in the record how long it
// took, which backend it went to and, in debug, the bodies and headers.
// A transport failure becomes the spec's error; a response over the
// payload limit is S2R-RUN-0413.
func (c backendCall) do(svc *routing.Service, req upstream.Request) (*upstream.Response, error) {
	req.MaxResponseBytes = int64(c.maxMB) << 20
	ctx := upstream.WithTraceParent(c.r.Context(), c.r.Header.Get(upstream.TraceParentHeader))
	t0 := time.Now()
	resp, b, err := c.d.cfg.Backends.Do(ctx, svc, req)
	c.rec.BackendMs = Ms(time.Since(t0))
	if b != nil {
		c.rec.BackendTarget = model.RedactTarget(b.Profile.EndpointURL)
	}
	if c.debug {
		c.rec.BackendRequest = req.Body
		c.rec.Headers.BackendRequest = req.Header
		if resp != nil {
			c.rec.BackendResponse = resp.Body
			c.rec.Headers.BackendRequest, c.rec.Headers.BackendResponse = resp.SentHeader, resp.Header
		}
	}
	if err != nil {
		var ue *upstream.Error
		if errors.As(err, &ue) {
			e := ue.APIError()
			if ue.Kind == upstream.KindTooLarge {
				e = apierr.PayloadTooLarge(apierr.RunPayloadTooLarge, c.maxMB).WithCause(err)
				e.Message = "the backend response is over the maximum payload size"
			}
			return nil, e
		}
		return nil, err
	}
	return resp, nil
}
