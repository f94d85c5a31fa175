package upstream

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/fetch"
)

// Kind classifies a failed outbound call so callers can answer the right
// SPEC 7.2 code.
type Kind int

// Kinds of failure. The mapping to S2R codes is Error.APIError.
const (
	// KindUnreachable: the backend could not be reached (DNS failure,
	// connection refused or reset, TLS failure, the connection broke before
	// a complete response). 502 S2R-RUN-0502.
	KindUnreachable Kind = iota + 1
	// KindTimeout: the call's deadline (timeoutMs) passed, or the connect
	// timeout did. 504 S2R-RUN-0424.
	KindTimeout
	// KindAuthConfig: the profile's auth or mTLS configuration is invalid or
	// a credential is missing, or the OAuth2 token could not be obtained.
	// 502 S2R-RUN-0505.
	KindAuthConfig
	// KindTooLarge: the response body is over the size limit. 413
	// S2R-RUN-0413 with details.maxPayloadMb.
	KindTooLarge
	// KindCanceled: the caller's context was canceled (the client went
	// away). 502 S2R-RUN-0502; usually nobody is left to read it.
	KindCanceled
)

// String returns a short name of the kind, used in logs and test output.
func (k Kind) String() string {
	switch k {
	case KindUnreachable:
		return "unreachable"
	case KindTimeout:
		return "timeout"
	case KindAuthConfig:
		return "auth_config"
	case KindTooLarge:
		return "too_large"
	case KindCanceled:
		return "canceled"
	}
	return "unknown"
}

// Error is a failed outbound call. Err is the cause, for logs; it never
// holds a credential.
type Error struct {
	Kind Kind
	// Limit is the response size limit in bytes (KindTooLarge).
	Limit int64
	// Attempts is how many times the request was sent or tried.
	Attempts int
	Err      error
}

func (e *Error) Error() string {
	return fmt.Sprintf("upstream: %s: %v", e.Kind, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the kind of err, or 0 when err is not an *Error.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}

// APIError maps the failure to its S2R error (SPEC 7.2).
func (e *Error) APIError() *apierr.Error {
	switch e.Kind {
	case KindTimeout:
		return apierr.Wrap(apierr.RunBackendTimeout, e, "the backend did not answer in time")
	case KindAuthConfig:
		return apierr.Wrap(apierr.RunBackendAuth, e, "backend auth configuration invalid or credentials missing")
	case KindTooLarge:
		mb := int((e.Limit + (1<<20 - 1)) >> 20)
		return apierr.PayloadTooLarge(apierr.RunPayloadTooLarge, mb).WithCause(e)
	}
	if Blocked(e) {
		return apierr.Wrap(apierr.RunBackendFault, e, "the backend address is not allowed by the outbound policy "+
			"(settings outbound_allowed_cidrs / outbound_denied_cidrs)")
	}
	return apierr.Wrap(apierr.RunBackendFault, e, "the backend could not be reached")
}

// Blocked reports whether err is a connection the backend policy refused
// (Client.SetPolicy) before connecting.
func Blocked(err error) bool {
	var fe *fetch.Error
	return errors.As(err, &fe) && fe.Reason == fetch.ReasonBlockedAddress
}

// Status returns the HTTP status the failure answers.
func (e *Error) Status() int {
	if s := e.APIError().Status(); s != 0 {
		return s
	}
	return http.StatusBadGateway
}

func authError(format string, args ...any) *Error {
	return &Error{Kind: KindAuthConfig, Err: fmt.Errorf(format, args...)}
}
