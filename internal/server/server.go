// Package server assembles the HTTP surfaces into handlers and runs the
// listeners: one main listener (runtime, health, metrics, ingest and, by
// default, admin and the console) and an optional separate admin listener.
package server

import (
	"log/slog"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/httpx"
)

// Config lists the surface handlers to mount.
type Config struct {
	Logger   *slog.Logger
	Registry *prometheus.Registry
	Metrics  *httpx.HTTPMetrics
	Health   http.Handler // /health/*
	Runtime  http.Handler // everything that is not another surface
	Admin    http.Handler // /admin/v1/*; nil serves 404 S2R-ADM-0404
	Ingest   http.Handler // /ingest/v1/*; nil serves 404 S2R-RUN-0404
	// Console is the web console (/console/*), a client of /admin/v1: it
	// is served wherever the admin API is. nil serves 404 S2R-ADM-0404.
	Console http.Handler
	// SeparateAdmin serves /admin/v1 and the console only on the admin
	// listener: on the main listener they answer 404 S2R-ADM-0404.
	SeparateAdmin bool
}

// MainHandler returns the handler of the main listener with the middleware
// chain recover → correlation → access log → metrics.
func (c Config) MainHandler() http.Handler {
	admin := orNotFound(c.Admin, apierr.AdmNotFound, "the admin API is not available")
	console := orNotFound(c.Console, apierr.AdmNotFound, "the console is not available")
	if c.SeparateAdmin {
		admin = notFound(apierr.AdmNotFound, "the admin API is served on the admin listener only")
		console = notFound(apierr.AdmNotFound, "the console is served on the admin listener only")
	}
	rt := router{
		health:  c.Health,
		metrics: metricsHandler(c.Registry),
		admin:   httpx.CrossOrigin(admin),
		console: console,
		ingest:  orNotFound(c.Ingest, apierr.RunNotFound, "the ingest API is not available"),
		runtime: c.Runtime,
	}
	rt.rootToConsole = c.Console != nil && !c.SeparateAdmin
	return c.chain(rt)
}

// AdminHandler returns the handler of the separate admin listener: only
// /admin/v1/*, the console (and the health probes, for its own load
// balancer checks).
func (c Config) AdminHandler() http.Handler {
	rt := router{
		health:  c.Health,
		metrics: notFound(apierr.AdmNotFound, "metrics are served on the main listener"),
		admin:   httpx.CrossOrigin(orNotFound(c.Admin, apierr.AdmNotFound, "the admin API is not available")),
		console: orNotFound(c.Console, apierr.AdmNotFound, "the console is not available"),
		ingest:  notFound(apierr.AdmNotFound, "not served on the admin listener"),
		runtime: notFound(apierr.AdmNotFound, "not served on the admin listener"),
	}
	rt.rootToConsole = c.Console != nil
	return c.chain(rt)
}

func (c Config) chain(h http.Handler) http.Handler {
	h = framingRefusal(h)
	h = httpx.Metrics(c.Metrics)(h)
	h = httpx.AccessLog(c.Logger)(h)
	h = httpx.Correlation(h)
	return httpx.Recover(c.Logger)(h)
}

// router dispatches on the path prefix of each surface. It is a plain
// switch rather than a ServeMux so runtime paths are never cleaned or
// redirected.
type router struct {
	health, metrics, admin, console, ingest, runtime http.Handler
	// rootToConsole redirects GET and HEAD / to /console/ on the listener
	// that serves the console (DESIGN 10.4).
	rootToConsole bool
}

func (rt router) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if rt.rootToConsole && r.URL.Path == "/" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		http.Redirect(w, r, "/console/", http.StatusFound)
		return
	}
	switch httpx.SurfaceOf(r.URL.Path) {
	case httpx.SurfaceHealth:
		rt.health.ServeHTTP(w, r)
	case httpx.SurfaceMetrics:
		rt.metrics.ServeHTTP(w, r)
	case httpx.SurfaceAdmin:
		rt.admin.ServeHTTP(w, r)
	case httpx.SurfaceIngest:
		rt.ingest.ServeHTTP(w, r)
	case httpx.SurfaceConsole:
		rt.console.ServeHTTP(w, r)
	default:
		rt.runtime.ServeHTTP(w, r)
	}
}

func notFound(code, msg string) http.Handler {
	return apierr.HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
		return apierr.New(code, msg)
	})
}

func orNotFound(h http.Handler, code, msg string) http.Handler {
	if h == nil {
		return notFound(code, msg)
	}
	return h
}
