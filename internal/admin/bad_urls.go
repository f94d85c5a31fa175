package admin

import (
	"net/http"
	"strconv"
	"time"

	"github.com/s2r-project/s2r/internal/adminapi"
)

// Bad-URL summary bounds (SPEC 8): windowHours defaults to 24 and is
// clamped to 1..720; at most maxBadURLPaths paths, the most frequent.
const (
	defaultBadURLWindowHours = 24
	maxBadURLWindowHours     = 720
	maxBadURLPaths           = 1000
)

var docGetBadURLSummary = adminapi.Doc{
	Summary: "Attempts at unmapped runtime URLs (rejected with S2R-RUN-0405, or 404 S2R-RUN-0404 for a path that names no active service) " +
		"in the last windowHours, grouped by attempted path: " +
		"a JSON object from path to {count, lastSeenAt, methods}. At most the 1000 most frequent paths.",
	Query:    []adminapi.Param{{Name: "windowHours", Type: "integer", Description: "hours back from now; default 24, clamped to 1..720"}},
	Response: map[string]badURLEntry{},
}

// badURLEntry is the summary of the attempts at one path.
type badURLEntry struct {
	Count      int64     `json:"count"`
	LastSeenAt time.Time `json:"lastSeenAt"`
	Methods    []string  `json:"methods"`
}

// getBadURLSummary answers the bad-URL summary (SPEC 4.10).
func (s *server) getBadURLSummary(w http.ResponseWriter, r *http.Request) error {
	hours := defaultBadURLWindowHours
	if v := r.URL.Query().Get("windowHours"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return adminapi.FieldError("windowHours", "must be an integer (clamped to 1..720)")
		}
		hours = min(max(n, 1), maxBadURLWindowHours)
	}
	groups, err := s.store.BadURLGroups(r.Context(), s.now().Add(-time.Duration(hours)*time.Hour), maxBadURLPaths)
	if err != nil {
		return err
	}
	out := make(map[string]badURLEntry, len(groups))
	for _, g := range groups {
		out[g.Path] = badURLEntry{Count: g.Count, LastSeenAt: g.LastSeenAt, Methods: g.Methods}
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}
