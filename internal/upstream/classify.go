package upstream

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
)

// sentError marks a failure that happened after a connection to the
// backend was obtained: the request may have reached it, so it is retried
// only when the caller opts in.
type sentError struct{ e *Error }

func (s *sentError) Error() string { return s.e.Error() }

func (s *sentError) Unwrap() error { return s.e }

// withConnTrace returns ctx with a trace that records whether a
// connection was obtained.
func withConnTrace(ctx context.Context) (context.Context, *atomic.Bool) {
	var got atomic.Bool
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(httptrace.GotConnInfo) { got.Store(true) },
	}), &got
}

// roundTrip sends hreq and classifies a failure as before or after the
// connection was obtained.
func roundTrip(rt http.RoundTripper, hreq *http.Request) (*http.Response, error) {
	ctx, got := withConnTrace(hreq.Context())
	resp, err := rt.RoundTrip(hreq.WithContext(ctx))
	if err == nil {
		return resp, nil
	}
	e := classify(hreq.Context(), err, 0)
	if got.Load() {
		return nil, &sentError{e}
	}
	return nil, e
}

// classify turns a transport error into an *Error: a passed deadline or a
// network timeout is KindTimeout, a canceled context KindCanceled, the
// rest KindUnreachable.
func classify(ctx context.Context, err error, attempts int) *Error {
	var ue *Error
	if errors.As(err, &ue) {
		return ue
	}
	kind := KindUnreachable
	var ne net.Error
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded), errors.Is(err, context.DeadlineExceeded):
		kind = KindTimeout
	case errors.As(err, &ne) && ne.Timeout():
		kind = KindTimeout
	case errors.Is(ctx.Err(), context.Canceled), errors.Is(err, context.Canceled):
		kind = KindCanceled
	}
	return &Error{Kind: kind, Err: err, Attempts: attempts}
}

// retryable reports whether a failed attempt may be retried: failures
// before a connection was obtained always, failures after it only with
// afterSend; auth, size and cancellation failures never.
func retryable(err error, afterSend bool) bool {
	if Blocked(err) {
		return false // the policy will refuse the address again
	}
	var se *sentError
	if errors.As(err, &se) {
		return afterSend && (se.e.Kind == KindUnreachable || se.e.Kind == KindTimeout)
	}
	switch KindOf(err) {
	case KindUnreachable, KindTimeout:
		return true
	}
	return false
}
