package apierr

import "net/http"

// HandlerFunc is an HTTP handler that returns an error instead of writing
// error bodies itself. Returned errors are rendered as the SPEC 7.1 JSON
// body; errors that are not *Error become 500 S2R-RUN-0500.
//
// A handler must return an error only if it has not written a response yet.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// ServeHTTP implements http.Handler.
func (f HandlerFunc) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := f(w, r); err != nil {
		Render(w, r, err, RunInternal)
	}
}

// AdminHandlerFunc is HandlerFunc for the admin surface: errors that are not
// *Error become 500 S2R-ADM-0500, because admin errors use S2R-ADM- or
// S2R-VAL- codes only (SPEC 7.1).
type AdminHandlerFunc func(w http.ResponseWriter, r *http.Request) error

// ServeHTTP implements http.Handler.
func (f AdminHandlerFunc) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := f(w, r); err != nil {
		Render(w, r, err, AdmInternal)
	}
}
