package store

import (
	"database/sql"
	"encoding/json"

	"github.com/s2r-project/s2r/internal/model"
)

// issuesText stores a transaction's validation issues as a JSON array,
// none as NULL (column runtime_tx_logs.validation_issues, migration 0019).
func issuesText(issues []model.ValidationIssue) any {
	if len(issues) == 0 {
		return nil
	}
	b, err := json.Marshal(issues)
	if err != nil {
		return nil // plain strings: cannot fail
	}
	return string(b)
}

// scanIssues reads the column issuesText wrote.
func scanIssues(v sql.NullString) ([]model.ValidationIssue, error) {
	if !v.Valid || v.String == "" {
		return nil, nil
	}
	var out []model.ValidationIssue
	if err := json.Unmarshal([]byte(v.String), &out); err != nil {
		return nil, err
	}
	return out, nil
}
