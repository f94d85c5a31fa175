package async

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// executionDetail is the answer of GET /async-executions/{id} and of the
// actions. Callback is the stored callback (WS-Security headers removed).
type executionDetail struct {
	Execution        model.AsyncExecution `json:"execution"`
	Callback         *string              `json:"callback"`
	Replayable       bool                 `json:"replayable"`
	PayloadsWithheld bool                 `json:"payloadsWithheld"`
}

// list answers GET /async-executions (SPEC 4.10).
func (x *adminAPI) list(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	page, err := adminapi.ParsePage(q)
	if err != nil {
		return err
	}
	tr, err := adminapi.ParseTimeRange(q, x.now())
	if err != nil {
		return err
	}
	f := model.AsyncFilter{Environment: q.Get("environment"), ServiceKey: q.Get("serviceKey"),
		OperationKey: q.Get("operationKey"), Since: tr.Since, Until: tr.Until}
	for _, p := range []struct{ name, v string }{
		{"environment", f.Environment}, {"serviceKey", f.ServiceKey}, {"operationKey", f.OperationKey},
	} {
		if !utf8.ValidString(p.v) || strings.IndexByte(p.v, 0) >= 0 || len(p.v) > 256 {
			return adminapi.FieldError(p.name, "must be UTF-8 text of at most 256 bytes without NUL")
		}
	}
	for _, v := range q["status"] {
		for _, st := range strings.Split(v, ",") {
			st = strings.TrimSpace(st)
			if !slices.Contains(model.AsyncStatuses, st) {
				return adminapi.FieldError("status", "each value must be one of "+strings.Join(model.AsyncStatuses, ", "))
			}
			if !slices.Contains(f.Statuses, st) {
				f.Statuses = append(f.Statuses, st)
			}
		}
	}
	p, err := x.cfg.Store.AsyncExecutions(r.Context(), f, page)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, p)
}

// get answers GET /async-executions/{id}.
func (x *adminAPI) get(w http.ResponseWriter, r *http.Request) error {
	e, err := x.execution(r)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, detail(r, e))
}

// execution loads the execution named by the path; 400 S2R-OBS-0400 when
// there is none (SPEC 7.3).
func (x *adminAPI) execution(r *http.Request) (model.AsyncExecution, error) {
	id := r.PathValue("id")
	if id == "" || len(id) > 256 || !utf8.ValidString(id) {
		return model.AsyncExecution{}, apierr.New(apierr.ObsNotFound, "no async execution with this id")
	}
	e, err := x.cfg.Store.AsyncExecution(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		return e, apierr.Newf(apierr.ObsNotFound, "no async execution with id %q", id).WithDetail("id", id)
	}
	return e, err
}

// showPayloads reports whether r's caller may see payloads: operator and
// admin (as for debug traces).
func showPayloads(r *http.Request) bool {
	c, _ := access.CallerFrom(r.Context())
	return c.Role.AtLeast(model.RoleOperator)
}

// detail renders e for r's caller.
func detail(r *http.Request, e model.AsyncExecution) executionDetail {
	d := executionDetail{Execution: e, Replayable: slices.Contains(model.AsyncReplayable, e.Status)}
	if !showPayloads(r) {
		d.Execution.Result, d.Execution.Fault = nil, nil
		d.PayloadsWithheld = true
		return d
	}
	if e.Callback != nil {
		s := strings.ToValidUTF8(string(e.Callback), "\uFFFD")
		d.Callback = &s
	}
	return d
}

// summary is e as audit states show it: no payloads.
func summary(e model.AsyncExecution) model.AsyncExecution {
	e.Result, e.Fault, e.Callback = nil, nil, nil
	return e
}

// notReplayable is 422 S2R-OBS-0422 for an action the state forbids.
func notReplayable(e model.AsyncExecution, action string, allowed []string) error {
	return apierr.Newf(apierr.ObsInvalidState, "%s is not allowed for an execution in state %s (allowed: %s)",
		action, e.Status, strings.Join(allowed, ", ")).WithDetail("status", e.Status)
}

// outcomeJSON is an outcome as previews show it.
type outcomeView struct {
	Status string          `json:"status"`
	Result json.RawMessage `json:"result,omitempty"`
	Fault  json.RawMessage `json:"fault,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}
