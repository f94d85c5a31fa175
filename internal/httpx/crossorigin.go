package httpx

import (
	"net/http"

	"github.com/s2r-project/s2r/internal/apierr"
)

// CrossOrigin refuses state-changing browser requests sent from another
// origin (cross-site request forgery) with 403 S2R-ADM-0403, using the
// browser's Sec-Fetch-Site header or, without it, Origin against Host
// (net/http's CrossOriginProtection). GET, HEAD and OPTIONS pass, and so
// does every non-browser client, which sends neither header. It guards the
// admin surface: an identity-aware ingress authenticates a browser with a
// cookie, so without this a page on another site could make the browser
// post, for example, a multipart WSDL import.
func CrossOrigin(next http.Handler) http.Handler {
	p := http.NewCrossOriginProtection()
	p.SetDenyHandler(apierr.AdminHandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
		return apierr.New(apierr.AdmForbidden, "cross-origin request refused: the admin API accepts changes only from its own origin").
			WithDetail("reason", "cross_origin")
	}))
	return p.Handler(next)
}
