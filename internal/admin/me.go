package admin

import (
	"net/http"

	"github.com/s2r-project/s2r/internal/access"
)

var docGetMe = opDoc{
	summary:  "Resolved caller identity, application role, tenant and the sources that granted the role.",
	response: access.Caller{},
}

// getMe answers the caller as resolved by authorization.
func (s *server) getMe(w http.ResponseWriter, r *http.Request) error {
	c, _ := access.CallerFrom(r.Context())
	return writeJSON(w, http.StatusOK, c)
}
