package admin

import (
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
)

// FuzzRuntimeLogFilter feeds arbitrary query strings to the runtime-log
// filter parser: it must never panic, and every refusal is a 400
// S2R-VAL-0400 naming a parameter.
func FuzzRuntimeLogFilter(f *testing.F) {
	for _, seed := range []string{
		"", "status=5xx", "status=404", "status=6xx", "status=%00", "resultCode=timeout,failed&resultCode=error",
		"resultCode=,", "direction=gateway", "window=60d&start=2026-01-01", "start=2026-01-02T00:00:00Z&end=2026-01-01",
		"correlationId=abc&serviceKey=%FF", "status=1XX", "status=-1", "status=99999999999999999999",
	} {
		f.Add(seed)
	}
	s := &server{now: func() time.Time { return time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC) }}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		fl, err := s.parseTxLogFilter(q)
		if err != nil {
			e := apierr.Resolve(err, apierr.AdmInternal)
			if e.Code != apierr.ValBadRequest || e.Details["field"] == nil {
				t.Fatalf("%q: error %v (code %s) does not name a parameter", raw, err, e.Code)
			}
			return
		}
		if fl.StatusMax != 0 && (fl.StatusMin < 100 || fl.StatusMax > 599 || fl.StatusMin > fl.StatusMax) {
			t.Fatalf("%q: status range %d..%d", raw, fl.StatusMin, fl.StatusMax)
		}
		for _, rc := range fl.ResultCodes {
			if !slices.Contains(resultCodes, rc) {
				t.Fatalf("%q: result code %q accepted", raw, rc)
			}
		}
	})
}
