package dataplane_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/tracing"
	"github.com/s2r-project/s2r/internal/upstream"
)

// TestGatewayTracing: with a Tracer, a gateway request is a SERVER span
// parented to the incoming traceparent, the backend call a CLIENT child,
// and the backend receives the CLIENT span's traceparent.
func TestGatewayTracing(t *testing.T) {
	var mu sync.Mutex
	var seen string
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		seen = r.Header.Get("traceparent")
		mu.Unlock()
		w.Header().Set("Content-Type", "text/xml")
		io.WriteString(w, "<ok/>")
	}))
	defer backend.Close()
	exp := tracetest.NewInMemoryExporter()
	tr := tracing.NewWithExporter("test", exp)
	client := upstream.NewClient()
	defer client.Close()
	client.SetTracer(tr)
	d := dataplane.New(dataplane.Config{
		Routes:       gwRoutes{routing.NewTable(1, []*routing.Service{gwService(upstream.RoutingSingle, backend.URL+"/calc")}, nil)},
		MaxPayloadMB: func() int { return 1 },
		Recorder:     &gwRecords{},
		Gateway:      dataplane.GatewayConfig{Client: client},
		Tracer:       tr,
	})
	front := httptest.NewServer(d)
	defer front.Close()

	req, _ := http.NewRequest("POST", front.URL+"/gateway/dev/calc", strings.NewReader("<x/>"))
	req.Header.Set("Content-Type", "text/xml")
	req.Header.Set("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}

	var server, client2 *tracetest.SpanStub
	spans := exp.GetSpans()
	for i := range spans {
		switch spans[i].SpanKind {
		case trace.SpanKindServer:
			server = &spans[i]
		case trace.SpanKindClient:
			client2 = &spans[i]
		}
	}
	if server == nil || client2 == nil {
		t.Fatalf("spans = %+v", spans)
	}
	if server.Parent.SpanID().String() != "00f067aa0ba902b7" || server.SpanContext.TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Errorf("SERVER parent = %v", server.Parent)
	}
	if client2.Parent.SpanID() != server.SpanContext.SpanID() {
		t.Errorf("CLIENT parent %v, want the SERVER span %v", client2.Parent.SpanID(), server.SpanContext.SpanID())
	}
	attrs := map[attribute.Key]attribute.Value{}
	for _, a := range server.Attributes {
		attrs[a.Key] = a.Value
	}
	if attrs["s2r.direction"].AsString() != "gateway" || attrs["s2r.service_key"].AsString() != "calc" ||
		attrs["http.response.status_code"].AsInt64() != 200 {
		t.Errorf("SERVER attributes = %v", server.Attributes)
	}
	want := "00-4bf92f3577b34da6a3ce929d0e0e4736-" + client2.SpanContext.SpanID().String() + "-01"
	mu.Lock()
	defer mu.Unlock()
	if seen != want {
		t.Errorf("backend traceparent %q, want %q", seen, want)
	}
}

// TestClientSpanNeedsServerSpan: a traced client makes no CLIENT span for
// a call outside a runtime request (admin connection tests, probes) and
// still sends a traceparent.
func TestClientSpanNeedsServerSpan(t *testing.T) {
	var seen string
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r.Header.Get("traceparent")
	}))
	defer backend.Close()
	exp := tracetest.NewInMemoryExporter()
	client := upstream.NewClient()
	defer client.Close()
	client.SetTracer(tracing.NewWithExporter("test", exp))
	p := upstream.Backend{}
	p.Profile.EndpointURL = backend.URL
	p.Profile.AuthType = "none"
	if _, err := client.Do(t.Context(), p, upstream.Request{}); err != nil {
		t.Fatal(err)
	}
	if len(exp.GetSpans()) != 0 || seen == "" {
		t.Errorf("a call outside a runtime request made spans %v (traceparent %q)", exp.GetSpans(), seen)
	}
}
