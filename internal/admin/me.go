package admin

import (
	"net/http"

	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/adminapi"
)

var docGetMe = adminapi.Doc{
	Summary:  "Resolved caller identity, application role, tenant and the sources that granted the role.",
	Response: access.Caller{},
}

// getMe answers the caller as resolved by authorization.
func (s *server) getMe(w http.ResponseWriter, r *http.Request) error {
	c, _ := access.CallerFrom(r.Context())
	return adminapi.WriteJSON(w, http.StatusOK, c)
}
