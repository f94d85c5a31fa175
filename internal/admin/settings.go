package admin

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/store"
)

var docGetSettings = adminapi.Doc{
	Summary:  "Every mutable setting with its current value; credentials appear only as their metadata envelope.",
	Response: model.Settings{},
}

var docPatchSettings = adminapi.Doc{
	Summary: "Partial update of the settings, validated strictly and applied atomically with its audit event. " +
		"smtp_password is write-only: a string sets it, null clears it.",
	Request:  adminapi.SettingsPatchBody{},
	Response: model.Settings{},
}

// getSettings answers the current settings.
func (s *server) getSettings(w http.ResponseWriter, r *http.Request) error {
	settings, err := s.store.Settings(r.Context())
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, settings)
}

// patchSettings validates and applies a partial settings update. The writes,
// the audit event and the configuration revision bump commit together or
// not at all.
func (s *server) patchSettings(w http.ResponseWriter, r *http.Request) error {
	var members map[string]jsontext.Value
	if err := adminapi.DecodeJSON(w, r, &members); err != nil {
		return err
	}
	raw := make(map[string]json.RawMessage, len(members))
	for k, v := range members {
		raw[k] = json.RawMessage(v)
	}
	patch, err := model.ParseSettingsPatch(raw)
	if err != nil {
		return settingsError(err)
	}
	var after model.Settings
	err = s.store.Transact(r.Context(), func(tx *store.Tx) error {
		after, err = s.applySettingsPatch(r, tx, patch)
		return err
	})
	if err != nil {
		return settingsError(err)
	}
	c, _ := access.CallerFrom(r.Context())
	s.log.InfoContext(r.Context(), "admin: settings updated", "settings", patch.Names(), "actor", c.Email)
	return adminapi.WriteJSON(w, http.StatusOK, after)
}

// applySettingsPatch runs inside the PATCH transaction. The revision bump
// comes first: on PostgreSQL it locks the revision row, so concurrent
// settings changes apply one after another and each validates against the
// state it replaces.
func (s *server) applySettingsPatch(r *http.Request, tx *store.Tx, patch model.SettingsPatch) (model.Settings, error) {
	ctx := r.Context()
	names := patch.Names()
	if len(names) == 0 {
		return tx.Settings(ctx)
	}
	if _, err := tx.BumpRevision(ctx); err != nil {
		return model.Settings{}, err
	}
	before, err := tx.Settings(ctx)
	if err != nil {
		return model.Settings{}, err
	}
	merged := before
	if err := patch.ApplyValues(&merged); err != nil {
		return model.Settings{}, err
	}
	for _, name := range names {
		if err := s.writeSetting(ctx, tx, patch, name); err != nil {
			return model.Settings{}, err
		}
	}
	after, err := tx.Settings(ctx)
	if err != nil {
		return model.Settings{}, err
	}
	event := adminapi.AuditEvent(r, "settings.update", "settings", "settings", "updated settings: "+changedNames(names),
		settingsSubset(&before, names), settingsSubset(&after, names))
	return after, tx.InsertAudit(ctx, event)
}

// writeSetting stores one changed setting; a credential is sealed first,
// bound to its setting name, and null deletes it.
func (s *server) writeSetting(ctx context.Context, tx *store.Tx, patch model.SettingsPatch, name string) error {
	c, _ := access.CallerFrom(ctx)
	row := store.SettingRow{Name: name, Value: patch.Values[name], UpdatedAt: s.now(), UpdatedBy: c.Email}
	if plain, isCredential := patch.Credentials[name]; isCredential {
		if plain == nil {
			if err := tx.DeleteSetting(ctx, name); err != nil {
				return err
			}
			return s.settingWritten(name)
		}
		if s.secrets == nil {
			return apierr.New(apierr.AdmUnavailable, "credential encryption is not configured")
		}
		sealed, err := s.secrets.Seal([]byte(*plain), settingAAD(name))
		if err != nil {
			return err
		}
		row.Value, _ = json.Marshal(sealed)
	}
	if err := tx.PutSetting(ctx, row); err != nil {
		return err
	}
	return s.settingWritten(name)
}

// settingWritten runs the test hook, if any.
func (s *server) settingWritten(name string) error {
	if s.afterSettingWrite == nil {
		return nil
	}
	return s.afterSettingWrite(name)
}

// settingAAD binds a sealed credential to its setting (secret.SettingAAD).
func settingAAD(name string) string { return secret.SettingAAD(name) }

// settingsSubset returns the named settings of s as a JSON object; a
// credential appears as its metadata envelope, never its value.
func settingsSubset(s *model.Settings, names []string) map[string]any {
	out := make(map[string]any, len(names))
	for _, name := range names {
		if spec, ok := model.LookupSetting(name); ok {
			out[name] = spec.Value(s)
		}
	}
	return out
}

// settingsError maps a settings validation error to S2R-VAL-0400 with
// details.field (and details.index for a list item).
func settingsError(err error) error {
	var fe *model.FieldError
	if !errors.As(err, &fe) {
		return err
	}
	e := adminapi.FieldError(fe.Field, fe.Reason)
	if fe.Index >= 0 {
		e = e.WithDetail("index", fe.Index)
	}
	return e
}
