// Package tracing exports OpenTelemetry traces of runtime requests
// (DESIGN 10.7): a SERVER span per request, a CLIENT child span per backend
// call, sent by OTLP/HTTP protobuf.
//
// It is switched on only by the standard OTEL_* environment variables.
// Without an endpoint, New returns a nil *Tracer: every method of a nil
// Tracer and of the zero spans it hands out returns at once, does no
// tracing work and allocates nothing, so the data plane calls them
// unconditionally.
package tracing

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// Environment variables read by New (the OpenTelemetry SDK reads the other
// standard ones itself: OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT,
// _COMPRESSION, _CERTIFICATE, OTEL_TRACES_SAMPLER, OTEL_BSP_*,
// OTEL_RESOURCE_ATTRIBUTES).
const (
	EnvEndpoint       = "OTEL_EXPORTER_OTLP_ENDPOINT"        // base URL; /v1/traces is appended
	EnvTracesEndpoint = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" // full URL, used as it is; wins over EnvEndpoint
	EnvServiceName    = "OTEL_SERVICE_NAME"                  // default DefaultServiceName
	EnvSDKDisabled    = "OTEL_SDK_DISABLED"                  // "true": no tracing
	EnvTracesExporter = "OTEL_TRACES_EXPORTER"               // "none": no tracing
)

// DefaultServiceName is the service.name of s2r's spans when
// OTEL_SERVICE_NAME is unset.
const DefaultServiceName = "s2r"

const instrumentationName = "github.com/s2r-project/s2r/internal/tracing"

// Tracer starts s2r's spans. A nil *Tracer is tracing switched off.
type Tracer struct {
	provider *sdktrace.TracerProvider
	tracer   trace.Tracer
}

// New returns the Tracer the environment asks for (getenv: os.Getenv in
// production), or nil when no OTLP endpoint is set or the SDK is disabled.
// A malformed endpoint is an error, so a typo does not silently lose every
// trace.
func New(ctx context.Context, getenv func(string) string) (*Tracer, error) {
	endpoint, err := tracesEndpoint(getenv)
	if err != nil || endpoint == "" {
		return nil, err
	}
	exp, err := otlptracehttp.New(ctx,
		otlptracehttp.WithEndpointURL(endpoint),
		otlptracehttp.WithEncoding(otlptracehttp.EncodingProtobuf))
	if err != nil {
		return nil, fmt.Errorf("tracing: OTLP exporter: %w", err)
	}
	return newTracer(serviceName(getenv), sdktrace.WithBatcher(exp)), nil
}

// NewWithExporter returns a Tracer that samples every span and hands each
// to exp as it ends, synchronously: for tests that read the spans back
// (tracetest.InMemoryExporter), never for production.
func NewWithExporter(service string, exp sdktrace.SpanExporter) *Tracer {
	return newTracer(service, sdktrace.WithSyncer(exp), sdktrace.WithSampler(sdktrace.AlwaysSample()))
}

// newTracer builds a Tracer whose spans go through the given processor
// option (tests and benchmarks pass their own exporters).
func newTracer(service string, opts ...sdktrace.TracerProviderOption) *Tracer {
	res, err := resource.Merge(resource.Default(),
		resource.NewSchemaless(attribute.String("service.name", service)))
	if err != nil { // schema URLs in conflict: keep our attributes alone
		res = resource.NewSchemaless(attribute.String("service.name", service))
	}
	tp := sdktrace.NewTracerProvider(append(opts, sdktrace.WithResource(res))...)
	return &Tracer{provider: tp, tracer: tp.Tracer(instrumentationName)}
}

// tracesEndpoint returns the URL spans go to, "" when tracing is off.
func tracesEndpoint(getenv func(string) string) (string, error) {
	if strings.EqualFold(strings.TrimSpace(getenv(EnvSDKDisabled)), "true") ||
		strings.EqualFold(strings.TrimSpace(getenv(EnvTracesExporter)), "none") {
		return "", nil
	}
	name, endpoint := EnvTracesEndpoint, strings.TrimSpace(getenv(EnvTracesEndpoint))
	if endpoint == "" {
		name, endpoint = EnvEndpoint, strings.TrimSpace(getenv(EnvEndpoint))
		if endpoint == "" {
			return "", nil
		}
		endpoint = strings.TrimSuffix(endpoint, "/") + "/v1/traces"
	}
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("tracing: %s must be an http or https URL", name)
	}
	return endpoint, nil
}

func serviceName(getenv func(string) string) string {
	if s := strings.TrimSpace(getenv(EnvServiceName)); s != "" {
		return s
	}
	return DefaultServiceName
}

// Enabled reports whether spans are recorded and exported.
func (t *Tracer) Enabled() bool { return t != nil }

// Shutdown exports the spans still buffered and stops the exporter; ctx
// bounds how long it may take. Spans started afterwards are dropped.
func (t *Tracer) Shutdown(ctx context.Context) error {
	if t == nil {
		return nil
	}
	if err := t.provider.Shutdown(ctx); err != nil {
		return fmt.Errorf("tracing: shutdown: %w", err)
	}
	return nil
}
