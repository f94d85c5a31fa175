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

// Recover turns a panic in next into 500 S2R-RUN-0500 and an error log
// line with the stack. When part of the response was already written it
// aborts the connection instead (http.ErrAbortHandler), so a client never
// mistakes a truncated body for a success. http.ErrAbortHandler raised by
// next is passed through.
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
				if rec.written() {
					// Part of a response is out: abort the connection so
					// the client sees a failure, not a truncated success.
					panic(http.ErrAbortHandler)
				}
				apierr.WriteJSON(rec, apierr.Internal(apierr.RunInternal, nil), id)
			}()
			next.ServeHTTP(rec, r)
		})
	}
}
