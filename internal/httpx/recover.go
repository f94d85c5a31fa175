package httpx

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/correlation"
)

// Recover turns a panic in next into 500 S2R-RUN-0500 (when no response has
// started) and an error log line with the stack. http.ErrAbortHandler is
// re-raised so net/http aborts the connection as intended.
func Recover(log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rec := wrap(w)
			defer func() {
				p := recover()
				if p == nil {
					return
				}
				if err, ok := p.(error); ok && errors.Is(err, http.ErrAbortHandler) {
					panic(p)
				}
				// The correlation middleware runs inside this one; it sets
				// the response header first, so the id is found there.
				id := rec.Header().Get(correlation.Header)
				log.LogAttrs(r.Context(), slog.LevelError, "panic serving request",
					slog.String("panic", fmt.Sprint(p)),
					slog.String("method", r.Method),
					slog.String("path", r.URL.Path),
					slog.String("correlationId", id),
					slog.String("stack", string(debug.Stack())))
				if !rec.written() {
					apierr.WriteJSON(rec, apierr.Internal(apierr.RunInternal, nil), id)
				}
			}()
			next.ServeHTTP(rec, r)
		})
	}
}
