package main

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/s2r-project/s2r/internal/tests/poll"
)

// otlpReceiver is an OTLP/HTTP trace receiver on 127.0.0.1: it decodes
// each protobuf export and keeps its spans.
type otlpReceiver struct {
	mu    sync.Mutex
	spans []*tracepb.Span
}

func (rc *otlpReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	var req coltracepb.ExportTraceServiceRequest
	if err != nil || r.URL.Path != "/v1/traces" || proto.Unmarshal(body, &req) != nil {
		http.Error(w, "bad export", http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			rc.spans = append(rc.spans, ss.Spans...)
		}
	}
	rc.mu.Unlock()
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(out)
}

func (rc *otlpReceiver) byKind(k tracepb.Span_SpanKind) []*tracepb.Span {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var out []*tracepb.Span
	for _, s := range rc.spans {
		if s.Kind == k {
			out = append(out, s)
		}
	}
	return out
}

func spanAttrs(attrs []*commonpb.KeyValue) map[string]any {
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

// calcBackend is a SOAP calculator on 127.0.0.1 that keeps the
// traceparent of the last call and answers body to it.
type calcBackend struct {
	*httptest.Server
	mu          sync.Mutex
	traceparent string
	answer      string
}

func newCalcBackend(t *testing.T) *calcBackend {
	b := &calcBackend{answer: `<AddResponse xmlns="http://example.com/calc"><result>3</result></AddResponse>`}
	b.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.mu.Lock()
		b.traceparent = r.Header.Get("traceparent")
		answer := b.answer
		b.mu.Unlock()
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		io.WriteString(w, `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>`+
			answer+`</soap:Body></soap:Envelope>`)
	}))
	t.Cleanup(b.Close)
	return b
}

func (b *calcBackend) lastTraceParent() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.traceparent
}

// onboardCalc imports testdata calc.wsdl as publish service calc in dev
// with its backend at url; edit runs on the draft's operations (by key)
// before the version is activated.
func onboardCalc(t *testing.T, admin, url string, edit func(opIDs map[string]string)) {
	t.Helper()
	wsdlText, err := os.ReadFile("../../internal/dataplane/testdata/calc.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	var auto struct {
		Service        struct{ ServiceID string } `json:"service"`
		Version        struct{ VersionID string } `json:"version"`
		BackendProfile struct{ ProfileID string } `json:"backendProfile"`
	}
	body, _ := json.Marshal(map[string]any{"xml": string(wsdlText), "environment": "dev", "serviceKey": "calc"})
	adminCall(t, "POST", admin+"/wsdl/import-xml:autopilot", string(body), http.StatusCreated, &auto)
	adminCall(t, "PATCH", admin+"/backend-profiles/"+auto.BackendProfile.ProfileID, `{"endpointUrl":"`+url+`/calc"}`, http.StatusOK, nil)
	vpath := admin + "/services/" + auto.Service.ServiceID + "/versions/" + auto.Version.VersionID
	if edit != nil {
		var ops struct {
			Items []struct{ OperationID, OperationKey string } `json:"items"`
		}
		adminCall(t, "GET", vpath+"/operations", "", http.StatusOK, &ops)
		ids := map[string]string{}
		for _, o := range ops.Items {
			ids[o.OperationKey] = o.OperationID
		}
		edit(ids)
	}
	adminCall(t, "POST", vpath+":activate", "", http.StatusOK, nil)
}

// TestTracingEndToEnd runs s2r serve exporting to an OTLP/HTTP receiver
// on 127.0.0.1 and publishes a call carrying a traceparent: the SERVER
// span is its child and names the route, the CLIENT span is the SERVER
// span's child, and the backend received the CLIENT span's traceparent.
func TestTracingEndToEnd(t *testing.T) {
	rc := &otlpReceiver{}
	collector := httptest.NewServer(rc)
	defer collector.Close()
	backend := newCalcBackend(t)
	logs, stop := startServe(t, map[string]string{
		"S2R_LISTEN_ADDR":             "127.0.0.1:0",
		"S2R_DATA_DIR":                t.TempDir(),
		"S2R_BOOTSTRAP_ADMINS":        "ops@example.com",
		"OTEL_EXPORTER_OTLP_ENDPOINT": collector.URL,
		"OTEL_SERVICE_NAME":           "s2r-e2e",
	})
	defer stop()
	base := logs.addr(t, "main")
	onboardCalc(t, base+"/admin/v1", backend.URL, nil)

	const incomingTrace, incomingSpan = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	var status int
	poll.Until(t, 2*time.Second, "publish served", func() bool {
		req, _ := http.NewRequest("POST", base+"/publish/dev/calc/add", strings.NewReader(`{"a":1,"b":2}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("traceparent", "00-"+incomingTrace+"-"+incomingSpan+"-01")
		req.Header.Set("X-Correlation-Id", "trace-e2e")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		status = resp.StatusCode
		return status == 200
	})
	if err := stop(); err != nil { // flushes the buffered spans
		t.Fatalf("serve: %v", err)
	}

	var server *tracepb.Span
	for _, s := range rc.byKind(tracepb.Span_SPAN_KIND_SERVER) {
		if spanAttrs(s.Attributes)["s2r.correlation_id"] == "trace-e2e" {
			server = s
		}
	}
	if server == nil {
		t.Fatalf("no SERVER span of the call among %d spans", len(rc.spans))
	}
	if hex.EncodeToString(server.TraceId) != incomingTrace || hex.EncodeToString(server.ParentSpanId) != incomingSpan {
		t.Errorf("SERVER span trace %x parent %x, want the incoming %s/%s", server.TraceId, server.ParentSpanId, incomingTrace, incomingSpan)
	}
	want := map[string]any{"s2r.direction": "publish", "s2r.environment": "dev", "s2r.service_key": "calc",
		"s2r.operation_key": "add", "s2r.correlation_id": "trace-e2e", "http.response.status_code": int64(200)}
	got := spanAttrs(server.Attributes)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("SERVER attribute %s = %v, want %v", k, got[k], v)
		}
	}
	var client *tracepb.Span
	for _, s := range rc.byKind(tracepb.Span_SPAN_KIND_CLIENT) {
		if string(s.ParentSpanId) == string(server.SpanId) {
			client = s
		}
	}
	if client == nil {
		t.Fatal("no CLIENT span child of the SERVER span")
	}
	ca := spanAttrs(client.Attributes)
	if ca["server.address"] != "127.0.0.1" || ca["http.response.status_code"] != int64(200) {
		t.Errorf("CLIENT attributes = %v", ca)
	}
	wantTP := "00-" + incomingTrace + "-" + hex.EncodeToString(client.SpanId) + "-01"
	if tp := backend.lastTraceParent(); tp != wantTP {
		t.Errorf("backend got traceparent %q, want the CLIENT span's %q", tp, wantTP)
	}
}

// TestResponseValidationEndToEnd: an operation in detect mode answers a
// response with an undeclared element, the violation is in the runtime
// log and counted on /metrics.
func TestResponseValidationEndToEnd(t *testing.T) {
	backend := newCalcBackend(t)
	backend.answer = `<AddResponse xmlns="http://example.com/calc"><result>3</result><bonus>1</bonus></AddResponse>`
	base, admin, stop := serveFresh(t)
	defer stop()
	onboardCalc(t, admin, backend.URL, func(ids map[string]string) {
		adminCall(t, "PATCH", admin+"/operations/"+ids["add"], `{"responseValidation":"detect"}`, http.StatusOK, nil)
		adminCall(t, "PATCH", admin+"/operations/"+ids["lookup"], `{"responseValidation":"bogus"}`, http.StatusBadRequest, nil)
	})
	var body string
	poll.Until(t, 2*time.Second, "publish served", func() bool {
		var status int
		status, body = postJSON(t, base+"/publish/dev/calc/add", `{"a":1,"b":2}`)
		return status == 200
	})
	if body != `{"result":3}` {
		t.Errorf("answer = %s", body)
	}
	var page struct {
		Items []struct {
			ValidationIssues []struct{ Pointer, Reason string } `json:"validationIssues"`
		} `json:"items"`
	}
	poll.Until(t, 5*time.Second, "recorded", func() bool {
		adminCall(t, "GET", admin+"/runtime-logs?serviceKey=calc", "", http.StatusOK, &page)
		return len(page.Items) > 0
	})
	if is := page.Items[0].ValidationIssues; len(is) != 1 || is[0].Pointer != "/Envelope/Body/AddResponse/bonus" {
		t.Errorf("validationIssues = %+v", is)
	}
	_, metrics := get(t, base+"/metrics", nil)
	if !strings.Contains(metrics, `s2r_contract_violations_total{environment="dev",operation="add",service="calc"} 1`) {
		t.Errorf("/metrics lacks the violation:\n%s", grepLines(metrics, "s2r_contract"))
	}
}

// grepLines returns the lines of s containing sub.
func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestTracingBadEndpoint: a malformed OTLP endpoint stops serve at start
// as a usage error; no endpoint is no tracer.
func TestTracingBadEndpoint(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	_, _, err := startTracing(t.Context(), envOf(map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "ftp://collector"}), log)
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "OTEL_EXPORTER_OTLP_ENDPOINT") {
		t.Errorf("bad endpoint: %v, want a usage error naming the variable", err)
	}
	tr, stop, err := startTracing(t.Context(), envOf(nil), log)
	if tr != nil || err != nil {
		t.Errorf("unset: %v, %v", tr, err)
	}
	stop()
}
