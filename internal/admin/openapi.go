package admin

import (
	"net/http"
	"strconv"
	"sync"

	"github.com/s2r-project/s2r/internal/adminapi"
)

var docGetOpenAPI = adminapi.Doc{
	Summary:  "This OpenAPI 3.1 document, describing every admin endpoint.",
	Response: map[string]any{},
}

// openAPICache holds the rendered document; routes do not change after
// start-up.
type openAPICache struct {
	once sync.Once
	body []byte
	err  error
}

// getOpenAPI serves the document.
func (s *server) getOpenAPI(w http.ResponseWriter, r *http.Request) error {
	s.openapi.once.Do(func() { s.openapi.body, s.openapi.err = adminapi.OpenAPIJSON(s.routes, s.version) })
	if s.openapi.err != nil {
		return s.openapi.err
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(s.openapi.body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(s.openapi.body)
	return nil
}
