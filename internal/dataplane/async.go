package dataplane

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
)

// AsyncExecutions keeps the state of async callback executions (SPEC 2.2,
// 3.1; DESIGN 6.5). internal/async implements it over the store. Its
// writes are the only database writes of the runtime's request path, and
// they are state, not configuration; sync operations never call it.
//
// Errors are the model.ErrAsync* sentinels (or failures of the store).
type AsyncExecutions interface {
	// Start stores e as waiting_callback with the hash of its first poll
	// token and commits it before returning; it sets e's times
	// (ExpiresAt from setting async_callback_ttl_seconds).
	// model.ErrAsyncDuplicate when e's correlation id names an execution.
	Start(ctx context.Context, e *model.AsyncExecution, tokenHash string) error
	// Poll swaps the poll token of execution id of key from tokenHash to
	// nextHash, atomically, and returns the execution: of two polls with
	// one token, one wins. ErrAsyncNotFound, ErrAsyncToken (wrong or used
	// token), ErrAsyncExpired.
	Poll(ctx context.Context, key model.AsyncKey, id, tokenHash, nextHash string) (model.AsyncExecution, error)
	// Finish sets the outcome of waiting execution id of key, exactly
	// once. Otherwise it tells why: ErrAsyncNotFound, ErrAsyncFinished
	// (also for a finisher that lost a race) or ErrAsyncExpired.
	Finish(ctx context.Context, key model.AsyncKey, id string, out model.AsyncOutcome) (model.AsyncExecution, error)
}

// Headers of async publish (SPEC 4.1).
const (
	PollTokenHeader      = "X-S2R-Poll-Token"
	CallbackSecretHeader = "X-S2R-Callback-Secret"
)

// newPollToken returns a fresh single-use poll token (256 random bits,
// base64url) and its hash.
func newPollToken() (token, hash string) {
	var b [32]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	token = base64.RawURLEncoding.EncodeToString(b[:])
	return token, pollTokenHash(token)
}

// pollTokenHash is what the store keeps of a poll token: SHA-256, hex. A
// token carries 256 random bits, so no salt or slow hash is needed.
func pollTokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// asyncIDUsable reports whether a correlation id can name an async
// execution: it becomes a path segment of the poll path and the
// WS-Addressing MessageID, so only URL-unreserved characters (and ':')
// are allowed, 1 to 128 of them. Generated ids (UUIDv7) always are.
func asyncIDUsable(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '-' || c == '.' || c == '_' || c == '~' || c == ':') {
			return false
		}
	}
	return true
}

// asyncError maps the model.ErrAsync* sentinels to runtime errors; others
// pass through (rendered as 500 and logged).
func asyncError(err error, id string) error {
	switch {
	case errors.Is(err, model.ErrAsyncNotFound):
		return apierr.Newf(apierr.RunNotFound, "no async execution %q for this operation", id).WithCause(err)
	case errors.Is(err, model.ErrAsyncToken):
		return apierr.New(apierr.RunUnauthorized, "the "+PollTokenHeader+" header is missing, wrong or already used").WithCause(err)
	case errors.Is(err, model.ErrAsyncExpired):
		return apierr.Newf(apierr.RunExpired, "async execution %q expired", id).WithCause(err)
	case errors.Is(err, model.ErrAsyncFinished):
		return apierr.Newf(apierr.RunAlreadyFinished, "async execution %q is already finished", id).WithCause(err)
	case errors.Is(err, model.ErrAsyncUnavailable):
		return apierr.New(apierr.RunUnavailable, "async executions are unavailable: retry later").WithCause(err)
	}
	return err
}

// ErrorJSON is an S2R error as stored with a failed execution:
// {"code","message","details"}.
func ErrorJSON(e *apierr.Error) json.RawMessage {
	details := e.Details
	if details == nil {
		details = map[string]any{}
	}
	b, err := marshalJSON(struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
	}{e.Code, e.Message, details})
	if err != nil {
		b, _ = json.Marshal(map[string]any{"code": e.Code, "message": e.Message, "details": map[string]any{}})
	}
	return b
}

// failedOutcome is the failed outcome of err: a SOAP Fault (502
// S2R-RUN-0502 from a fault) is stored as the fault the client would have
// seen (its details, by faultDetailExposureMode); any other error as the
// S2R error.
func failedOutcome(e *apierr.Error, fault bool) model.AsyncOutcome {
	out := model.AsyncOutcome{Status: model.AsyncFailed}
	if fault {
		b, err := marshalJSON(e.Details)
		if err == nil && e.Details != nil {
			out.Fault = b
			return out
		}
	}
	out.Error = ErrorJSON(e)
	return out
}
