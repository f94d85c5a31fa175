package httpx

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/s2r-project/s2r/internal/correlation"
)

func TestCorrelation(t *testing.T) {
	var seen string
	var seenOrigin correlation.Origin
	srv := serve(t, Correlation(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = CorrelationID(r.Context())
		seenOrigin = CorrelationOrigin(r.Context())
	})))
	tests := []struct {
		name     string
		supplied string
		keep     bool
		origin   correlation.Origin
	}{
		{"absent", "", false, correlation.Generated},
		{"usable", "order-42_ABC", true, correlation.Supplied},
		{"too long", strings.Repeat("x", 129), false, correlation.Replaced},
		{"max length", strings.Repeat("x", 128), true, correlation.Supplied},
		{"space", "has space", false, correlation.Replaced},
		{"non-ascii", "caf\u00e9", false, correlation.Replaced},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", srv.URL, nil)
			if tt.supplied != "" {
				req.Header.Set("X-Correlation-Id", tt.supplied)
			}
			resp, _ := do(t, req)
			if seenOrigin != tt.origin {
				t.Errorf("origin = %d, want %d", seenOrigin, tt.origin)
			}
			got := resp.Header.Get("X-Correlation-Id")
			if got != seen {
				t.Errorf("header %q != context %q", got, seen)
			}
			if tt.keep {
				if got != tt.supplied {
					t.Errorf("id = %q, want the supplied %q", got, tt.supplied)
				}
				return
			}
			u, err := uuid.Parse(got)
			if err != nil || u.Version() != 7 {
				t.Errorf("id = %q, want a generated UUIDv7 (err %v)", got, err)
			}
		})
	}
}
