package upstream

import (
	"context"
	"net/http"

	"go.opentelemetry.io/otel/trace"

	"github.com/s2r-project/s2r/internal/tracing"
)

// Tracer starts the CLIENT span of one backend request (DESIGN 10.7);
// *tracing.Tracer implements it. Without one (the default) the client
// does no tracing work beyond the traceparent it always sends.
type Tracer interface {
	// StartClient starts the span of a request to address (a URL's
	// Host), a child of the span in ctx.
	StartClient(ctx context.Context, address string) (context.Context, tracing.ClientSpan)
}

// SetTracer makes every later backend request of c a CLIENT span whose
// traceparent is the one sent. Call it before the first request; a nil
// Tracer (tracing off) leaves c untraced.
func (c *Client) SetTracer(t Tracer) {
	if t != nil {
		c.tracer = t
	}
}

// startSpan starts the CLIENT span of hreq when c is traced and ctx holds
// the SERVER span of a runtime request (admin probes and connection tests
// make no orphan spans), and sends its traceparent instead of the one
// setTrace chose. The zero span does nothing.
func (c *Client) startSpan(ctx context.Context, hreq *http.Request) tracing.ClientSpan {
	if c.tracer == nil || !trace.SpanContextFromContext(ctx).IsValid() {
		return tracing.ClientSpan{}
	}
	_, span := c.tracer.StartClient(ctx, hreq.URL.Host)
	if tp := span.TraceParent(); tp != "" {
		hreq.Header.Set(TraceParentHeader, tp)
	}
	return span
}

// tracedTransport ends a request's CLIENT span when the backend's
// response header arrives (Prepare's callers stream the body themselves).
type tracedTransport struct {
	rt   http.RoundTripper
	span tracing.ClientSpan
}

// RoundTrip implements http.RoundTripper.
func (t tracedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.rt.RoundTrip(req)
	if err != nil {
		t.span.End(0, err)
		return nil, err
	}
	t.span.End(resp.StatusCode, nil)
	return resp, nil
}
