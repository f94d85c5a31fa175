package store

import (
	"encoding/json"
	"fmt"

	"github.com/s2r-project/s2r/internal/model"
)

// wsSecurityText encodes the ws_security column of a backend profile: the
// outbound WS-Security configuration as JSON, "" for none. It holds no
// secret (those are in the credentials column).
func wsSecurityText(w *model.WSSecurity) (string, error) {
	if w == nil {
		return "", nil
	}
	b, err := json.Marshal(w)
	if err != nil {
		return "", fmt.Errorf("ws_security: %w", err)
	}
	return string(b), nil
}

// parseWSSecurity decodes the ws_security column; "" is nil.
func parseWSSecurity(text string) (*model.WSSecurity, error) {
	if text == "" {
		return nil, nil
	}
	var w model.WSSecurity
	if err := json.Unmarshal([]byte(text), &w); err != nil {
		return nil, fmt.Errorf("ws_security column: %w", err)
	}
	return &w, nil
}
