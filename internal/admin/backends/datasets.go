package backends

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// datasetBody is the create body of a test dataset.
type datasetBody struct {
	Name         string         `json:"name"`
	OperationKey string         `json:"operationKey,omitempty"`
	Payload      jsontext.Value `json:"payload"`
}

// datasetDoc documents datasetBody (payload: any JSON object).
type datasetDoc struct {
	Name         string          `json:"name"`
	OperationKey string          `json:"operationKey,omitempty"`
	Payload      json.RawMessage `json:"payload"`
}

var docListDatasets = adminapi.Doc{
	Summary:  "Named test datasets of a service, ordered by name.",
	Response: []model.TestDataset{},
}

var docCreateDataset = adminapi.Doc{
	Summary: "Create a named test dataset: name (1..100 characters, unique per service), optional operationKey and a " +
		"JSON object payload (at most 256 KB). A taken name is 409 S2R-ADM-0409.",
	Request:  datasetDoc{},
	Response: model.TestDataset{},
	Status:   http.StatusCreated,
	Errors:   []int{http.StatusConflict},
}

var docDeleteDataset = adminapi.Doc{
	Summary: "Delete a test dataset. A dataset the service's synthetic monitor uses is 409 S2R-ADM-0410.",
	Status:  http.StatusNoContent,
	Errors:  []int{http.StatusConflict},
}

// maxDatasetBytes bounds a dataset payload.
const maxDatasetBytes = 256 << 10

// listDatasets answers the datasets of a service.
func (s *Handlers) listDatasets(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("serviceId")
	if _, err := adminapi.ServiceOrNotFound(s.store.Service(r.Context(), id)); err != nil {
		return err
	}
	out, err := s.store.TestDatasets(r.Context(), id)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}

// createDataset stores a dataset.
func (s *Handlers) createDataset(w http.ResponseWriter, r *http.Request) (err error) {
	serviceID := r.PathValue("serviceId")
	var body datasetBody
	if err := adminapi.DecodeJSON(w, r, &body); err != nil {
		return err
	}
	body.Name = strings.TrimSpace(body.Name)
	if n := len([]rune(body.Name)); n < 1 || n > 100 {
		return adminapi.FieldError("name", "must be 1 to 100 characters")
	}
	if body.OperationKey != "" && !operationKeyPattern(body.OperationKey) {
		return adminapi.FieldError("operationKey", "is not a valid operation key")
	}
	if body.Payload.Kind() != '{' {
		return adminapi.FieldError("payload", "must be a JSON object")
	}
	if len(body.Payload) > maxDatasetBytes {
		return adminapi.FieldError("payload", "must be at most 256 KB")
	}
	d := model.TestDataset{DatasetID: adminapi.NewID(), ServiceID: serviceID, Name: body.Name, OperationKey: body.OperationKey,
		Payload: []byte(body.Payload.Clone()), CreatedAt: s.now().UTC(), CreatedBy: adminapi.CallerEmail(r)}
	ctx := r.Context()
	err = s.store.ChangeConfig(ctx, func(tx *store.Tx) error {
		if _, err := adminapi.ServiceOrNotFound(tx.Service(ctx, serviceID)); err != nil {
			return err
		}
		if err := tx.CreateTestDataset(ctx, d); err != nil {
			if errors.Is(err, store.ErrAlreadyExists) {
				return apierr.Wrap(apierr.AdmAlreadyExists, err, "the service already has a dataset with this name").
					WithDetail("field", "name")
			}
			return err
		}
		return tx.InsertAudit(ctx, adminapi.AuditEvent(r, "test_dataset.create", "test_dataset", d.DatasetID,
			"created test dataset "+d.Name+" of service "+serviceID, nil, d))
	})
	if err != nil {
		return err
	}
	w.Header().Set("Location", adminapi.Prefix+"/services/"+serviceID+"/test-datasets")
	return adminapi.WriteJSON(w, http.StatusCreated, d)
}

// deleteDataset removes a dataset.
func (s *Handlers) deleteDataset(w http.ResponseWriter, r *http.Request) (err error) {
	id := r.PathValue("datasetId")
	ctx := r.Context()
	err = s.store.ChangeConfig(ctx, func(tx *store.Tx) error {
		before, err := tx.TestDataset(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return apierr.New(apierr.AdmNotFound, "test dataset not found")
		}
		if err != nil {
			return err
		}
		if m, err := tx.SyntheticMonitor(ctx, before.ServiceID); err == nil && m.DatasetID != nil && *m.DatasetID == id {
			return apierr.New(apierr.AdmImmutable, "the service's synthetic monitor uses this dataset; point the monitor "+
				"at another dataset or payload first").WithDetail("datasetId", id)
		} else if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if err := tx.DeleteTestDataset(ctx, id); err != nil {
			return err
		}
		return tx.InsertAudit(ctx, adminapi.AuditEvent(r, "test_dataset.delete", "test_dataset", id,
			"deleted test dataset "+before.Name, before, nil))
	})
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// operationKeyPattern reports whether k looks like an operation key: 1..128
// characters of letters, digits, '-', '_' and '.'.
func operationKeyPattern(k string) bool {
	if len(k) == 0 || len(k) > 128 {
		return false
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}
