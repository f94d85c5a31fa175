package backends

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

var docListBackendProfiles = adminapi.Doc{
	Summary: "Backend profiles of a service in routing order (routingPriority, then creation). Credentials appear only " +
		"as the metadata envelope {set, lastUpdatedAt, lastUpdatedBy}.",
	Response: []model.BackendProfile{},
}

var docCreateBackendProfile = adminapi.Doc{
	Summary: "Create a backend profile. endpointUrl (http or https, no user information) is required; authType defaults " +
		"to none; basic needs username, oauth2_client_credentials tokenUrl and clientId, api_key_header a header name " +
		"(default X-API-Key); mtlsEnabled needs clientCertPem. wsSecurity (DESIGN 10.1) adds a WS-Security header to " +
		"SOAP calls: usernameToken needs credentials.wssPassword, signature credentials.wssSigningKeyPem matching its " +
		"certificatePem; wsAddressing sends WS-Addressing headers on synchronous publish. credentials members are " +
		"stored encrypted and never returned. The first profile of a service, or one with isDefault true, becomes the " +
		"service's default.",
	Request:  backendProfileBody{},
	Response: model.BackendProfile{},
	Status:   http.StatusCreated,
	Errors:   []int{http.StatusConflict},
}

var docPatchBackendProfile = adminapi.Doc{
	Summary: "Partial update of a backend profile: endpoint, auth, certificates, transport timing, timeout, retry and " +
		"routing. In credentials a string sets a secret, null clears it, an absent member keeps it. isDefault true " +
		"makes the profile the service default; false hands the default to the next profile by routingPriority.",
	Request:  backendProfileBody{},
	Response: model.BackendProfile{},
	Errors:   []int{http.StatusConflict},
}

var docDeleteBackendProfile = adminapi.Doc{
	Summary: "Delete a backend profile and its test previews. When it was the service default, the next profile by " +
		"routingPriority becomes the default. The last profile of an active service with an active version is 409 " +
		"S2R-ADM-0410 (the runtime would have no backend).",
	Status: http.StatusNoContent,
	Errors: []int{http.StatusConflict},
}

// listBackendProfiles answers the profiles of a service.
func (s *Handlers) listBackendProfiles(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("serviceId")
	if _, err := adminapi.ServiceOrNotFound(s.store.Service(r.Context(), id)); err != nil {
		return err
	}
	out, err := s.store.BackendProfiles(r.Context(), id)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}

// createBackendProfile creates a profile of a service.
func (s *Handlers) createBackendProfile(w http.ResponseWriter, r *http.Request) error {
	serviceID := r.PathValue("serviceId")
	var members map[string]jsontext.Value
	if err := adminapi.DecodeJSON(w, r, &members); err != nil {
		return err
	}
	edit, err := decodeProfileEdit(members)
	if err != nil {
		return err
	}
	now := s.now().UTC()
	p := model.BackendProfile{ProfileID: adminapi.NewID(), ServiceID: serviceID, AuthType: model.AuthNone,
		CreatedAt: now, UpdatedAt: now}
	if err := applyProfileMembers(&p, edit.members); err != nil {
		return err
	}
	model.ApplyBackendDefaults(&p)
	if err := s.applyCredentials(r, &p, edit.creds); err != nil {
		return err
	}
	if err := checkProfile(p, edit.creds[model.CredClientKeyPEM].Value); err != nil {
		return err
	}
	if err := s.checkWSSecurity(p, edit.creds); err != nil {
		return err
	}
	ctx := r.Context()
	err = s.store.ChangeConfig(ctx, func(tx *store.Tx) error {
		svc, err := adminapi.ServiceOrNotFound(tx.Service(ctx, serviceID))
		if err != nil {
			return err
		}
		if p.Name == "" {
			p.Name, err = freeProfileName(ctx, tx, serviceID)
			if err != nil {
				return err
			}
		}
		if err := tx.CreateBackendProfile(ctx, p); err != nil {
			return profileConflict(err)
		}
		if svc.DefaultBackendProfileID == nil || (edit.isDefault != nil && *edit.isDefault) {
			if err := setDefaultProfile(ctx, tx, svc, &p.ProfileID, now); err != nil {
				return err
			}
		}
		p, err = tx.BackendProfile(ctx, p.ProfileID)
		if err != nil {
			return err
		}
		return tx.InsertAudit(ctx, adminapi.AuditEvent(r, "backend_profile.create", "backend_profile", p.ProfileID,
			"created backend profile "+p.Name+" of service "+serviceID, nil, p))
	})
	if err != nil {
		return err
	}
	w.Header().Set("Location", adminapi.Prefix+"/backend-profiles/"+p.ProfileID)
	return adminapi.WriteJSON(w, http.StatusCreated, p)
}

// patchBackendProfile applies a partial update.
func (s *Handlers) patchBackendProfile(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("profileId")
	var members map[string]jsontext.Value
	if err := adminapi.DecodeJSON(w, r, &members); err != nil {
		return err
	}
	edit, err := decodeProfileEdit(members)
	if err != nil {
		return err
	}
	ctx := r.Context()
	var after model.BackendProfile
	err = s.store.ChangeConfig(ctx, func(tx *store.Tx) error {
		before, err := profileOrNotFound(tx.BackendProfile(ctx, id))
		if err != nil {
			return err
		}
		p := before
		if err := applyProfileMembers(&p, edit.members); err != nil {
			return err
		}
		model.ApplyBackendDefaults(&p)
		if err := s.applyCredentials(r, &p, edit.creds); err != nil {
			return err
		}
		key, err := s.clientKeyForCheck(p, edit)
		if err != nil {
			return err
		}
		if err := checkProfile(p, key); err != nil {
			return err
		}
		if err := s.checkWSSecurity(p, edit.creds); err != nil {
			return err
		}
		p.UpdatedAt = s.now().UTC()
		if !p.UpdatedAt.After(before.UpdatedAt) { // the transport cache keys on it
			p.UpdatedAt = before.UpdatedAt.Add(1000)
		}
		if err := tx.UpdateBackendProfile(ctx, p); err != nil {
			return profileConflict(err)
		}
		if err := s.applyIsDefault(ctx, tx, p, edit.isDefault); err != nil {
			return err
		}
		if after, err = tx.BackendProfile(ctx, id); err != nil {
			return err
		}
		return tx.InsertAudit(ctx, adminapi.AuditEvent(r, "backend_profile.update", "backend_profile", id,
			"updated backend profile "+after.Name+" ("+strings.Join(sortedProfileChanges(members), ", ")+")", before, after))
	})
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, after)
}

// clientKeyForCheck returns the mTLS key to check against the certificate:
// the new key when one is set, else the stored one when the certificate
// changed, else "" (nothing to check).
func (s *Handlers) clientKeyForCheck(p model.BackendProfile, edit profileEdit) (string, error) {
	if c, ok := edit.creds[model.CredClientKeyPEM]; ok {
		return c.Value, nil
	}
	if _, certChanged := edit.members["clientCertPem"]; !certChanged || !p.Credentials.ClientKeyPEM.IsSet() {
		return "", nil
	}
	if s.secrets == nil {
		return "", nil
	}
	key, err := s.secrets.Open(p.Credentials.ClientKeyPEM.Sealed(), model.CredentialAAD(p.ProfileID, model.CredClientKeyPEM))
	if err != nil {
		return "", apierr.Internal(apierr.AdmInternal, err)
	}
	return string(key), nil
}

// applyIsDefault makes p the service default (true) or hands the default
// to the next profile (false, when p was the default).
func (s *Handlers) applyIsDefault(ctx context.Context, tx *store.Tx, p model.BackendProfile, want *bool) error {
	if want == nil || *want == p.IsDefault {
		return nil
	}
	svc, err := tx.Service(ctx, p.ServiceID)
	if err != nil {
		return err
	}
	if *want {
		return setDefaultProfile(ctx, tx, svc, &p.ProfileID, s.now().UTC())
	}
	next, err := nextDefault(ctx, tx, p.ServiceID, p.ProfileID)
	if err != nil {
		return err
	}
	return setDefaultProfile(ctx, tx, svc, next, s.now().UTC())
}

// deleteBackendProfile removes a profile, reassigning the default.
func (s *Handlers) deleteBackendProfile(w http.ResponseWriter, r *http.Request) (err error) {
	id := r.PathValue("profileId")
	ctx := r.Context()
	err = s.store.ChangeConfig(ctx, func(tx *store.Tx) error {
		before, err := profileOrNotFound(tx.BackendProfile(ctx, id))
		if err != nil {
			return err
		}
		svc, err := tx.Service(ctx, before.ServiceID)
		if err != nil {
			return err
		}
		next, err := nextDefault(ctx, tx, svc.ServiceID, id)
		if err != nil {
			return err
		}
		if next == nil && svc.Status == model.ServiceActive && svc.ActiveVersionID != nil {
			return apierr.New(apierr.AdmImmutable, "the last backend profile of an active service with an active "+
				"version cannot be deleted; add another profile or disable the service first")
		}
		if before.IsDefault {
			if err := setDefaultProfile(ctx, tx, svc, next, s.now().UTC()); err != nil {
				return err
			}
		}
		if err := tx.DeleteBackendProfile(ctx, id); err != nil {
			return err
		}
		return tx.InsertAudit(ctx, adminapi.AuditEvent(r, "backend_profile.delete", "backend_profile", id,
			"deleted backend profile "+before.Name+" of service "+before.ServiceID, before, nil))
	})
	if err != nil {
		return err
	}
	s.client.Forget(id)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// nextDefault returns the id of the first profile of the service by
// routing order other than except, nil when there is none.
func nextDefault(ctx context.Context, tx *store.Tx, serviceID, except string) (*string, error) {
	profiles, err := tx.BackendProfiles(ctx, serviceID)
	if err != nil {
		return nil, err
	}
	for _, p := range profiles {
		if p.ProfileID != except {
			id := p.ProfileID
			return &id, nil
		}
	}
	return nil, nil
}

// setDefaultProfile points the service's defaultBackendProfileId at id
// (nil for none).
func setDefaultProfile(ctx context.Context, tx *store.Tx, svc model.Service, id *string, now time.Time) error {
	svc.DefaultBackendProfileID, svc.UpdatedAt = id, now
	return tx.UpdateService(ctx, svc)
}

// freeProfileName returns "default", or "backend-N" for the first N not
// taken, for a profile created without a name.
func freeProfileName(ctx context.Context, tx *store.Tx, serviceID string) (string, error) {
	profiles, err := tx.BackendProfiles(ctx, serviceID)
	if err != nil {
		return "", err
	}
	taken := map[string]bool{}
	for _, p := range profiles {
		taken[p.Name] = true
	}
	name := "default"
	for n := 2; taken[name]; n++ {
		name = "backend-" + strconv.Itoa(n)
	}
	return name, nil
}

// applyCredentials seals the requested credential changes into p. Each
// change records the caller and time; values are bound to the profile id
// and field so a ciphertext moved elsewhere does not open.
func (s *Handlers) applyCredentials(r *http.Request, p *model.BackendProfile, changes map[string]adminapi.CredentialChange) error {
	if len(changes) == 0 {
		return nil
	}
	now, by := s.now().UTC(), adminapi.CallerEmail(r)
	for name, c := range changes {
		f := p.Credentials.Field(name)
		if c.Clear {
			*f = model.NewCredential("", now, by)
			continue
		}
		if s.secrets == nil {
			return apierr.New(apierr.AdmInternal, "credentials cannot be stored: no secret key is configured")
		}
		sealed, err := s.secrets.Seal([]byte(c.Value), model.CredentialAAD(p.ProfileID, name))
		if err != nil {
			return apierr.Internal(apierr.AdmInternal, err)
		}
		*f = model.NewCredential(sealed, now, by)
	}
	return nil
}

// sortedProfileChanges names the changed members for the audit message;
// credentials are named by field only.
func sortedProfileChanges(members map[string]jsontext.Value) []string {
	return adminapi.SortedNames(members)
}

// profileOrNotFound maps ErrNotFound to 404 S2R-ADM-0404.
func profileOrNotFound(p model.BackendProfile, err error) (model.BackendProfile, error) {
	if errors.Is(err, store.ErrNotFound) {
		return p, apierr.New(apierr.AdmNotFound, "backend profile not found")
	}
	return p, err
}

// profileConflict maps a duplicate profile name to 409 S2R-ADM-0409.
func profileConflict(err error) error {
	if errors.Is(err, store.ErrAlreadyExists) {
		return apierr.Wrap(apierr.AdmAlreadyExists, err, "the service already has a backend profile with this name").
			WithDetail("field", "name")
	}
	return err
}
