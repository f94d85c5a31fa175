package dataplane

import (
	"context"
	"net/http"

	"github.com/s2r-project/s2r/internal/correlation"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/tracing"
	"github.com/s2r-project/s2r/internal/upstream"
)

// Tracer starts the SERVER span of a runtime request (DESIGN 10.7);
// *tracing.Tracer implements it. Config.Tracer is nil when tracing is off,
// and then the request path only checks that.
type Tracer interface {
	// StartServer starts the span of a request whose incoming traceparent
	// header is traceparent ("": a new trace); the returned context
	// carries it, so backend calls become its CLIENT children.
	StartServer(ctx context.Context, traceparent string, r tracing.Request) (context.Context, tracing.ServerSpan)
}

// spanKey carries the request's *tracing.ServerSpan in its context.
type spanKey struct{}

// serveTraced serves a runtime request inside its SERVER span: the span
// starts with what the path says, is named after the route once the
// handler knows it (nameSpan), and ends with the status answered.
func (d *Dispatcher) serveTraced(w http.ResponseWriter, r *http.Request, t Target) {
	ctx, span := d.cfg.Tracer.StartServer(r.Context(), r.Header.Get(upstream.TraceParentHeader), tracing.Request{
		Direction: string(t.Direction), Environment: t.Environment, CorrelationID: correlation.ID(r.Context())})
	sw := &statusWriter{ResponseWriter: w}
	defer func() {
		status := sw.status
		if status == 0 {
			status = http.StatusOK // nothing written: net/http answers 200
		}
		span.End(status)
	}()
	d.serveTarget(sw, r.WithContext(context.WithValue(ctx, spanKey{}, &span)), t)
}

// nameSpan names the request's SERVER span after its record's route
// (service and operation keys from the route table). It does nothing when
// tracing is off.
func (d *Dispatcher) nameSpan(ctx context.Context, rec *model.TxRecord) {
	if d.cfg.Tracer == nil {
		return
	}
	if span, ok := ctx.Value(spanKey{}).(*tracing.ServerSpan); ok {
		span.Update(tracing.Request{ServiceKey: rec.ServiceKey, OperationKey: rec.OperationKey})
	}
}
