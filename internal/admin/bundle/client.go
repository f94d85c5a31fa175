package bundle

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/s2r-project/s2r/internal/access"
)

// ExportRequest is what `s2r bundle export` asks a server for.
type ExportRequest struct {
	// Server is the base URL of the s2r admin listener.
	Server       string
	Environments []string
	ServiceKeys  []string
	// Identity is the caller's e-mail, sent as X-Idp-Authenticated-User-Email.
	Identity string
	// YAML asks for YAML instead of JSON.
	YAML bool
	// Client sends the request; nil uses http.DefaultClient.
	Client *http.Client
}

// maxBundleBytes bounds the answer the client reads.
const maxBundleBytes = 256 << 20

// RefusedError is a server's refusal: its status and error body.
type RefusedError struct {
	Status int
	Body   string
}

// Error implements error.
func (e *RefusedError) Error() string {
	return fmt.Sprintf("the server answered %d: %s", e.Status, strings.TrimSpace(e.Body))
}

// Export fetches the bundle GET /admin/v1/bundle answers for req. A
// server that answers anything but 200 is a *RefusedError.
func Export(ctx context.Context, req ExportRequest) ([]byte, error) {
	u, err := serverURL(req.Server, "/bundle")
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	for _, e := range req.Environments {
		q.Add("environment", e)
	}
	for _, k := range req.ServiceKeys {
		q.Add("serviceKey", k)
	}
	u.RawQuery = q.Encode()
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	r.Header.Set("Accept", "application/json")
	if req.YAML {
		r.Header.Set("Accept", "application/yaml")
	}
	return send(req.Client, r, req.Identity)
}

// serverURL is the admin API URL of path on server, which must be an http
// or https URL.
func serverURL(server, path string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimRight(server, "/") + "/admin/v1" + path)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("bundle: the server must be an http or https URL")
	}
	return u, nil
}

// send sends r as identity with c (nil: http.DefaultClient) and returns
// the answer's body: a status other than 200 is a *RefusedError, a body
// over maxBundleBytes an error.
func send(c *http.Client, r *http.Request, identity string) ([]byte, error) {
	r.Header.Set(access.HeaderEmail, identity)
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(r)
	if err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBundleBytes+1))
	if err != nil {
		return nil, fmt.Errorf("bundle: read the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &RefusedError{Status: resp.StatusCode, Body: string(body)}
	}
	if len(body) > maxBundleBytes {
		return nil, fmt.Errorf("bundle: the answer is over %d MB", maxBundleBytes>>20)
	}
	return body, nil
}
