package backends

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// monitorBody is the POST body of the synthetic-monitor configuration.
type monitorBody struct {
	Enabled      *bool          `json:"enabled"`
	IntervalSec  *int           `json:"intervalSec"`
	OperationKey string         `json:"operationKey"`
	DatasetID    *string        `json:"datasetId"`
	Payload      jsontext.Value `json:"payload"`
	ExpectStatus *int           `json:"expectStatus"`
}

// monitorDoc documents monitorBody.
type monitorDoc struct {
	Enabled      bool            `json:"enabled,omitempty"`
	IntervalSec  int             `json:"intervalSec,omitempty"`
	OperationKey string          `json:"operationKey"`
	DatasetID    *string         `json:"datasetId,omitempty"`
	Payload      json.RawMessage `json:"payload,omitempty"`
	ExpectStatus int             `json:"expectStatus,omitempty"`
}

var docGetMonitor = adminapi.Doc{
	Summary: "Synthetic-monitor configuration of a service; 404 S2R-ADM-0404 when none is configured. Only the " +
		"configuration is kept so far: no runner executes it yet.",
	Response: model.SyntheticMonitor{},
}

var docPostMonitor = adminapi.Doc{
	Summary: "Set the synthetic-monitor configuration: operationKey (an operation of the active or draft version) is " +
		"required; enabled defaults to false, intervalSec to 60 (10..86400), expectStatus to 200 (100..599); the " +
		"request is datasetId (a dataset of the service) or payload (a JSON object), not both.",
	Request:  monitorDoc{},
	Response: model.SyntheticMonitor{},
}

// getMonitor answers the monitor configuration.
func (s *Handlers) getMonitor(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("serviceId")
	if _, err := adminapi.ServiceOrNotFound(s.store.Service(r.Context(), id)); err != nil {
		return err
	}
	m, err := s.store.SyntheticMonitor(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		return apierr.New(apierr.AdmNotFound, "no synthetic monitor is configured for this service")
	}
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, m)
}

// postMonitor replaces the monitor configuration.
func (s *Handlers) postMonitor(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("serviceId")
	var body monitorBody
	if err := adminapi.DecodeJSON(w, r, &body); err != nil {
		return err
	}
	m, err := monitorFromBody(body)
	if err != nil {
		return err
	}
	m.ServiceID, m.UpdatedAt, m.UpdatedBy = id, s.now().UTC(), adminapi.CallerEmail(r)
	ctx := r.Context()
	err = s.store.ChangeConfig(ctx, func(tx *store.Tx) error {
		if _, err := adminapi.ServiceOrNotFound(tx.Service(ctx, id)); err != nil {
			return err
		}
		if err := checkMonitorRefs(r, tx, m); err != nil {
			return err
		}
		var before any
		if prev, err := tx.SyntheticMonitor(ctx, id); err == nil {
			before = prev
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if err := tx.PutSyntheticMonitor(ctx, m); err != nil {
			return err
		}
		return tx.InsertAudit(ctx, adminapi.AuditEvent(r, "synthetic_monitor.update", "service", id,
			"set synthetic monitor of service "+id, before, m))
	})
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, m)
}

// monitorFromBody validates the body and applies the defaults.
func monitorFromBody(b monitorBody) (model.SyntheticMonitor, error) {
	m := model.SyntheticMonitor{IntervalSec: 60, ExpectStatus: http.StatusOK, OperationKey: b.OperationKey}
	if b.Enabled != nil {
		m.Enabled = *b.Enabled
	}
	if b.IntervalSec != nil {
		if *b.IntervalSec < 10 || *b.IntervalSec > 86400 {
			return m, adminapi.FieldError("intervalSec", "must be an integer between 10 and 86400")
		}
		m.IntervalSec = *b.IntervalSec
	}
	if b.ExpectStatus != nil {
		if *b.ExpectStatus < 100 || *b.ExpectStatus > 599 {
			return m, adminapi.FieldError("expectStatus", "must be an HTTP status between 100 and 599")
		}
		m.ExpectStatus = *b.ExpectStatus
	}
	if b.OperationKey == "" {
		return m, adminapi.FieldError("operationKey", "is required")
	}
	if len(b.Payload) > 0 && b.Payload.Kind() != 'n' {
		if b.Payload.Kind() != '{' {
			return m, adminapi.FieldError("payload", "must be a JSON object")
		}
		if len(b.Payload) > maxDatasetBytes {
			return m, adminapi.FieldError("payload", "must be at most 256 KB")
		}
		m.Payload = []byte(b.Payload.Clone())
	}
	if b.DatasetID != nil {
		if m.Payload != nil {
			return m, adminapi.FieldError("datasetId", "give datasetId or payload, not both")
		}
		m.DatasetID = b.DatasetID
	}
	return m, nil
}

// checkMonitorRefs checks that the operation key names an operation of the
// service's active or draft version and that the dataset is the service's.
func checkMonitorRefs(r *http.Request, tx *store.Tx, m model.SyntheticMonitor) error {
	ctx := r.Context()
	found := false
	for _, status := range []string{model.VersionActive, model.VersionDraft} {
		v, err := tx.VersionWithStatus(ctx, m.ServiceID, status)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		ops, err := tx.Operations(ctx, v.VersionID)
		if err != nil {
			return err
		}
		for _, op := range ops {
			found = found || op.OperationKey == m.OperationKey
		}
	}
	if !found {
		return adminapi.FieldError("operationKey", "is not an operation of the service's active or draft version")
	}
	if m.DatasetID != nil {
		d, err := tx.TestDataset(ctx, *m.DatasetID)
		if errors.Is(err, store.ErrNotFound) || (err == nil && d.ServiceID != m.ServiceID) {
			return adminapi.FieldError("datasetId", "is not a test dataset of this service")
		}
		if err != nil {
			return err
		}
	}
	return nil
}
