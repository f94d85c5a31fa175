package offline

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/s2r-project/s2r/internal/admin/onboarding"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/openapi"
)

// DefaultEnvironment is the environment of a document when none is given.
const DefaultEnvironment = "dev"

// OpenAPIOptions are the import's keys: the autopilot fields that shape
// the document (onboarding.Options). An empty Environment is
// DefaultEnvironment, an empty Direction publish, an empty ServiceKey the
// one derived from the WSDL service name.
type OpenAPIOptions struct {
	Direction   string
	Environment string
	ServiceKey  string
	ServiceName string
	WSDLService string
	WSDLPort    string
	SOAPVersion string
	// PublicBaseURL is the server's S2R_PUBLIC_BASE_URL ("": a server URL
	// relative to the document, as a server without it answers).
	PublicBaseURL string
}

// Validate checks the options as the server checks autopilot's fields;
// an error names the field (apierr detail "field").
func (o OpenAPIOptions) Validate() error {
	_, err := o.autopilot()
	return err
}

// autopilot returns the server's options for o, validated.
func (o OpenAPIOptions) autopilot() (onboarding.Options, error) {
	opts := onboarding.Options{Environment: o.Environment, ServiceKey: o.ServiceKey, ServiceName: o.ServiceName,
		Direction: o.Direction, WSDLService: o.WSDLService, WSDLPort: o.WSDLPort, SOAPVersion: o.SOAPVersion}
	if opts.Environment == "" {
		opts.Environment = DefaultEnvironment
	}
	return opts, opts.Validate()
}

// Document is the OpenAPI document of one service an import onboards.
type Document struct {
	ServiceKey string
	WSDLPort   string
	JSON       []byte
}

// OpenAPI returns the OpenAPI 3.1 document of every service autopilot
// would onboard from f with o (one per distinct SOAP port type, the
// first keyed o.ServiceKey), in autopilot's order: the bytes
// GET …/versions/{versionId}/openapi answers for the new draft, less the
// stored ids (x-s2r-service-id, x-s2r-version-id) the server alone has.
func OpenAPI(ctx context.Context, f File, o OpenAPIOptions) ([]Document, error) {
	opts, err := o.autopilot()
	if err != nil {
		return nil, err
	}
	defs, err := f.parse(ctx)
	if err != nil {
		return nil, err
	}
	plans, err := onboarding.PlanServices(defs, "", opts, time.Now())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name, err)
	}
	docs := make([]Document, 0, len(plans))
	for _, p := range plans {
		svc := p.Service
		svc.ServiceID = ""
		v := model.Version{VersionNumber: 1, Status: model.VersionDraft, WSDLService: p.Draft.WSDLService, WSDLPort: p.Draft.WSDLPort}
		doc, err := openapi.Generate(openapi.NewInput(svc, v, p.Draft.Ops, defs, o.PublicBaseURL))
		if errors.Is(err, openapi.ErrRouteConflict) {
			return nil, fmt.Errorf("%s: service %s: %w", f.Name, svc.ServiceKey, err)
		}
		if err != nil {
			return nil, err
		}
		docs = append(docs, Document{ServiceKey: svc.ServiceKey, WSDLPort: p.Draft.WSDLPort, JSON: doc})
	}
	return docs, nil
}
