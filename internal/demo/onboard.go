package demo

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// Environment is the environment of the demo services.
const Environment = "demo"

// The demo services' keys.
const (
	CalculatorKey = "calculator"
	QuotesKey     = "quotes"
)

// spec is one service the demo onboards.
type spec struct {
	direction, key, wsdl, backendURL string
	// rest sets the REST call of consume operations, by SOAP operation
	// name, while the version is a draft.
	rest map[string]restCall
}

type restCall struct{ Method, Path string }

// specs are the demo services for backends b.
func specs(b *Backends) []spec {
	return []spec{
		{direction: "publish", key: CalculatorKey, wsdl: CalculatorWSDL, backendURL: b.CalculatorURL},
		{direction: "consume", key: QuotesKey, wsdl: QuotesWSDL, backendURL: b.QuotesURL,
			rest: map[string]restCall{"GetQuote": {http.MethodGet, "/quotes/{symbol}"}}},
	}
}

// Onboard makes publish/demo/calculator and consume/demo/quotes active
// services whose backends are b. It is idempotent: a service that exists
// is kept (no duplicate) and only its backend URLs are updated, since the
// sample backends get new ports at every start.
func (a Admin) Onboard(ctx context.Context, b *Backends) error {
	for _, s := range specs(b) {
		if err := a.ensure(ctx, s); err != nil {
			return fmt.Errorf("onboarding %s/%s/%s: %w", s.direction, Environment, s.key, err)
		}
	}
	return nil
}

// ensure finds or imports the service, activates a version and points its
// backends at the sample backend.
func (a Admin) ensure(ctx context.Context, s spec) error {
	svc, err := a.findService(ctx, Environment, s.direction, s.key)
	if err != nil {
		return err
	}
	if svc == nil {
		if svc, err = a.autopilot(ctx, s); err != nil {
			return err
		}
	}
	if svc.Status != "active" {
		// A disabled or deprecated demo service would not serve the
		// printed commands.
		if err := a.call(ctx, http.MethodPatch, "/services/"+svc.ServiceID, map[string]string{"status": "active"},
			http.StatusOK, nil); err != nil {
			return err
		}
	}
	if err := a.activate(ctx, svc.ServiceID, s); err != nil {
		return err
	}
	return a.pointBackends(ctx, svc.ServiceID, s.backendURL)
}

// autopilot imports the service's WSDL (DESIGN 8) and answers the new
// service; its version is a draft.
func (a Admin) autopilot(ctx context.Context, s spec) (*service, error) {
	var out struct {
		Service service `json:"service"`
	}
	body := map[string]any{"xml": s.wsdl, "environment": Environment, "serviceKey": s.key,
		"direction": s.direction, "backendUrl": s.backendURL}
	if err := a.call(ctx, http.MethodPost, "/wsdl/import-xml:autopilot", body, http.StatusCreated, &out); err != nil {
		return nil, err
	}
	return &out.Service, nil
}

// activate makes sure the service has an active version: an active one is
// kept; otherwise the newest draft gets its REST calls and is activated.
func (a Admin) activate(ctx context.Context, serviceID string, s spec) error {
	vs, err := a.versions(ctx, serviceID)
	if err != nil {
		return err
	}
	var draft *version
	for i, v := range vs {
		switch {
		case v.Status == "active":
			return nil
		case v.Status == "draft" && (draft == nil || v.VersionNumber > draft.VersionNumber):
			draft = &vs[i]
		}
	}
	if draft == nil {
		return errors.New("the service has neither an active version nor a draft: activate one in the console, " +
			"or delete the service to let the demo import it again")
	}
	if err := a.setREST(ctx, serviceID, draft.VersionID, s.rest); err != nil {
		return err
	}
	return a.call(ctx, http.MethodPost, "/services/"+serviceID+"/versions/"+draft.VersionID+":activate", nil, http.StatusOK, nil)
}

// setREST sets the REST method and path of the draft's operations that
// calls names.
func (a Admin) setREST(ctx context.Context, serviceID, versionID string, calls map[string]restCall) error {
	if len(calls) == 0 {
		return nil
	}
	ops, err := a.operations(ctx, serviceID, versionID)
	if err != nil {
		return err
	}
	for _, op := range ops {
		c, ok := calls[op.SOAPOperationName]
		if !ok || (op.RestMethod == c.Method && op.RestPath == c.Path) {
			continue
		}
		body := map[string]string{"restMethod": c.Method, "restPath": c.Path}
		if err := a.call(ctx, http.MethodPatch, "/operations/"+op.OperationID, body, http.StatusOK, nil); err != nil {
			return err
		}
	}
	return nil
}

// pointBackends sets the endpoint URL of every backend profile of the
// service to url, or creates one when the service has none.
func (a Admin) pointBackends(ctx context.Context, serviceID, url string) error {
	ps, err := a.profiles(ctx, serviceID)
	if err != nil {
		return err
	}
	if len(ps) == 0 {
		return a.call(ctx, http.MethodPost, "/services/"+serviceID+"/backend-profiles",
			map[string]string{"endpointUrl": url}, http.StatusCreated, nil)
	}
	for _, p := range ps {
		if p.EndpointURL == url {
			continue
		}
		if err := a.call(ctx, http.MethodPatch, "/backend-profiles/"+p.ProfileID,
			map[string]string{"endpointUrl": url}, http.StatusOK, nil); err != nil {
			return err
		}
	}
	return nil
}
