package httpx

import (
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/correlation"
)

// Redacted replaces the value of every sensitive header and query parameter
// in logs.
const Redacted = "[REDACTED]"

// sensitiveHeaders are redacted by name; any name containing one of
// sensitiveWords is redacted too.
var sensitiveHeaders = []string{
	"authorization", "proxy-authorization", "cookie", "set-cookie",
	"x-s2r-callback-secret", "x-s2r-poll-token",
}

var sensitiveWords = []string{"secret", "token", "password", "passwd", "api-key", "apikey", "api_key", "auth", "credential", "session"}

// Sensitive reports whether a header or query parameter name holds a
// secret that must never be logged.
func Sensitive(name string) bool {
	n := strings.ToLower(name)
	if slices.Contains(sensitiveHeaders, n) {
		return true
	}
	for _, w := range sensitiveWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// AccessLog writes one structured line per request: method, path, redacted
// query and headers, status, response bytes, duration and correlation id.
// Bodies are never logged here. The line is written even when next panics
// (status 500), before Recover renders the error. Successful health probes
// and metrics scrapes are logged at debug level.
func AccessLog(log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			rec := wrap(w)
			panicked := true
			defer func() {
				status := rec.Status()
				switch {
				case panicked:
					status = http.StatusInternalServerError
				case status == 0:
					status = http.StatusOK
				}
				level := slog.LevelInfo
				switch {
				case status >= 500:
					level = slog.LevelWarn
				case isProbe(r.URL.Path):
					level = slog.LevelDebug // probes and scrapes would drown the log
				}
				// The attributes (redacted headers and query) cost more
				// than the rest of the middleware: build them only for a
				// line that will be written.
				if !log.Enabled(r.Context(), level) {
					return
				}
				log.LogAttrs(r.Context(), level, "http request",
					slog.String("method", r.Method),
					slog.String("path", r.URL.Path),
					slog.String("query", redactQuery(r.URL.RawQuery)),
					slog.Int("status", status),
					slog.Int64("bytes", rec.bytes),
					slog.Float64("durationMs", float64(time.Since(start).Microseconds())/1000),
					slog.String("correlationId", correlation.ID(r.Context())),
					slog.String("remoteAddr", r.RemoteAddr),
					slog.Any("headers", redactHeaders(r.Header)),
				)
			}()
			next.ServeHTTP(rec, r)
			panicked = false
		})
	}
}

// isProbe reports whether path is a health probe or a metrics scrape.
func isProbe(path string) bool {
	s := SurfaceOf(path)
	return s == SurfaceHealth || s == SurfaceMetrics
}

// redactHeaders returns the headers as a map with sensitive values replaced.
func redactHeaders(h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	for k, vs := range h {
		if Sensitive(k) {
			out[k] = Redacted
			continue
		}
		out[k] = strings.Join(vs, ", ")
	}
	return out
}

// redactQuery replaces the values of sensitive query parameters. A query
// that does not parse is dropped entirely rather than logged raw.
func redactQuery(raw string) string {
	if raw == "" {
		return ""
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return Redacted
	}
	for k := range q {
		if Sensitive(k) {
			q[k] = []string{Redacted}
		}
	}
	return q.Encode()
}
