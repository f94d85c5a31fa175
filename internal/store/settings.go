package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// SettingRow is one stored setting: a setting changed from its default.
// Value is the JSON of the value; for a credential it is the JSON string of
// the sealed credential, which only internal/secret can open.
type SettingRow struct {
	Name      string
	Value     json.RawMessage
	UpdatedAt time.Time
	UpdatedBy string
}

// Settings returns every setting: defaults overlaid with the stored rows.
func (s *Store) Settings(ctx context.Context) (model.Settings, error) {
	return loadSettings(ctx, s.reader())
}

// Settings returns every setting as seen by the transaction.
func (tx *Tx) Settings(ctx context.Context) (model.Settings, error) {
	return loadSettings(ctx, tx)
}

// SealedSetting returns the sealed value of credential setting name and
// whether it is set.
func (s *Store) SealedSetting(ctx context.Context, name string) (string, bool, error) {
	var raw string
	err := s.reader().QueryRow(ctx, "SELECT value FROM settings WHERE name = $1", name).Scan(&raw)
	if errors.Is(err, ErrNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("store: sealed setting %s: %w", name, err)
	}
	var sealed string
	if err := json.Unmarshal([]byte(raw), &sealed); err != nil {
		return "", false, fmt.Errorf("store: sealed setting %s is not a JSON string", name)
	}
	return sealed, true, nil
}

// PutSetting inserts or replaces one stored setting.
func (tx *Tx) PutSetting(ctx context.Context, row SettingRow) error {
	_, err := tx.Exec(ctx, `INSERT INTO settings (name, value, updated_at, updated_by) VALUES ($1, $2, $3, $4)
		ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
		row.Name, string(row.Value), NewTime(row.UpdatedAt), row.UpdatedBy)
	if err != nil {
		return fmt.Errorf("store: put setting %s: %w", row.Name, err)
	}
	return nil
}

// DeleteSetting removes a stored setting, returning it to its default (for
// a credential: unset). Deleting a setting that is not stored is not an
// error.
func (tx *Tx) DeleteSetting(ctx context.Context, name string) error {
	if _, err := tx.Exec(ctx, "DELETE FROM settings WHERE name = $1", name); err != nil {
		return fmt.Errorf("store: delete setting %s: %w", name, err)
	}
	return nil
}

// loadSettings overlays the stored rows on the defaults. Rows naming a
// setting this binary does not know (left by a newer or older version) are
// ignored; a stored value that no longer validates is an error.
func loadSettings(ctx context.Context, q Querier) (model.Settings, error) {
	rows, err := settingRows(ctx, q)
	if err != nil {
		return model.Settings{}, err
	}
	s := model.DefaultSettings()
	for _, row := range rows {
		spec, ok := model.LookupSetting(row.Name)
		if !ok {
			continue
		}
		if spec.Kind == model.KindCredential {
			at := row.UpdatedAt
			spec.SetCredentialMetadata(&s, model.CredentialMetadata{Set: true, LastUpdatedAt: &at, LastUpdatedBy: row.UpdatedBy})
			continue
		}
		if err := spec.Apply(&s, row.Value); err != nil {
			return model.Settings{}, fmt.Errorf("store: stored setting %s: %w", row.Name, err)
		}
	}
	return s, nil
}

func settingRows(ctx context.Context, q Querier) ([]SettingRow, error) {
	rows, err := q.Query(ctx, "SELECT name, value, updated_at, updated_by FROM settings ORDER BY name")
	if err != nil {
		return nil, fmt.Errorf("store: settings: %w", err)
	}
	defer rows.Close()
	var out []SettingRow
	for rows.Next() {
		var (
			row   SettingRow
			value string
			at    Time
		)
		if err := rows.Scan(&row.Name, &value, &at, &row.UpdatedBy); err != nil {
			return nil, fmt.Errorf("store: settings: %w", err)
		}
		row.Value, row.UpdatedAt = json.RawMessage(value), at.Time
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: settings: %w", mapError(err))
	}
	return out, nil
}
