package httpx

import (
	"context"
	"net/http"

	"github.com/s2r-project/s2r/internal/correlation"
)

// CorrelationID returns the request's correlation id ("" outside a request
// that went through Correlation).
func CorrelationID(ctx context.Context) string { return correlation.ID(ctx) }

// Correlation takes the X-Correlation-Id request header when usable
// (printable ASCII, 1..128 characters) and otherwise generates a UUIDv7. The
// id is stored in the request context and set on the response header before
// the next handler runs, so every response, error or not, carries it.
func Correlation(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := correlation.FromHeader(r.Header.Get(correlation.Header))
		w.Header().Set(correlation.Header, id)
		next.ServeHTTP(w, r.WithContext(correlation.WithID(r.Context(), id)))
	})
}
