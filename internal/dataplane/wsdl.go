package dataplane

import (
	"net/http"
	"net/netip"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"weak"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/correlation"
	"github.com/s2r-project/s2r/internal/routing"
)

// WSDL serving (SPEC 4.7). GET /{consume|gateway}/{env}/{svc}?wsdl and
// …/{svc}/wsdl answer the stored root WSDL; …/{svc}/wsdl/{path} (or
// ?xsd={path}) answer the other files of the import. Every soap:address
// and soap12:address location is rewritten to the public URL of the
// service, and every wsdl:import location and xs:import/include/redefine
// schemaLocation that names a file of the import to the URL that serves
// it, so clients load multi-file contracts from s2r alone. Attribute
// values are spliced into the stored bytes: the rest of each document is
// byte-identical.
//
// The public URL is Config.PublicBaseURL (S2R_PUBLIC_BASE_URL) when set.
// Otherwise it is derived from the request: the scheme of the connection
// (https under TLS) and the Host header; X-Forwarded-Proto and
// X-Forwarded-Host are honoured only when the peer is one of the gateway's
// trusted proxies (setting gateway_trusted_proxies), so a client cannot
// make s2r advertise another host through a header a proxy would have
// overwritten. Rendered documents are cached per service and base URL
// (at most maxWSDLBases bases per service, since Host is the client's).

// maxWSDLBases bounds the rendered base URLs cached per service.
const maxWSDLBases = 8

// wsdlDocument tells whether a GET asks for a WSDL document and which one:
// "" for the root, else the served name of another file.
func wsdlDocument(r *http.Request, t Target) (string, bool) {
	if name, ok := strings.CutPrefix(t.Rest, "/wsdl/"); ok && name != "" {
		return name, true
	}
	if t.Rest == "/wsdl" || t.Rest == "/wsdl/" {
		return "", true
	}
	if t.Rest != "" || r.URL.RawQuery == "" {
		return "", false
	}
	q := r.URL.Query()
	if x := q.Get("xsd"); x != "" {
		return x, true
	}
	if _, ok := q["wsdl"]; ok {
		return "", true
	}
	if _, ok := q["WSDL"]; ok {
		return "", true
	}
	return "", false
}

// wsdlCache holds the indexed files of a service and its rendered
// documents per base URL.
type wsdlCache struct {
	files *wsdlFiles
	mu    sync.Mutex
	bases map[string]map[string][]byte // base URL → stored key → rendered
}

// wsdlCaches caches by service; keys are weak so swapped-out route tables
// take their entries with them.
var wsdlCaches sync.Map // weak.Pointer[routing.Service] → *wsdlCache

func wsdlCacheFor(svc *routing.Service) *wsdlCache {
	k := weak.Make(svc)
	if v, ok := wsdlCaches.Load(k); ok {
		return v.(*wsdlCache)
	}
	c := &wsdlCache{files: indexWSDLFiles(svc.WSDLRoot, svc.WSDLFiles), bases: map[string]map[string][]byte{}}
	if v, loaded := wsdlCaches.LoadOrStore(k, c); loaded {
		return v.(*wsdlCache)
	}
	runtime.AddCleanup(svc, func(k weak.Pointer[routing.Service]) { wsdlCaches.Delete(k) }, k)
	return c
}

// document returns the rendered document for base (the public URL of the
// service), from the cache when it holds it.
func (c *wsdlCache) document(f *wsdlFile, base string) []byte {
	c.mu.Lock()
	docs, ok := c.bases[base]
	if ok {
		if b, ok := docs[f.key]; ok {
			c.mu.Unlock()
			return b
		}
	}
	c.mu.Unlock()
	b := f.render(base, func(key string) string {
		return base + "/wsdl/" + escapeServedName(c.files.byKey[key].name)
	})
	c.mu.Lock()
	defer c.mu.Unlock()
	if docs == nil {
		if len(c.bases) >= maxWSDLBases {
			return b
		}
		if docs = c.bases[base]; docs == nil {
			docs = map[string][]byte{}
			c.bases[base] = docs
		}
	}
	docs[f.key] = b
	return b
}

// escapeServedName escapes each segment of a served name for a URL path.
func escapeServedName(name string) string {
	segs := strings.Split(name, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// wsdlBody returns the document doc ("" for the root) of svc rendered for
// the request, with its Content-Type.
func (d *Dispatcher) wsdlBody(r *http.Request, t Target, svc *routing.Service, doc string) ([]byte, string, error) {
	if svc.WSDLRoot == "" || len(svc.WSDLFiles) == 0 {
		return nil, "", apierr.Newf(apierr.RunNotFound, "service %q has no stored WSDL", svc.ServiceKey)
	}
	c := wsdlCacheFor(svc)
	var f *wsdlFile
	if doc == "" {
		f = c.files.byKey[svc.WSDLRoot]
	} else {
		f = c.files.byName[strings.TrimPrefix(doc, "/")]
	}
	if f == nil {
		return nil, "", apierr.Newf(apierr.RunNotFound, "service %q has no WSDL document %q", svc.ServiceKey, doc)
	}
	base := d.publicBase(r) + "/" + string(t.Direction) + "/" + url.PathEscape(t.Environment) + "/" + url.PathEscape(t.ServiceKey)
	return c.document(f, base), f.contentType, nil
}

// serveConsumeWSDL writes document doc ("" for the root WSDL) of svc and returns
// the status and body length written; errors are SOAP Faults (consume).
func (d *Dispatcher) serveConsumeWSDL(w http.ResponseWriter, r *http.Request, t Target, svc *routing.Service, doc string) (int, int) {
	b, ct, err := d.wsdlBody(r, t, svc, doc)
	if err != nil {
		e := apierr.Resolve(err, apierr.RunInternal)
		return e.Status(), writeFetchFault(w, r, e)
	}
	writeWSDL(w, r, ct, b)
	return http.StatusOK, len(b)
}

// writeFetchFault answers a failed WSDL fetch on a consume path: a SOAP
// 1.1 Fault (consume errors are Faults, SPEC 7.1) with the code's own
// status, since a GET is not a SOAP call. It returns the body length.
func writeFetchFault(w http.ResponseWriter, r *http.Request, e *apierr.Error) int {
	fault := apierr.MarshalFault(apierr.SOAP11, e, correlation.ID(r.Context()))
	w.Header().Set("Content-Type", apierr.SOAP11.ContentType())
	w.Header().Set("Content-Length", strconv.Itoa(len(fault)))
	w.WriteHeader(e.Status())
	w.Write(fault)
	return len(fault)
}

// GatewayWSDL serves the WSDL of a gateway service once the gateway's
// guards passed (GatewayConfig.WSDL); errors are JSON, as on every
// gateway path. It records the request.
func (d *Dispatcher) GatewayWSDL(w http.ResponseWriter, r *http.Request, t Target, svc *routing.Service) {
	rec := d.newRecord(r, t, d.cfg.Now())
	rec.ServiceKey, rec.ServiceID = svc.ServiceKey, svc.ID
	doc, _ := wsdlDocument(r, t)
	b, ct, err := d.wsdlBody(r, t, svc, doc)
	if err != nil {
		d.gatewayFail(w, r, rec, err)
		return
	}
	writeWSDL(w, r, ct, b)
	rec.ResponseBytes = int64(len(b))
	d.finishGatewayRecord(rec, http.StatusOK, "")
}

func writeWSDL(w http.ResponseWriter, r *http.Request, ct string, b []byte) {
	h := w.Header()
	h.Set("Content-Type", ct)
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(b)
	}
}

// publicBase is the public base URL, without a trailing slash.
func (d *Dispatcher) publicBase(r *http.Request) string {
	if b := strings.TrimRight(d.cfg.PublicBaseURL, "/"); b != "" {
		return b
	}
	scheme, host := "http", r.Host
	if r.TLS != nil {
		scheme = "https"
	}
	if d.fromTrustedProxy(r) {
		if p := firstForwarded(r.Header.Get("X-Forwarded-Proto")); p == "http" || p == "https" {
			scheme = p
		}
		if h := firstForwarded(r.Header.Get("X-Forwarded-Host")); h != "" && validHost(h) {
			host = h
		}
	}
	if !validHost(host) {
		host = "localhost"
	}
	return scheme + "://" + host
}

func (d *Dispatcher) fromTrustedProxy(r *http.Request) bool {
	f := d.cfg.Gateway.TrustedProxies
	if f == nil {
		return false
	}
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	a := ap.Addr().Unmap()
	for _, p := range f() {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func firstForwarded(v string) string {
	v, _, _ = strings.Cut(v, ",")
	return strings.ToLower(strings.TrimSpace(v))
}

// validHost accepts host[:port] made of URL-safe host characters only, so
// a Host header cannot inject markup or a path into the WSDL.
func validHost(h string) bool {
	if h == "" || len(h) > 255 {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '.' || c == '-' || c == ':' || c == '[' || c == ']' || c == '_') {
			return false
		}
	}
	return true
}
