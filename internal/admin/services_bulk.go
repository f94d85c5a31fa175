package admin

import (
	"net/http"
	"slices"
	"strings"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
)

// maxBulkIDs bounds the services of one bulk action.
const maxBulkIDs = 200

// bulkActions maps each bulk action to its change of a service.
var bulkActions = map[string]struct {
	audit  string
	change func(*model.Service)
}{
	"enable":    {"service.update", func(s *model.Service) { s.Status = model.ServiceActive }},
	"disable":   {"service.update", func(s *model.Service) { s.Status = model.ServiceDisabled }},
	"debug_on":  {"service.update", func(s *model.Service) { s.DebugEnabled = true }},
	"debug_off": {"service.update", func(s *model.Service) { s.DebugEnabled = false }},
	"delete":    {"service.delete", func(s *model.Service) { s.Status = model.ServiceDeprecated }},
}

// bulkActionBody is the body of POST /services:bulk-action.
type bulkActionBody struct {
	Action     string   `json:"action"`
	ServiceIDs []string `json:"serviceIds"`
}

// bulkItem is the result of a bulk action on one service.
type bulkItem struct {
	ServiceID string         `json:"serviceId"`
	Result    string         `json:"result"` // ok or error
	Status    string         `json:"status,omitempty"`
	Error     *bulkItemError `json:"error,omitempty"`
}

// bulkItemError is the error of one item, as code and message.
type bulkItemError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// bulkResult answers a bulk action.
type bulkResult struct {
	Action  string         `json:"action"`
	Items   []bulkItem     `json:"items"`
	Summary map[string]int `json:"summary"` // requested, succeeded, failed
}

var docBulkAction = adminapi.Doc{
	Summary: "Apply enable, disable, debug_on, debug_off or delete (soft) to up to 200 services. Each service changes in its " +
		"own transaction with its audit event; the answer lists the result of each id and a summary.",
	Request:  bulkActionBody{},
	Response: bulkResult{},
}

// bulkAction applies one action to many services.
func (s *server) bulkAction(w http.ResponseWriter, r *http.Request) error {
	var body bulkActionBody
	if err := adminapi.DecodeJSON(w, r, &body); err != nil {
		return err
	}
	act, ok := bulkActions[body.Action]
	if !ok {
		return adminapi.FieldError("action", "must be one of enable, disable, debug_on, debug_off, delete")
	}
	if len(body.ServiceIDs) == 0 || len(body.ServiceIDs) > maxBulkIDs {
		return adminapi.FieldError("serviceIds", "must list 1 to 200 service ids")
	}
	res := bulkResult{Action: body.Action, Items: []bulkItem{}, Summary: map[string]int{"requested": 0, "succeeded": 0, "failed": 0}}
	seen := map[string]bool{}
	for _, id := range body.ServiceIDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		res.Summary["requested"]++
		item := s.bulkOne(r, id, act.audit, act.change)
		if item.Result == "ok" {
			res.Summary["succeeded"]++
		} else {
			res.Summary["failed"]++
		}
		res.Items = append(res.Items, item)
	}
	return adminapi.WriteJSON(w, http.StatusOK, res)
}

// bulkOne applies change to one service; an error becomes the item's
// error and is audited as a failure.
func (s *server) bulkOne(r *http.Request, id, action string, change func(*model.Service)) bulkItem {
	var after model.Service
	err := s.changeService(r, id, action, func(svc *model.Service) error { change(svc); return nil }, &after)
	if err != nil {
		s.auditFailure(r, action, "service", id, err)
		e := apierr.Resolve(err, apierr.AdmInternal)
		return bulkItem{ServiceID: id, Result: "error", Error: &bulkItemError{Code: e.Code, Message: e.Message}}
	}
	return bulkItem{ServiceID: id, Result: "ok", Status: after.Status}
}

func contains(list []string, v string) bool { return slices.Contains(list, v) }

func joinComma(list []string) string { return strings.Join(list, ", ") }
