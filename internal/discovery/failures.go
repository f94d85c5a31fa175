package discovery

import (
	"net/http"
	"strconv"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
)

// Failures limits (SPEC 4.9, 8).
const (
	defaultFailures = 20
	maxFailures     = 200
)

// Failures is the failures answer (SPEC 4.9).
type Failures struct {
	ServiceURI string         `json:"serviceUri"`
	Failures   []ExchangeView `json:"failures"`
	Count      int            `json:"count"`
	// Partial is true when the list is only the most recent slice: more
	// failures exist than limit, or a bounded scan ended early. Absence
	// of other failures then proves nothing.
	Partial bool `json:"partial"`
}

var docGetFailures = adminapi.Doc{
	Summary: "Most recent failing calls of one master discovery row, lb and generic (SPEC 4.9 scoping), newest first. " +
		"A call fails on a SOAP fault, an HTTP status of 500 or more, or a result code other than ok/success.",
	Query:    []adminapi.Param{{Name: "limit", Type: "integer", Description: "1..200, default 20"}},
	Response: Failures{}, Errors: []int{http.StatusNotFound},
}

// getFailures answers a row's recent failures.
func (s *Service) getFailures(w http.ResponseWriter, r *http.Request) error {
	limit := defaultFailures
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxFailures {
			return adminapi.FieldError("limit", "must be an integer between 1 and 200")
		}
		limit = n
	}
	row, err := s.loadRow(r)
	if err != nil {
		return err
	}
	// One more than asked: finding it means the list is a slice.
	xs, exhausted, err := s.exchanges(r.Context(), row, model.SourceAll, earliestEvent, true, limit+1)
	if err != nil {
		return err
	}
	partial := exhausted || len(xs) > limit
	if len(xs) > limit {
		xs = xs[:limit]
	}
	views := exchangeViews(xs)
	return writeJSON(w, http.StatusOK, Failures{ServiceURI: row.ServiceURI, Failures: views, Count: len(views), Partial: partial})
}
