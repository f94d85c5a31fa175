package tracing

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// BenchmarkRequestSpans is the tracing cost of one runtime request: a
// SERVER span with its attributes, a CLIENT child with the traceparent to
// send, both ended. "on" samples every span into the batch processor of
// production (with an exporter that drops the batches); "off" is the nil
// Tracer of an unset environment and must allocate nothing.
func BenchmarkRequestSpans(b *testing.B) {
	on := newTracer("bench", sdktrace.WithBatcher(tracetest.NewNoopExporter()),
		sdktrace.WithSampler(sdktrace.AlwaysSample()))
	defer on.Shutdown(context.Background())
	for _, c := range []struct {
		name string
		t    *Tracer
	}{{"off", nil}, {"on", on}} {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				sctx, s := c.t.StartServer(ctx, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
					Request{Direction: "publish", CorrelationID: "c-1"})
				s.Update(Request{Environment: "prod", ServiceKey: "calculator", OperationKey: "Add"})
				_, cl := c.t.StartClient(sctx, "backend.internal:8443")
				_ = cl.TraceParent()
				cl.End(200, nil)
				s.End(200)
			}
		})
	}
}
