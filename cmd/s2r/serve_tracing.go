package main

import (
	"context"
	"log/slog"
	"time"

	"go.opentelemetry.io/otel"

	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/tracing"
	"github.com/s2r-project/s2r/internal/upstream"
)

// tracingShutdownTimeout bounds the export of the spans still buffered
// when s2r stops.
const tracingShutdownTimeout = 5 * time.Second

// startTracing returns the OpenTelemetry tracer the OTEL_* variables ask
// for (DESIGN 10.7), nil when they ask for none, and the function that
// flushes and stops it. The SDK's own errors (an unreachable collector)
// go to the log at warn level. A malformed endpoint is a usage error.
func startTracing(ctx context.Context, getenv func(string) string, log *slog.Logger) (*tracing.Tracer, func(), error) {
	t, err := tracing.New(ctx, getenv)
	if err != nil {
		return nil, nil, usageError{err}
	}
	if t == nil {
		return nil, func() {}, nil
	}
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) {
		log.Warn("tracing: span export failed", "error", err.Error())
	}))
	log.Info("tracing on: exporting spans by OTLP/HTTP")
	stop := func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), tracingShutdownTimeout)
		defer cancel()
		if err := t.Shutdown(sctx); err != nil {
			log.Warn("tracing: shutdown", "error", err.Error())
		}
	}
	return t, stop, nil
}

// traceRuntime gives t (nil: tracing off) to the data plane and the
// backend client; they then do no tracing work at all.
func traceRuntime(t *tracing.Tracer, cfg *dataplane.Config, client *upstream.Client) {
	if t == nil {
		return // a nil *Tracer in an interface would not be a nil interface
	}
	cfg.Tracer = t
	client.SetTracer(t)
}
