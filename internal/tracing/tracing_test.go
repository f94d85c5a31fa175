package tracing

import (
	"context"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// receiver is an OTLP/HTTP trace receiver: it decodes each protobuf
// ExportTraceServiceRequest and keeps its spans with their service.name.
type receiver struct {
	mu       sync.Mutex
	spans    []*tracepb.Span
	services []string
	paths    []string
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	var req coltracepb.ExportTraceServiceRequest
	if err != nil || r.Header.Get("Content-Type") != "application/x-protobuf" || proto.Unmarshal(body, &req) != nil {
		http.Error(w, "bad export", http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	rc.paths = append(rc.paths, r.URL.Path)
	for _, rs := range req.ResourceSpans {
		svc := stringAttr(rs.GetResource().GetAttributes(), "service.name")
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				rc.spans = append(rc.spans, s)
				rc.services = append(rc.services, svc)
			}
		}
	}
	rc.mu.Unlock()
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(out)
}

func stringAttr(attrs []*commonpb.KeyValue, key string) string {
	for _, a := range attrs {
		if a.Key == key {
			return a.Value.GetStringValue()
		}
	}
	return ""
}

func attrMap(attrs []*commonpb.KeyValue) map[string]any {
	m := map[string]any{}
	for _, a := range attrs {
		switch v := a.Value.Value.(type) {
		case *commonpb.AnyValue_StringValue:
			m[a.Key] = v.StringValue
		case *commonpb.AnyValue_IntValue:
			m[a.Key] = v.IntValue
		}
	}
	return m
}

func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

const (
	incomingTrace  = "4bf92f3577b34da6a3ce929d0e0e4736"
	incomingParent = "00f067aa0ba902b7"
)

func TestExportsServerAndClientSpans(t *testing.T) {
	rc := &receiver{}
	collector := httptest.NewServer(rc)
	defer collector.Close()
	var sentTraceParent string
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sentTraceParent = r.Header.Get("traceparent")
		w.WriteHeader(http.StatusAccepted)
	}))
	defer backend.Close()

	ctx := context.Background()
	tr, err := New(ctx, envOf(map[string]string{EnvEndpoint: collector.URL + "/", EnvServiceName: "s2r-test"}))
	if err != nil || !tr.Enabled() {
		t.Fatalf("New = %v, %v; want a tracer", tr, err)
	}
	sctx, server := tr.StartServer(ctx, "00-"+incomingTrace+"-"+incomingParent+"-01",
		Request{Direction: "publish", CorrelationID: "corr-1"})
	server.Update(Request{Environment: "prod", ServiceKey: "calculator", OperationKey: "Add"})
	_, client := tr.StartClient(sctx, strings.TrimPrefix(backend.URL, "http://"))
	req, _ := http.NewRequest(http.MethodPost, backend.URL, nil)
	req.Header.Set("traceparent", client.TraceParent())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	client.End(resp.StatusCode, nil)
	server.End(http.StatusOK)
	shutdownCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := tr.Shutdown(shutdownCtx); err != nil {
		t.Fatal(err)
	}

	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.spans) != 2 || rc.paths[0] != "/v1/traces" || rc.services[0] != "s2r-test" {
		t.Fatalf("got %d spans at %v for %v; want 2 at /v1/traces for s2r-test", len(rc.spans), rc.paths, rc.services)
	}
	byKind := map[tracepb.Span_SpanKind]*tracepb.Span{}
	for _, s := range rc.spans {
		byKind[s.Kind] = s
	}
	srv, cli := byKind[tracepb.Span_SPAN_KIND_SERVER], byKind[tracepb.Span_SPAN_KIND_CLIENT]
	if srv == nil || cli == nil {
		t.Fatalf("span kinds %v; want one SERVER and one CLIENT", byKind)
	}
	checks := []struct{ name, got, want string }{
		{"server trace id", hex.EncodeToString(srv.TraceId), incomingTrace},
		{"server parent is the incoming traceparent", hex.EncodeToString(srv.ParentSpanId), incomingParent},
		{"client trace id", hex.EncodeToString(cli.TraceId), incomingTrace},
		{"client parent is the server span", hex.EncodeToString(cli.ParentSpanId), hex.EncodeToString(srv.SpanId)},
		{"traceparent sent names the client span", sentTraceParent,
			"00-" + incomingTrace + "-" + hex.EncodeToString(cli.SpanId) + "-01"},
		{"server span name", srv.Name, "publish prod/calculator/Add"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.name, c.got, c.want)
		}
	}
	wantServer := map[string]any{
		AttrDirection: "publish", AttrEnvironment: "prod", AttrServiceKey: "calculator",
		AttrOperationKey: "Add", AttrCorrelationID: "corr-1", AttrStatusCode: int64(200),
	}
	if diff := cmp.Diff(wantServer, attrMap(srv.Attributes)); diff != "" {
		t.Errorf("server attributes (-want +got):\n%s", diff)
	}
	wantClient := map[string]any{AttrServerAddress: "127.0.0.1", AttrServerPort: attrMap(cli.Attributes)[AttrServerPort],
		AttrStatusCode: int64(202)}
	if diff := cmp.Diff(wantClient, attrMap(cli.Attributes)); diff != "" || wantClient[AttrServerPort] == nil {
		t.Errorf("client attributes (-want +got):\n%s", diff)
	}
}

func TestNewFromEnvironment(t *testing.T) {
	tests := []struct {
		name        string
		env         map[string]string
		wantEnabled bool
		wantErr     string
	}{
		{"nothing set is off", nil, false, ""},
		{"base endpoint", map[string]string{EnvEndpoint: "http://127.0.0.1:4318"}, true, ""},
		{"traces endpoint", map[string]string{EnvTracesEndpoint: "https://otel.example:4318/v1/traces"}, true, ""},
		{"SDK disabled", map[string]string{EnvEndpoint: "http://127.0.0.1:4318", EnvSDKDisabled: "TRUE"}, false, ""},
		{"exporter none", map[string]string{EnvEndpoint: "http://127.0.0.1:4318", EnvTracesExporter: "none"}, false, ""},
		{"not a URL", map[string]string{EnvEndpoint: "127.0.0.1:4318"}, false,
			"tracing: OTEL_EXPORTER_OTLP_ENDPOINT must be an http or https URL"},
		{"bad traces URL", map[string]string{EnvTracesEndpoint: "grpc://x", EnvEndpoint: "http://ok"}, false,
			"tracing: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http or https URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := New(context.Background(), envOf(tt.env))
			if got := errString(err); got != tt.wantErr || tr.Enabled() != tt.wantEnabled {
				t.Fatalf("New = enabled %v, %q; want %v, %q", tr.Enabled(), got, tt.wantEnabled, tt.wantErr)
			}
			if err := tr.Shutdown(context.Background()); err != nil {
				t.Error(err)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestOffDoesNothing(t *testing.T) {
	var tr *Tracer
	ctx := context.Background()
	sctx, s := tr.StartServer(ctx, "00-"+incomingTrace+"-"+incomingParent+"-01", Request{Direction: "publish"})
	s.Update(Request{ServiceKey: "k"})
	cctx, c := tr.StartClient(sctx, "backend:443")
	if sctx != ctx || cctx != ctx || c.TraceParent() != "" {
		t.Error("an off tracer changed the context or gave a traceparent")
	}
	c.End(200, nil)
	s.End(200)
	allocs := testing.AllocsPerRun(100, func() {
		sctx, s := tr.StartServer(ctx, "", Request{Direction: "publish", ServiceKey: "k"})
		_, c := tr.StartClient(sctx, "backend:443")
		c.End(200, nil)
		s.End(200)
	})
	if allocs != 0 {
		t.Errorf("off tracer allocates %v times per request, want 0", allocs)
	}
}
