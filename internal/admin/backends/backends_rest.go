package backends

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/fetch"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/upstream"
)

// restTestBody is the body of :test-rest.
type restTestBody struct {
	Method string         `json:"method"`
	Path   string         `json:"path"`
	Body   jsontext.Value `json:"body"`
}

// restTestDoc documents restTestBody.
type restTestDoc struct {
	Method string          `json:"method"`
	Path   string          `json:"path,omitempty"`
	Body   json.RawMessage `json:"body,omitempty"`
}

var docTestREST = adminapi.Doc{
	Summary: "REST test of a consume service's backend: method (GET, POST, PUT, PATCH, DELETE) and path (relative " +
		"to the profile's endpointUrl, may carry a query) with an optional JSON body, sent with the profile's auth " +
		"(basic, bearer, api_key_header, oauth2_client_credentials), timeout and retry. The preview is saved and " +
		"answered; backend failures are a 200 with status failed. Other directions are 400.",
	Request:  restTestDoc{},
	Response: model.TestPreview{},
}

// restMethods are the methods :test-rest sends.
var restMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE"}

// testREST calls the REST backend of a consume service.
func (s *Handlers) testREST(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	p, err := profileOrNotFound(s.store.BackendProfile(ctx, r.PathValue("profileId")))
	if err != nil {
		return err
	}
	var body restTestBody
	if err := adminapi.DecodeJSON(w, r, &body); err != nil {
		return err
	}
	svc, err := s.store.Service(ctx, p.ServiceID)
	if err != nil {
		return err
	}
	if svc.Direction != model.DirectionConsume {
		return adminapi.FieldError("", "test-rest calls the REST backend of a consume service; this service is "+svc.Direction)
	}
	body.Method = strings.ToUpper(body.Method)
	if !slices.Contains(restMethods, body.Method) {
		return adminapi.FieldError("method", "must be one of "+strings.Join(restMethods, ", "))
	}
	target, err := restTarget(p.EndpointURL, body.Path)
	if err != nil {
		return err
	}
	settings, err := s.store.Settings(ctx)
	if err != nil {
		return err
	}
	req := callRequest{URL: fetch.RedactString(target), Method: body.Method}
	call := upstream.Request{Method: body.Method, URL: target, Header: http.Header{"Accept": {"application/json"}},
		Timeout: callTimeout(nil, p.TimeoutMs, settings.DefaultTimeoutMs), MaxResponseBytes: settings.MaxPayloadMB << 20}
	if len(body.Body) > 0 && body.Body.Kind() != 'n' {
		req.Payload = json.RawMessage(body.Body.Clone())
		call.Body = req.Payload
		call.Header.Set("Content-Type", "application/json")
	}
	var res callResult
	b, err := upstream.Open(s.secrets, p)
	if err == nil {
		var resp *upstream.Response
		resp, err = s.client.Do(ctx, b, call)
		if err == nil {
			res = restAnswer(resp)
		}
	}
	if err != nil {
		res = failed(err)
	}
	preview, err := s.savePreview(ctx, model.TestPreview{ProfileID: p.ProfileID, Kind: model.PreviewREST,
		Status: res.Status, HTTPStatus: res.HTTPStatus, LatencyMs: res.latency.Milliseconds(), CreatedBy: adminapi.CallerEmail(r)}, req, res)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, preview)
}

// restTarget joins a relative path (with an optional query) to the
// profile's base URL. The path may not leave the base path.
func restTarget(base, path string) (string, error) {
	if path == "" {
		return base, nil
	}
	if !strings.HasPrefix(path, "/") || strings.HasPrefix(path, "//") {
		return "", adminapi.FieldError("path", "must start with a single /")
	}
	rel, err := url.Parse(path)
	if err != nil || rel.Host != "" || rel.Scheme != "" || rel.Fragment != "" {
		return "", adminapi.FieldError("path", "must be a path with an optional query")
	}
	for _, seg := range strings.Split(rel.Path, "/") {
		if seg == ".." || seg == "." {
			return "", adminapi.FieldError("path", "must not contain . or .. segments")
		}
	}
	u, _ := url.Parse(base) // validated when written
	u.Path = strings.TrimRight(u.Path, "/") + rel.Path
	u.RawPath = ""
	if rel.RawQuery != "" {
		u.RawQuery = rel.RawQuery
	}
	return u.String(), nil
}

// restAnswer keeps the answer's JSON (when it is JSON) and text.
func restAnswer(resp *upstream.Response) callResult {
	res := callResult{HTTPStatus: resp.StatusCode, Body: previewText(resp.Body), latency: resp.Latency,
		Attempts: resp.Attempts, Status: model.PreviewStatusSucceeded}
	if json.Valid(resp.Body) && len(resp.Body) > 0 {
		res.JSON = resp.Body
		res.Body = ""
	}
	if resp.StatusCode/100 != 2 {
		res.Status = model.PreviewStatusFailed
		res.Error = &CallError{Code: apierr.RunBackendFault, Message: "the backend answered HTTP " + strconv.Itoa(resp.StatusCode)}
	}
	return res
}
