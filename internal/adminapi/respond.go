package adminapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// WriteJSON writes v as a JSON response with status.
func WriteJSON(w http.ResponseWriter, status int, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	// Once the status is sent nothing more can be rendered, so a write
	// error (a gone client) is not returned.
	_, _ = w.Write(buf.Bytes())
	return nil
}

// Now is the current time as the store keeps it (UTC, microseconds), so a
// timestamp answered at creation equals the one read back later.
func Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }
