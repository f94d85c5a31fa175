// Package apierr is the one error model of s2r: the Error type, the registry
// of S2R codes with their HTTP statuses, and rendering as a JSON error body
// (SPEC 7.1) or as a SOAP 1.1/1.2 Fault carrying the same code.
//
// Handlers return errors; they never write error bodies themselves. The
// HandlerFunc adapter renders whatever a handler returns. An error that is
// not an *Error renders as a generic internal error and is logged, so
// internals never leak to callers.
package apierr

import (
	"errors"
	"fmt"
	"maps"
)

// Error is an error with an S2R code, a caller-facing message, optional
// code-specific details and an optional wrapped cause. The cause is for logs
// only and is never rendered.
type Error struct {
	Code    string
	Message string
	Details map[string]any
	Err     error
	// faultCode, when set, is the Fault's code in a SOAP rendering
	// (WithFaultCode).
	faultCode *FaultCode
}

// New returns an error with code and message.
func New(code, message string) *Error {
	return &Error{Code: code, Message: message}
}

// Newf returns an error with code and a formatted message.
func Newf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap returns an error with code and message that wraps cause. The cause is
// logged but never shown to the caller.
func Wrap(code string, cause error, message string) *Error {
	return &Error{Code: code, Message: message, Err: cause}
}

// Status returns the HTTP status registered for e.Code (500 when unknown).
func (e *Error) Status() int {
	s, _ := StatusOf(e.Code)
	return s
}

// Error implements error. It includes the cause, so it is for logs only.
func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return e.Code + ": " + e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// With returns a copy of e whose details are e's merged with details.
func (e *Error) With(details map[string]any) *Error {
	c := *e
	c.Details = make(map[string]any, len(e.Details)+len(details))
	maps.Copy(c.Details, e.Details)
	maps.Copy(c.Details, details)
	return &c
}

// WithDetail returns a copy of e with one more detail.
func (e *Error) WithDetail(key string, value any) *Error {
	return e.With(map[string]any{key: value})
}

// WithCause returns a copy of e wrapping cause.
func (e *Error) WithCause(cause error) *Error {
	c := *e
	c.Err = cause
	return &c
}

// As returns the first *Error in err's chain.
func As(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// CodeOf returns the code of the first *Error in err's chain, or "" when
// there is none.
func CodeOf(err error) string {
	if e, ok := As(err); ok {
		return e.Code
	}
	return ""
}

// Internal returns the generic error rendered for causes that are not an
// *Error: code internalCode, a fixed message, cause kept for the log.
func Internal(internalCode string, cause error) *Error {
	return &Error{Code: internalCode, Message: "internal error", Err: cause}
}

// PayloadTooLarge returns the 413 error carrying details.maxPayloadMb.
func PayloadTooLarge(code string, maxPayloadMB int) *Error {
	return Newf(code, "payload exceeds the maximum of %d MB", maxPayloadMB).
		WithDetail("maxPayloadMb", maxPayloadMB)
}
