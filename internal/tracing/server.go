package tracing

import (
	"context"
	"net/http"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Span attribute keys (DESIGN 10.7 and the OpenTelemetry HTTP conventions).
const (
	AttrDirection     = "s2r.direction"
	AttrEnvironment   = "s2r.environment"
	AttrServiceKey    = "s2r.service_key"
	AttrOperationKey  = "s2r.operation_key"
	AttrCorrelationID = "s2r.correlation_id"
	AttrStatusCode    = "http.response.status_code"
	AttrServerAddress = "server.address"
	AttrServerPort    = "server.port"
)

// Request names a runtime request on its SERVER span. Empty fields are
// left out; Update adds them once routing knows them.
type Request struct {
	Direction     string // publish, consume or gateway
	Environment   string
	ServiceKey    string
	OperationKey  string
	CorrelationID string
}

// ServerSpan is the span of one runtime request. Its zero value (tracing
// off) does nothing. It belongs to the request's goroutine: Update and End
// are not for concurrent use.
type ServerSpan struct {
	span trace.Span
	req  *Request // what is known so far, for the span's name
}

// StartServer starts the SERVER span of a runtime request whose incoming
// traceparent header is traceparent ("" or invalid: a new trace). The
// returned context carries the span, so StartClient makes children of it.
func (t *Tracer) StartServer(ctx context.Context, traceparent string, r Request) (context.Context, ServerSpan) {
	if t == nil {
		return ctx, ServerSpan{}
	}
	if traceparent != "" {
		ctx = propagation.TraceContext{}.Extract(ctx, traceparentCarrier(traceparent))
	}
	ctx, span := t.tracer.Start(ctx, spanName(r), trace.WithSpanKind(trace.SpanKindServer))
	s := ServerSpan{span: span, req: &Request{}}
	s.Update(r)
	return ctx, s
}

// Update sets the attributes of r's non-empty fields and renames the span
// after all that is known of the request.
func (s ServerSpan) Update(r Request) {
	if s.span == nil {
		return
	}
	attrs := make([]attribute.KeyValue, 0, 5)
	for _, a := range [...]struct {
		key   string
		value string
		known *string
	}{
		{AttrDirection, r.Direction, &s.req.Direction},
		{AttrEnvironment, r.Environment, &s.req.Environment},
		{AttrServiceKey, r.ServiceKey, &s.req.ServiceKey},
		{AttrOperationKey, r.OperationKey, &s.req.OperationKey},
		{AttrCorrelationID, r.CorrelationID, &s.req.CorrelationID},
	} {
		if a.value != "" {
			attrs = append(attrs, attribute.String(a.key, a.value))
			*a.known = a.value
		}
	}
	s.span.SetAttributes(attrs...)
	s.span.SetName(spanName(*s.req))
}

// End records the status answered to the client and ends the span; a 5xx
// status marks the span as an error.
func (s ServerSpan) End(status int) {
	if s.span == nil {
		return
	}
	s.span.SetAttributes(attribute.Int(AttrStatusCode, status))
	if status >= http.StatusInternalServerError {
		s.span.SetStatus(codes.Error, http.StatusText(status))
	}
	s.span.End()
}

// spanName is "<direction> <environment>/<serviceKey>/<operationKey>" as
// far as it is known: low cardinality, no correlation id.
func spanName(r Request) string {
	name := r.Direction
	if name == "" {
		name = "s2r"
	}
	var path []string
	for _, p := range []string{r.Environment, r.ServiceKey, r.OperationKey} {
		if p != "" {
			path = append(path, p)
		}
	}
	if len(path) == 0 {
		return name
	}
	return name + " " + strings.Join(path, "/")
}

// traceparentCarrier is a TextMapCarrier holding one traceparent value.
type traceparentCarrier string

var _ propagation.TextMapCarrier = traceparentCarrier("")

// Get returns the traceparent for its key, "" for any other.
func (c traceparentCarrier) Get(key string) string {
	if key == "traceparent" {
		return string(c)
	}
	return ""
}

// Set does nothing: the carrier is only read.
func (traceparentCarrier) Set(string, string) {}

// Keys returns the one key the carrier holds.
func (traceparentCarrier) Keys() []string { return []string{"traceparent"} }
