package dataplane

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/s2r-project/s2r/internal/tracing"
)

// TestConsumeServerSpan: a consume call's SERVER span is named after its
// route (operation key from the route table) and carries the status.
func TestConsumeServerSpan(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	e := newConsumeEnv(t, Config{Tracer: tracing.NewWithExporter("test", exp)}, nil)
	e.rest.set(jsonAnswer(200, order1))
	if res := e.post(t, "text/xml", "", soap11(getOrder), "span-consume"); res.status != 200 {
		t.Fatalf("status %d: %s", res.status, res.body)
	}
	spans := exp.GetSpans()
	if len(spans) != 1 {
		t.Fatalf("spans = %d", len(spans))
	}
	got := map[string]string{}
	for _, a := range spans[0].Attributes {
		got[string(a.Key)] = a.Value.Emit()
	}
	want := map[string]string{"s2r.direction": "consume", "s2r.environment": "dev", "s2r.service_key": "orders",
		"s2r.operation_key": "get-order", "s2r.correlation_id": "span-consume", "http.response.status_code": "200"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SERVER attributes (-want +got):\n%s", diff)
	}
	if spans[0].Name != "consume dev/orders/get-order" {
		t.Errorf("span name %q", spans[0].Name)
	}
}
