package dataplane

import (
	"net/http"
	"net/netip"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/upstream"
)

// GatewayConfig configures the gateway passthrough (SPEC 4.3).
type GatewayConfig struct {
	// TrustedProxies returns setting gateway_trusted_proxies (read per
	// request, so it must be cheap and never do I/O); nil trusts nobody.
	TrustedProxies func() []netip.Prefix
	// Client gives each backend its tuned transport, auth and traceparent;
	// default a fresh upstream.Client.
	Client *upstream.Client
	// Selector picks backends (routing mode, health, breakers); default a
	// selector with no health checks and default breakers.
	Selector *upstream.Selector
	// WSDL serves GET …?wsdl and …/wsdl of a gateway service once both
	// guards passed (the WSDL serving of SPEC 4.7); nil answers 404.
	WSDL func(w http.ResponseWriter, r *http.Request, t Target, svc *routing.Service)
}

// serveGateway is the dedicated gateway mapping: the dispatcher hands it
// every /gateway/{environment}/… request before the general mapping, and
// before anything reads the body. In order: the ingress guard (403
// S2R-GW-0403), the route by path only (404 S2R-RUN-0404), the consumer IP
// grant guard (403 S2R-GW-0407), the method (POST passthrough, GET for the
// WSDL, else 405 S2R-RUN-0411), the client rate limit (429 S2R-RUN-0429,
// a SOAP Fault), the declared length (413 S2R-RUN-0413), the inbound
// WS-Security policy when its mode is not off (the body is then read
// whole first; a SOAP Fault with S2R-RUN-0407), then the
// streamed passthrough. SOAPAction and the payload play no part
// in routing.
func (d *Dispatcher) serveGateway(w http.ResponseWriter, r *http.Request, t Target) {
	g := &d.gw
	rec := d.newRecord(r, t, d.cfg.Now())
	trusted := []netip.Prefix(nil)
	if f := g.cfg.TrustedProxies; f != nil {
		trusted = f()
	}
	client, err := ClientAddr(r.RemoteAddr, r.Header.Values("X-Forwarded-For"), trusted)
	if err != nil {
		d.gatewayFail(w, r, rec, apierr.Wrap(apierr.GWIngressDenied, err, "gateway ingress denied: the request did not come through a trusted proxy"))
		return
	}
	rec.ClientIP = client.String()
	if t.ServiceKey == "" {
		d.recordBadURL(r)
		d.gatewayFail(w, r, rec, apierr.Newf(apierr.RunNotFound, "no service key in the path: want /gateway/%s/{serviceKey}", t.Environment))
		return
	}
	svc := d.lookup(Gateway, t.Environment, t.ServiceKey)
	if svc == nil {
		d.recordBadURL(r)
		d.gatewayFail(w, r, rec, noService(t))
		return
	}
	rec.ServiceKey, rec.ServiceID = svc.ServiceKey, svc.ID
	d.nameSpan(r.Context(), rec)
	if !Granted(client, svc.Grants) {
		d.gatewayFail(w, r, rec, apierr.Newf(apierr.GWGrantDenied, "consumer IP grant denied for %s", client))
		return
	}
	switch r.Method {
	case http.MethodPost:
	case http.MethodGet:
		if _, ok := wsdlDocument(r, t); ok && g.cfg.WSDL != nil {
			g.cfg.WSDL(w, r, t, svc)
			return
		}
		d.gatewayFail(w, r, rec, apierr.New(apierr.RunNotFound, "a gateway path answers GET only for its WSDL (?wsdl or /wsdl)"))
		return
	default:
		w.Header().Set("Allow", "POST, GET")
		d.gatewayFail(w, r, rec, apierr.Newf(apierr.RunMethodNotAllowed, "method %s not supported: a gateway path takes POST (and GET for its WSDL)", r.Method))
		return
	}
	if err := d.admitClient(r, svc, client); err != nil {
		e := apierr.Resolve(err, apierr.RunInternal)
		d.gatewayRefuse(w, r, e)
		d.finishGatewayRecord(rec, e.Status(), e.Code)
		return
	}
	limit := int64(maxPayloadMB(d.cfg.MaxPayloadMB)) << 20
	if r.ContentLength > limit {
		d.gatewayFail(w, r, rec, apierr.PayloadTooLarge(apierr.RunPayloadTooLarge, maxPayloadMB(d.cfg.MaxPayloadMB)))
		return
	}
	if !d.checkGatewayWSSecurity(w, r, rec, svc, limit) {
		return
	}
	d.proxyGateway(w, r, rec, svc, client, limit)
}

// gatewayFail answers err in the SPEC 7.1 JSON shape and records it. A
// refusal closes the connection so the server does not drain the unread
// body either.
func (d *Dispatcher) gatewayFail(w http.ResponseWriter, r *http.Request, rec *model.TxRecord, err error) {
	e := apierr.Resolve(err, apierr.RunInternal)
	w.Header().Set("Connection", "close")
	apierr.Render(w, r, e, apierr.RunInternal)
	d.finishGatewayRecord(rec, e.Status(), e.Code)
}

// finishGatewayRecord completes rec and hands it to the recorder. A 5xx
// the backend answered itself (relayed untouched, no S2R code) is a
// backend failure.
func (d *Dispatcher) finishGatewayRecord(rec *model.TxRecord, status int, code string) {
	rec.HTTPStatus, rec.ErrorCode, rec.ResultCode = status, code, model.ResultForCode(code)
	if code == "" && status >= 500 {
		rec.ResultCode = model.ResultBackendFailure
	}
	rec.TotalMs = Ms(time.Since(rec.OccurredAt))
	d.cfg.Recorder.Record(rec)
}

// poolOf is the selection pool of svc: its backends in priority order and
// its default backend.
func poolOf(svc *routing.Service) upstream.Pool {
	p := upstream.Pool{ServiceID: svc.ID, Mode: svc.RoutingMode, Backends: make([]*upstream.Backend, len(svc.Backends))}
	for i, b := range svc.Backends {
		p.Backends[i] = &b.Backend
		if b == svc.DefaultBackend {
			p.Preferred = i
		}
	}
	return p
}
