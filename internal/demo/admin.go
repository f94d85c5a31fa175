package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Admin calls s2r's admin API. With S2R_DEV_IDENTITY set (as `s2r demo`
// sets it), a request from this machine without identity headers acts as
// that identity, so the client sends none: it does exactly what a curl
// command on the same machine would.
type Admin struct {
	// BaseURL is where /admin/v1 is served: http://127.0.0.1:8080.
	BaseURL string
	// HTTP is the client; nil uses one with a 30-second timeout.
	HTTP *http.Client
}

// maxAnswer bounds an admin answer the client reads.
const maxAnswer = 8 << 20

// call sends a JSON request (body nil: none) to path below /admin/v1 and
// decodes the answer into out (nil: ignored). An answer other than want
// is an error that quotes the start of its body.
func (a Admin) call(ctx context.Context, method, path string, body any, want int, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(a.BaseURL, "/")+"/admin/v1"+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	client := a.HTTP
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s answered %d: %.600s", method, path, resp.StatusCode, answer)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(answer, out); err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	return nil
}

// service, version, operation and profile are the members of the admin
// API's answers the demo reads.
type (
	service struct {
		ServiceID  string `json:"serviceId"`
		ServiceKey string `json:"serviceKey"`
		Direction  string `json:"direction"`
		Status     string `json:"status"`
	}
	version struct {
		VersionID     string `json:"versionId"`
		VersionNumber int    `json:"versionNumber"`
		Status        string `json:"status"`
	}
	operation struct {
		OperationID       string `json:"operationId"`
		SOAPOperationName string `json:"soapOperationName"`
		RestMethod        string `json:"restMethod"`
		RestPath          string `json:"restPath"`
	}
	profile struct {
		ProfileID   string `json:"profileId"`
		EndpointURL string `json:"endpointUrl"`
	}
)

// findService answers the service of direction and key in env, or nil.
func (a Admin) findService(ctx context.Context, env, direction, key string) (*service, error) {
	var page struct {
		Items []service `json:"items"`
	}
	path := "/services?environment=" + env + "&direction=" + direction + "&q=" + key + "&pageSize=100"
	if err := a.call(ctx, http.MethodGet, path, nil, http.StatusOK, &page); err != nil {
		return nil, err
	}
	for _, s := range page.Items {
		if s.ServiceKey == key && s.Direction == direction {
			return &s, nil
		}
	}
	return nil, nil
}

// versions answers the versions of a service.
func (a Admin) versions(ctx context.Context, serviceID string) ([]version, error) {
	var list struct {
		Items []version `json:"items"`
	}
	err := a.call(ctx, http.MethodGet, "/services/"+serviceID+"/versions", nil, http.StatusOK, &list)
	return list.Items, err
}

// operations answers the operations of a version.
func (a Admin) operations(ctx context.Context, serviceID, versionID string) ([]operation, error) {
	var list struct {
		Items []operation `json:"items"`
	}
	err := a.call(ctx, http.MethodGet, "/services/"+serviceID+"/versions/"+versionID+"/operations", nil, http.StatusOK, &list)
	return list.Items, err
}

// profiles answers the backend profiles of a service.
func (a Admin) profiles(ctx context.Context, serviceID string) ([]profile, error) {
	var list []profile
	err := a.call(ctx, http.MethodGet, "/services/"+serviceID+"/backend-profiles", nil, http.StatusOK, &list)
	return list, err
}
