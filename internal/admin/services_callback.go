package admin

import (
	"net/http"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
)

// maxCallbackSecretBytes bounds callbackSecret.
const maxCallbackSecretBytes = 1024

// takeCallbackSecret removes the write-only member callbackSecret from
// members and returns the requested change: nil when absent, Clear for
// null, else the new value (1 to 1024 bytes).
func takeCallbackSecret(members map[string]jsontext.Value) (*adminapi.CredentialChange, error) {
	v, ok := members["callbackSecret"]
	if !ok {
		return nil, nil
	}
	delete(members, "callbackSecret")
	if v.Kind() == 'n' {
		return &adminapi.CredentialChange{Clear: true}, nil
	}
	var s string
	if v.Kind() != '"' || json.Unmarshal(v, &s) != nil || s == "" || len(s) > maxCallbackSecretBytes {
		return nil, adminapi.FieldError("callbackSecret", "must be a string of 1 to 1024 bytes (set) or null (clear)")
	}
	return &adminapi.CredentialChange{Value: s}, nil
}

// applyCallbackSecret seals a callbackSecret change into svc, bound to the
// service id, recording the caller and time.
func (s *server) applyCallbackSecret(r *http.Request, svc *model.Service, c *adminapi.CredentialChange) error {
	if c == nil {
		return nil
	}
	now, by := s.now().UTC(), adminapi.CallerEmail(r)
	if c.Clear {
		svc.CallbackSecret = model.NewCredential("", now, by)
		return nil
	}
	if s.secrets == nil {
		return apierr.New(apierr.AdmInternal, "the callback secret cannot be stored: no secret key is configured")
	}
	sealed, err := s.secrets.Seal([]byte(c.Value), model.CallbackSecretAAD(svc.ServiceID))
	if err != nil {
		return apierr.Internal(apierr.AdmInternal, err)
	}
	svc.CallbackSecret = model.NewCredential(sealed, now, by)
	return nil
}
