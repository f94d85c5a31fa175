package tracing

import (
	"context"
	"net"
	"net/http"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// ClientSpan is the span of one backend call. Its zero value (tracing
// off) does nothing.
type ClientSpan struct {
	span trace.Span
}

// StartClient starts the CLIENT span of a backend call to address ("host"
// or "host:port", as in a URL's Host), as a child of the SERVER span in
// ctx.
func (t *Tracer) StartClient(ctx context.Context, address string) (context.Context, ClientSpan) {
	if t == nil {
		return ctx, ClientSpan{}
	}
	host, port := splitAddress(address)
	attrs := []attribute.KeyValue{attribute.String(AttrServerAddress, host)}
	if port > 0 {
		attrs = append(attrs, attribute.Int(AttrServerPort, port))
	}
	ctx, span := t.tracer.Start(ctx, "backend "+host,
		trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	return ctx, ClientSpan{span}
}

// TraceParent returns the traceparent header to send to the backend: it
// names this CLIENT span. It is "" when tracing is off, and the caller
// keeps its own propagation.
func (s ClientSpan) TraceParent() string {
	if s.span == nil {
		return ""
	}
	sc := s.span.SpanContext()
	if !sc.IsValid() {
		return ""
	}
	flags := "00"
	if sc.IsSampled() {
		flags = "01"
	}
	return "00-" + sc.TraceID().String() + "-" + sc.SpanID().String() + "-" + flags
}

// End records the backend's status (0: no answer, e.g. a timeout) and
// ends the span; a failed call or a 4xx/5xx status marks it as an error.
func (s ClientSpan) End(status int, err error) {
	if s.span == nil {
		return
	}
	if status > 0 {
		s.span.SetAttributes(attribute.Int(AttrStatusCode, status))
	}
	switch {
	case err != nil:
		s.span.SetStatus(codes.Error, "backend call failed")
	case status >= http.StatusBadRequest:
		s.span.SetStatus(codes.Error, http.StatusText(status))
	}
	s.span.End()
}

// splitAddress returns the host and port (0 when absent) of address.
func splitAddress(address string) (string, int) {
	host, p, err := net.SplitHostPort(address)
	if err != nil {
		return address, 0
	}
	port, _ := strconv.Atoi(p)
	return host, port
}
