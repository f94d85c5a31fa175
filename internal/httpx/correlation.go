package httpx

import (
	"context"
	"net/http"

	"github.com/s2r-project/s2r/internal/correlation"
)

// CorrelationID returns the request's correlation id ("" outside a request
// that went through Correlation).
func CorrelationID(ctx context.Context) string { return correlation.ID(ctx) }

// CorrelationOrigin says whether the id was supplied by the caller,
// generated, or generated because the supplied one was unusable.
func CorrelationOrigin(ctx context.Context) correlation.Origin { return correlation.OriginOf(ctx) }

// Correlation takes the X-Correlation-Id request header when usable
// (printable ASCII, 1..128 characters) and otherwise generates a UUIDv7. The
// id is stored in the request context and set on the response header before
// the next handler runs, so every response, error or not, carries it.
func Correlation(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		vals, present := r.Header[http.CanonicalHeaderKey(correlation.Header)]
		supplied := ""
		if present {
			supplied = vals[0]
		}
		id, origin := correlation.Resolve(supplied, present)
		w.Header().Set(correlation.Header, id)
		next.ServeHTTP(w, r.WithContext(correlation.WithIDOrigin(r.Context(), id, origin)))
	})
}
