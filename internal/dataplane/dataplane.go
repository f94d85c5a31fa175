// Package dataplane is the runtime surface: every request that is not for
// /health, /metrics, /admin/v1 or /ingest/v1 arrives here as
// /{direction}/{environment}/{serviceKey}/...
//
// The dispatcher (this file) validates the direction segment (400
// S2R-RUN-0405, recorded for the bad-URL summary), applies the license
// gate (503 S2R-RUN-0503 on RUNTIME_STOP) and the payload limit (413
// S2R-RUN-0413), looks the service up in the current route table (404
// S2R-RUN-0404) and hands the request to its direction: publish.go,
// consume.go, gateway.go, with async callbacks in callback.go.
//
// The data plane never touches the database: it declares the small
// interfaces it consumes (RouteSource, Backends, Recorder, BadURLRecorder,
// LicenseStater, AsyncExecutions) and gets their implementations at
// wiring time.
package dataplane

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/correlation"
	"github.com/s2r-project/s2r/internal/httpx"
	"github.com/s2r-project/s2r/internal/license"
	"github.com/s2r-project/s2r/internal/limit"
)

// Direction is the first path segment of a runtime URL.
type Direction string

// Directions (SPEC 1).
const (
	Publish Direction = "publish"
	Consume Direction = "consume"
	Gateway Direction = "gateway"
)

// ParseDirection returns the Direction named by s.
func ParseDirection(s string) (Direction, bool) {
	switch d := Direction(s); d {
	case Publish, Consume, Gateway:
		return d, true
	}
	return "", false
}

// BadURLRecorder receives requests rejected with S2R-RUN-0405. It must not
// block: implementations queue and write off the request path.
type BadURLRecorder interface {
	// RecordBadURL notes one attempt; it never blocks.
	RecordBadURL(method, path string, at time.Time)
}

// LicenseStater reports the license state (license.Checker implements it).
type LicenseStater interface {
	// State returns the current license state.
	State() license.State
}

// Config configures the dispatcher. Nil fields get harmless defaults.
type Config struct {
	// Routes gives the current route table; nil serves no routes.
	Routes       RouteSource
	BadURLs      BadURLRecorder
	License      LicenseStater
	MaxPayloadMB httpx.MaxPayloadFunc // read per request; default 10
	Now          func() time.Time
	// Recorder receives one TxRecord per routed request; default discards.
	Recorder Recorder
	// Backends calls the backends of a service; default SelectedBackends
	// with the gateway's client and selector.
	Backends Backends
	// Logger receives operator logs (full SOAP faults); default slog.Default.
	Logger *slog.Logger
	// Gateway configures the gateway passthrough (gateway.go).
	Gateway GatewayConfig
	// PublicBaseURL (S2R_PUBLIC_BASE_URL) is the base of the URLs served
	// WSDLs advertise and of async callback addresses; "" derives it from
	// the request (wsdl.go).
	PublicBaseURL string
	// Async keeps async callback executions; nil answers async_callback
	// operations, polls and callbacks with 500 S2R-RUN-0500.
	Async AsyncExecutions
	// Clients holds the rate-limit buckets of every service's clients
	// (protection.go); nil: a table of limit.DefaultMaxClients.
	Clients *limit.Clients
	// Tracer makes each runtime request a SERVER span (tracing.go); nil
	// (tracing off) does no tracing work.
	Tracer Tracer
}

// Dispatcher is the runtime http.Handler.
type Dispatcher struct {
	cfg     Config
	clients *limit.Clients
	limit   func(http.Handler) http.Handler
	route   http.Handler
	gw      gateway
}

// maxRecordedPath bounds the path stored for a bad-URL attempt.
const maxRecordedPath = 512

// New returns the runtime dispatcher.
func New(cfg Config) *Dispatcher {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Recorder == nil {
		cfg.Recorder = NopRecorder{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	d := &Dispatcher{cfg: cfg, clients: cfg.Clients}
	if d.clients == nil {
		d.clients = limit.NewClients(0, nil)
	}
	if d.cfg.Gateway.WSDL == nil {
		d.cfg.Gateway.WSDL = d.GatewayWSDL
	}
	d.initGateway()
	if d.cfg.Backends == nil {
		d.cfg.Backends = SelectedBackends{Client: d.gw.cfg.Client, Selector: d.gw.cfg.Selector}
	}
	d.route = httpx.LimitBody(apierr.RunPayloadTooLarge, cfg.MaxPayloadMB)(http.HandlerFunc(d.serveRoute))
	return d
}

// ServeHTTP implements http.Handler.
func (d *Dispatcher) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	target, ok := parseTarget(r.URL.Path)
	if !ok {
		if strings.HasPrefix(r.URL.Path, CallbackPrefix) {
			d.serveCallback(w, r)
			return
		}
		d.recordBadURL(r)
		apierr.Render(w, r, apierr.Newf(apierr.RunBadDirection,
			"missing or invalid direction segment: the path must start with /publish/, /consume/ or /gateway/ followed by an environment"),
			apierr.RunInternal)
		return
	}
	if d.cfg.Tracer != nil {
		d.serveTraced(w, r, target)
		return
	}
	d.serveTarget(w, r, target)
}

// serveTarget serves a request whose path names a direction.
func (d *Dispatcher) serveTarget(w http.ResponseWriter, r *http.Request, target Target) {
	if d.cfg.License != nil && d.cfg.License.State() == license.RuntimeStop {
		d.fail(w, r, target, apierr.New(apierr.RunUnavailable, "the runtime is stopped: the license has expired"))
		return
	}
	if target.Direction == Gateway {
		// The dedicated gateway mapping takes precedence over the general one (SPEC 4.3 rule 1).
		d.serveGateway(w, r, target)
		return
	}
	if mb := d.cfg.MaxPayloadMB; r.ContentLength > int64(maxPayloadMB(mb))<<20 {
		// Refused here rather than in LimitBody so the attempt is recorded.
		w.Header().Set("Connection", "close")
		d.fail(w, r, target, apierr.PayloadTooLarge(apierr.RunPayloadTooLarge, maxPayloadMB(mb)))
		return
	}
	d.route.ServeHTTP(w, r.WithContext(withTarget(r.Context(), target)))
}

func (d *Dispatcher) serveRoute(w http.ResponseWriter, r *http.Request) {
	t := targetFrom(r.Context())
	if t.Direction == Gateway {
		// Only reachable if the gateway mapping lost its precedence (SPEC 4.3 rule 1).
		d.fail(w, r, t, apierr.New(apierr.RunInternal, "a gateway request reached the general mapping"))
		return
	}
	if t.ServiceKey == "" {
		d.recordBadURL(r)
		d.fail(w, r, t, apierr.Newf(apierr.RunNotFound, "no service key in the path: want /%s/%s/{serviceKey}/...", t.Direction, t.Environment))
		return
	}
	svc := d.lookup(t.Direction, t.Environment, t.ServiceKey)
	if svc == nil {
		d.recordBadURL(r)
		d.fail(w, r, t, noService(t))
		return
	}
	if t.Direction == Consume {
		d.serveConsume(w, r, t, svc)
		return
	}
	if r.Method == http.MethodGet {
		if opKey, id, ok := pollTarget(svc, t); ok {
			d.servePoll(w, r, t, svc, opKey, id)
			return
		}
	}
	d.servePublish(w, r, t, svc)
}

// fail renders err in the shape of the target's direction: a SOAP Fault on
// consume paths (SPEC 7.1), JSON otherwise.
func (d *Dispatcher) fail(w http.ResponseWriter, r *http.Request, t Target, err error) {
	e := apierr.Resolve(err, apierr.RunInternal)
	if t.Direction != Consume {
		d.recordFailure(r, t, e, e.Status())
		apierr.Render(w, r, e, apierr.RunInternal)
		return
	}
	apierr.Log(r.Context(), e)
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		// A WSDL fetch, not a SOAP call: the SOAP rules for the status
		// of a Fault do not apply, the code's status does.
		d.recordFailure(r, t, e, e.Status())
		writeFetchFault(w, r, e)
		return
	}
	v := soapVersionOf(r)
	d.recordFailure(r, t, e, apierr.FaultStatus(v, e))
	apierr.WriteFault(w, v, e, correlation.ID(r.Context()))
}

// soapVersionOf picks the Fault version from the request's Content-Type:
// application/soap+xml is SOAP 1.2, anything else SOAP 1.1.
func soapVersionOf(r *http.Request) apierr.SOAPVersion {
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Type"))), "application/soap+xml") {
		return apierr.SOAP12
	}
	return apierr.SOAP11
}

// recordBadURL notes an attempt at an unmapped URL for the bad-URL summary
// (the console's Unmapped URLs): a path without a direction segment, or
// one that names no active service.
func (d *Dispatcher) recordBadURL(r *http.Request) {
	if d.cfg.BadURLs == nil {
		return
	}
	p := r.URL.Path
	if len(p) > maxRecordedPath {
		p = p[:maxRecordedPath]
	}
	d.cfg.BadURLs.RecordBadURL(r.Method, p, d.cfg.Now())
}
