package fetch

import (
	"errors"
	"fmt"
)

// Reason is the machine-readable cause of a fetch failure.
type Reason string

// The reasons a fetch can fail.
const (
	// ReasonBadURL: the URL does not parse, has no host, or carries userinfo.
	ReasonBadURL Reason = "bad_url"
	// ReasonBadScheme: the URL (or a redirect target) is not http or https.
	ReasonBadScheme Reason = "bad_scheme"
	// ReasonBlockedAddress: the host resolves to an address the policy refuses.
	ReasonBlockedAddress Reason = "blocked_address"
	// ReasonDNS: the host name could not be resolved.
	ReasonDNS Reason = "dns"
	// ReasonConnect: the connection or the HTTP exchange failed.
	ReasonConnect Reason = "connect"
	// ReasonTimeout: the overall time limit passed.
	ReasonTimeout Reason = "timeout"
	// ReasonCanceled: the caller's context was canceled.
	ReasonCanceled Reason = "canceled"
	// ReasonTooLarge: the body is longer than the policy's MaxBytes.
	ReasonTooLarge Reason = "too_large"
	// ReasonHTTPStatus: the final response status is not 2xx.
	ReasonHTTPStatus Reason = "http_status"
	// ReasonTooManyRedirects: more redirects than the policy's MaxRedirects.
	ReasonTooManyRedirects Reason = "too_many_redirects"
)

// Error is the only error type Get returns. Its message is safe to show to
// users: URLs in it are redacted (Redact: never userinfo, never the values
// of query parameters whose names suggest a secret).
type Error struct {
	// Reason is the machine-readable cause.
	Reason Reason
	// URL is the redacted URL the failure concerns (may be empty).
	URL string
	// StatusCode is the HTTP status for ReasonHTTPStatus, otherwise 0.
	StatusCode int
	// Msg is the human-readable explanation, without the URL.
	Msg string
	// Err is the underlying cause, if any. Its text is not part of Error().
	Err error
}

// Error implements error.
func (e *Error) Error() string {
	if e.URL == "" {
		return fmt.Sprintf("fetch: %s", e.Msg)
	}
	return fmt.Sprintf("fetch %s: %s", e.URL, e.Msg)
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// ReasonOf returns the Reason of err when it is (or wraps) an *Error, and ""
// otherwise.
func ReasonOf(err error) Reason {
	var fe *Error
	if errors.As(err, &fe) {
		return fe.Reason
	}
	return ""
}

func newError(reason Reason, msg string, cause error) *Error {
	return &Error{Reason: reason, Msg: msg, Err: cause}
}
