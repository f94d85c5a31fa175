package upstream

import (
	"context"
	"net/http"
)

// Prepare readies hreq, a request the caller streams itself (the gateway's
// reverse proxy), for backend b: it applies b's auth and the W3C
// traceparent to hreq's headers and returns b's cached keep-alive
// transport (with its mTLS and timing settings) to send it with. Failures
// are *Error of KindAuthConfig.
func (c *Client) Prepare(ctx context.Context, b Backend, hreq *http.Request) (http.RoundTripper, error) {
	if err := checkAuth(b); err != nil {
		return nil, err
	}
	rt, err := c.transport(b)
	if err != nil {
		return nil, err
	}
	setTrace(ctx, hreq.Header)
	if err := c.applyAuth(ctx, rt, b, hreq); err != nil {
		return nil, err
	}
	if c.tracer != nil {
		return tracedTransport{rt: rt, span: c.startSpan(ctx, hreq)}, nil
	}
	return rt, nil
}
