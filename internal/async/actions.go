package async

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/dataplane"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// The operator actions of SPEC 3.1 and DESIGN 9. Each reads the execution,
// checks its state, and applies a conditional UPDATE on the status it
// read, in one transaction with its audit event: an execution that
// changed in between (a callback, another operator) is 409 S2R-ADM-0409
// and is left alone.

// reprocess answers POST /async-executions/{id}/reprocess.
func (x *adminAPI) reprocess(w http.ResponseWriter, r *http.Request) error {
	e, err := x.execution(r)
	if err != nil {
		return err
	}
	body, err := x.readCallback(r)
	if err != nil {
		return err
	}
	if !slices.Contains(model.AsyncReplayable, e.Status) {
		return notReplayable(e, "reprocess", model.AsyncReplayable)
	}
	source := "the provided callback"
	if len(bytes.TrimSpace(body)) == 0 {
		if e.Callback == nil {
			return apierr.New(apierr.ObsInvalidState, "the execution has no stored callback: send the callback to reprocess as the body")
		}
		body, source = e.Callback, "the stored callback"
	}
	info, out, err := x.convert(r, e, body)
	if err != nil {
		return err
	}
	if !names(info, e) {
		return apierr.Newf(apierr.ValBadRequest, "the callback names execution %q, not %q", info.ID(), e.CorrelationID)
	}
	after, err := x.change(r, "async.reprocess", e, "reprocessed "+source+": "+out.Status,
		func(tx *store.Tx) (bool, error) {
			return tx.FinishAsyncExecution(r.Context(), e.CorrelationID, store.AsyncCondition{From: []string{e.Status}}, out, x.now())
		})
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, detail(r, after))
}

// complete answers POST /async-executions/{id}/complete: the JSON body is
// the final result.
func (x *adminAPI) complete(w http.ResponseWriter, r *http.Request) error {
	e, err := x.execution(r)
	if err != nil {
		return err
	}
	if err := adminapi.CheckJSONContentType(r); err != nil {
		return err
	}
	raw, err := readBody(r, adminapi.MaxBodyBytes)
	if err != nil {
		return err
	}
	result, err := finalResult(raw)
	if err != nil {
		return err
	}
	if !slices.Contains(model.AsyncReplayable, e.Status) {
		return notReplayable(e, "complete", model.AsyncReplayable)
	}
	out := model.AsyncOutcome{Status: model.AsyncCompleted, Result: result}
	after, err := x.change(r, "async.complete", e, "completed by hand", func(tx *store.Tx) (bool, error) {
		return tx.FinishAsyncExecution(r.Context(), e.CorrelationID, store.AsyncCondition{From: []string{e.Status}}, out, x.now())
	})
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, detail(r, after))
}

// finalResult reads complete's body: any JSON value, compacted; a JSON
// string whose text is a JSON object or array is unwrapped (the body
// "is a JSON string with the final result", SPEC 3.1).
func finalResult(raw []byte) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || !json.Valid(raw) {
		return nil, adminapi.FieldError("", "the body must be the final result as JSON")
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		if t := bytes.TrimSpace([]byte(s)); len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid(t) {
			raw = t
		}
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil, adminapi.FieldError("", "the body must be the final result as JSON")
	}
	return b.Bytes(), nil
}

// fail answers POST /async-executions/{id}/fail: the body is the reason.
func (x *adminAPI) fail(w http.ResponseWriter, r *http.Request) error {
	e, err := x.execution(r)
	if err != nil {
		return err
	}
	reason, err := failReason(r)
	if err != nil {
		return err
	}
	if !slices.Contains(model.AsyncReplayable, e.Status) {
		return notReplayable(e, "fail", model.AsyncReplayable)
	}
	ae := apierr.New(apierr.RunBackendFault, reason).WithDetail("manual", true)
	out := model.AsyncOutcome{Status: model.AsyncFailed, Error: dataplane.ErrorJSON(ae)}
	after, err := x.change(r, "async.fail", e, "failed by hand", func(tx *store.Tx) (bool, error) {
		return tx.FinishAsyncExecution(r.Context(), e.CorrelationID, store.AsyncCondition{From: []string{e.Status}}, out, x.now())
	})
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, detail(r, after))
}

// failReason reads fail's body: a JSON string, or text/plain.
func failReason(r *http.Request) (string, error) {
	mt := "application/json"
	if ct := r.Header.Get("Content-Type"); ct != "" {
		var err error
		if mt, _, err = mime.ParseMediaType(ct); err != nil || (mt != "text/plain" && adminapi.CheckJSONContentType(r) != nil) {
			return "", apierr.New(apierr.ValUnsupportedMedia, "the reason must be a JSON string or text/plain")
		}
	}
	raw, err := readBody(r, adminapi.MaxBodyBytes)
	if err != nil {
		return "", err
	}
	reason := string(raw)
	if mt != "text/plain" {
		if json.Unmarshal(bytes.TrimSpace(raw), &reason) != nil {
			return "", adminapi.FieldError("", "the reason must be a JSON string (or text/plain)")
		}
	}
	reason = strings.TrimSpace(reason)
	if reason == "" || utf8.RuneCountInString(reason) > 4096 || !utf8.ValidString(reason) {
		return "", adminapi.FieldError("", "the reason must be 1 to 4096 characters of UTF-8 text")
	}
	return reason, nil
}

// reopen answers POST /async-executions/{id}/reopen.
func (x *adminAPI) reopen(w http.ResponseWriter, r *http.Request) error {
	e, err := x.execution(r)
	if err != nil {
		return err
	}
	if !slices.Contains(model.AsyncReopenable, e.Status) {
		return notReplayable(e, "reopen", model.AsyncReopenable)
	}
	now := x.now()
	after, err := x.change(r, "async.reopen", e, "reopened: waiting_callback", func(tx *store.Tx) (bool, error) {
		return tx.ReopenAsyncExecution(r.Context(), e.CorrelationID, store.AsyncCondition{From: []string{e.Status}},
			now.Add(x.ttl()), now)
	})
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, detail(r, after))
}

// change applies one action in a transaction with its audit event (the
// states without payloads) and returns the execution after it.
func (x *adminAPI) change(r *http.Request, action string, before model.AsyncExecution, message string,
	apply func(tx *store.Tx) (bool, error)) (model.AsyncExecution, error) {
	ctx := r.Context()
	var after model.AsyncExecution
	err := x.cfg.Store.Transact(ctx, func(tx *store.Tx) error {
		ok, err := apply(tx)
		if err != nil {
			return err
		}
		if !ok {
			return apierr.New(apierr.AdmAlreadyExists, "the execution changed meanwhile: reload it and try again")
		}
		if after, err = tx.AsyncExecution(ctx, before.CorrelationID); err != nil {
			return err
		}
		return tx.InsertAudit(ctx, adminapi.AuditEvent(r, action, "async_execution", before.CorrelationID,
			message, summary(before), summary(after)))
	})
	return after, err
}

// readBody reads at most limit bytes: more is 413 S2R-ADM-0413.
func readBody(r *http.Request, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		return nil, apierr.Wrap(apierr.ValBadRequest, err, "the request body could not be read")
	}
	if int64(len(b)) > limit {
		return nil, apierr.PayloadTooLarge(apierr.AdmPayloadTooLarge, int(limit>>20))
	}
	return b, nil
}
