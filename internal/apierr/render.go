package apierr

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/s2r-project/s2r/internal/correlation"
)

// jsonBody is the SPEC 7.1 error shape.
type jsonBody struct {
	Error jsonError `json:"error"`
}

type jsonError struct {
	Code          string         `json:"code"`
	Message       string         `json:"message"`
	Details       map[string]any `json:"details"`
	CorrelationID string         `json:"correlationId"`
}

// Resolve turns any error into the *Error to render. An *Error anywhere in
// the chain is used as is; anything else becomes Internal(internalCode, err).
func Resolve(err error, internalCode string) *Error {
	if e, ok := As(err); ok {
		return e
	}
	return Internal(internalCode, err)
}

// MarshalJSONBody returns the SPEC 7.1 JSON body for e.
func MarshalJSONBody(e *Error, correlationID string) []byte {
	details := e.Details
	if details == nil {
		details = map[string]any{}
	}
	b, err := json.Marshal(jsonBody{Error: jsonError{
		Code: e.Code, Message: e.Message, Details: details, CorrelationID: correlationID,
	}})
	if err != nil {
		// Details held something unencodable: drop them rather than fail.
		b, _ = json.Marshal(jsonBody{Error: jsonError{
			Code: e.Code, Message: e.Message, Details: map[string]any{}, CorrelationID: correlationID,
		}})
	}
	return b
}

// WriteJSON writes e as a JSON error response with its registered status.
func WriteJSON(w http.ResponseWriter, e *Error, correlationID string) {
	b := MarshalJSONBody(e, correlationID)
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(b)+1))
	SetRetryAfter(h, e)
	w.WriteHeader(e.Status())
	w.Write(append(b, '\n'))
}

// Render resolves err (unknown errors become internalCode), logs server-side
// failures, and writes the JSON error body with the request's correlation id.
func Render(w http.ResponseWriter, r *http.Request, err error, internalCode string) {
	e := Resolve(err, internalCode)
	Log(r.Context(), e)
	WriteJSON(w, e, correlationIDOf(r))
}

// Log records e with the default logger when it is a server-side failure
// (status 5xx) or carries a cause; client errors and protection refusals
// (S2R-RUN-0509, counted on /metrics) without a cause are left to the
// access log.
func Log(ctx context.Context, e *Error) {
	status := e.Status()
	if (status < 500 || IsRefusal(e.Code)) && e.Err == nil {
		return
	}
	level := slog.LevelWarn
	if status >= 500 {
		level = slog.LevelError
	}
	attrs := []slog.Attr{
		slog.String("code", e.Code),
		slog.Int("status", status),
		slog.String("correlationId", correlation.ID(ctx)),
	}
	if e.Err != nil {
		attrs = append(attrs, slog.String("error", e.Err.Error()))
	}
	slog.Default().LogAttrs(ctx, level, e.Message, attrs...)
}

func correlationIDOf(r *http.Request) string { return correlation.ID(r.Context()) }
