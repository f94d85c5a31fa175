package model

import (
	"encoding/json"
	"errors"
	"time"
)

// Async execution statuses (SPEC 2.2, 3.1).
const (
	AsyncWaiting   = "waiting_callback"
	AsyncCompleted = "completed"
	AsyncFailed    = "failed"
	AsyncExpired   = "expired"
)

// AsyncStatuses lists the statuses in documentation order.
var AsyncStatuses = []string{AsyncWaiting, AsyncCompleted, AsyncFailed, AsyncExpired}

// AsyncReplayable are the states an operator may reprocess, complete or
// fail (DESIGN 6.5).
var AsyncReplayable = []string{AsyncWaiting, AsyncFailed, AsyncExpired}

// AsyncReopenable are the states reopen moves back to waiting_callback:
// the finished ones of SPEC 3.1 and expired (docs/decisions-async.md).
var AsyncReopenable = []string{AsyncCompleted, AsyncFailed, AsyncExpired}

// Sentinel errors of async executions; the runtime and the admin API map
// them to their codes.
var (
	// ErrAsyncNotFound: no execution with this id (at this path).
	ErrAsyncNotFound = errors.New("async execution not found")
	// ErrAsyncDuplicate: the correlation id already names an execution.
	ErrAsyncDuplicate = errors.New("async execution already exists")
	// ErrAsyncToken: the poll token is missing, wrong or already used.
	ErrAsyncToken = errors.New("poll token missing, wrong or used")
	// ErrAsyncExpired: the execution expired.
	ErrAsyncExpired = errors.New("async execution expired")
	// ErrAsyncFinished: the execution is already completed or failed.
	ErrAsyncFinished = errors.New("async execution already finished")
	// ErrAsyncState: the execution's state does not allow the change.
	ErrAsyncState = errors.New("async execution state does not allow this")
	// ErrAsyncUnavailable: the executions cannot be read or written now
	// (the database is unreachable); the same request may succeed later.
	ErrAsyncUnavailable = errors.New("async executions unavailable: the database cannot be reached")
)

// AsyncExecution is one async callback execution (SPEC 2.2; DESIGN 6.5,
// 9). Its id is the correlation id of the publish request that started it.
//
// Result is the operation's converted JSON response (completed); Fault is
// the converted SOAP Fault as the client sees it (failed by a fault
// callback); Error is the S2R error {"code","message","details"} of a
// failure that was not a fault (the backend refused the request, or its
// callback could not be converted). Callback is the stored callback body
// (WS-Security headers removed); it is never encoded to JSON.
type AsyncExecution struct {
	CorrelationID string          `json:"correlationId"`
	Status        string          `json:"status"`
	Direction     string          `json:"direction"`
	Environment   string          `json:"environment"`
	ServiceKey    string          `json:"serviceKey"`
	ServiceID     string          `json:"serviceId"`
	OperationKey  string          `json:"operationKey"`
	OperationID   string          `json:"operationId"`
	PollPath      string          `json:"pollPath"`
	BackendTarget string          `json:"backendTarget,omitempty"`
	CreatedAt     time.Time       `json:"createdAt"`
	UpdatedAt     time.Time       `json:"updatedAt"`
	ExpiresAt     time.Time       `json:"expiresAt"`
	FinishedAt    *time.Time      `json:"finishedAt"`
	CallbackAt    *time.Time      `json:"callbackAt"`
	HasCallback   bool            `json:"hasCallback"`
	Result        json.RawMessage `json:"result,omitempty"`
	Fault         json.RawMessage `json:"fault,omitempty"`
	Error         json.RawMessage `json:"error,omitempty"`
	Callback      []byte          `json:"-"`
}

// AsyncPollPath is the poll path of an execution (SPEC 2.2):
// /{direction}/{environment}/{serviceKey}/{operationKey}/async/{id}.
func AsyncPollPath(direction, environment, serviceKey, operationKey, id string) string {
	return "/" + direction + "/" + environment + "/" + serviceKey + "/" + operationKey + "/async/" + id
}

// SetPollPath fills PollPath from the other fields.
func (e *AsyncExecution) SetPollPath() {
	e.PollPath = AsyncPollPath(e.Direction, e.Environment, e.ServiceKey, e.OperationKey, e.CorrelationID)
}

// Overdue reports whether a waiting execution has passed its expiry at now
// (the sweeper has not moved it to expired yet).
func (e *AsyncExecution) Overdue(now time.Time) bool {
	return e.Status == AsyncWaiting && now.After(e.ExpiresAt)
}

// AsyncOutcome is the end of an execution: its new status and what is
// stored with it. Callback, when not nil, replaces the stored callback.
type AsyncOutcome struct {
	Status   string
	Result   json.RawMessage
	Fault    json.RawMessage
	Error    json.RawMessage
	Callback []byte
}

// AsyncKey names the operation an execution belongs to: a callback or
// poll must arrive at that operation's path.
type AsyncKey struct {
	Direction, Environment, ServiceKey, OperationKey string
}

// Matches reports whether e belongs to k.
func (k AsyncKey) Matches(e AsyncExecution) bool {
	return e.Direction == k.Direction && e.Environment == k.Environment &&
		e.ServiceKey == k.ServiceKey && e.OperationKey == k.OperationKey
}

// AsyncFilter selects executions for the admin list (SPEC 4.10). Zero
// fields do not filter; times bound createdAt, inclusive.
type AsyncFilter struct {
	Environment, ServiceKey, OperationKey string
	Statuses                              []string
	Since, Until                          time.Time
}

// CallbackSecretAAD binds a sealed callback secret to its service.
func CallbackSecretAAD(serviceID string) string {
	return "service/" + serviceID + "/callbackSecret"
}
