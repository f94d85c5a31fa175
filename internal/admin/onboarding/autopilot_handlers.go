package onboarding

import (
	"net/http"

	"github.com/s2r-project/s2r/internal/adminapi"
)

// autopilotFields are the fields every autopilot body shares: where to
// onboard (environment, keys, backend) and, optionally, which WSDL
// service, port or SOAP version. The bodies embed them, so the JSON (and
// the OpenAPI schema) has them at the top level.
type autopilotFields struct {
	Environment string `json:"environment"`
	ServiceKey  string `json:"serviceKey,omitempty"`
	ServiceName string `json:"serviceName,omitempty"`
	Direction   string `json:"direction,omitempty"`
	BackendURL  string `json:"backendUrl,omitempty"`
	WSDLService string `json:"wsdlService,omitempty"`
	WSDLPort    string `json:"wsdlPort,omitempty"`
	SOAPVersion string `json:"soapVersion,omitempty"`
}

func (b autopilotFields) options() Options {
	return trimOptions(Options(b))
}

// autopilotXMLBody is the DESIGN 8 body of POST /wsdl/import-xml:autopilot.
type autopilotXMLBody struct {
	XML   string            `json:"xml"`
	Files map[string]string `json:"files,omitempty"`
	autopilotFields
}

// autopilotURLBody is the body of POST /wsdl/import-url:autopilot.
type autopilotURLBody struct {
	URL string `json:"url"`
	autopilotFields
}

// autopilotArtifactBody is the body of POST /wsdl/import/{artifactId}:autopilot
// and /wsdl/import/{artifactId}/generate-service.
type autopilotArtifactBody struct {
	autopilotFields
}

// autopilotFormBody documents the multipart body of POST /wsdl/import:autopilot.
type autopilotFormBody struct {
	File     string `json:"file"`
	RootPath string `json:"rootPath,omitempty"`
	autopilotFields
}

// postAutopilotXML is DESIGN 8's onboarding call.
func (s *Handlers) postAutopilotXML(w http.ResponseWriter, r *http.Request) error {
	var body autopilotXMLBody
	if err := decodeImportJSON(w, r, &body); err != nil {
		return err
	}
	return s.onboard(w, r, body.options(), func() (*importSource, error) {
		return sourceFromXML(body.XML, body.Files)
	})
}

// postAutopilotUpload is autopilot of an uploaded WSDL or ZIP.
func (s *Handlers) postAutopilotUpload(w http.ResponseWriter, r *http.Request) error {
	form, err := readUploadForm(w, r, autopilotFormFields, 1)
	if err != nil {
		return err
	}
	return s.onboard(w, r, trimOptions(optionsFromForm(form.fields)), func() (*importSource, error) {
		return sourceFromUpload(form.files[0].name, form.files[0].data, form.fields["rootPath"])
	})
}

// postAutopilotURL is autopilot of the WSDL at a URL.
func (s *Handlers) postAutopilotURL(w http.ResponseWriter, r *http.Request) error {
	var body autopilotURLBody
	if err := adminapi.DecodeJSON(w, r, &body); err != nil {
		return err
	}
	return s.onboard(w, r, body.options(), func() (*importSource, error) {
		return s.sourceFromURL(r.Context(), body.URL)
	})
}

// onboard runs autopilot (see autopilotWith) and answers its result.
func (s *Handlers) onboard(w http.ResponseWriter, r *http.Request, o Options, source func() (*importSource, error)) error {
	res, err := s.autopilotWith(r, o, source)
	if err != nil {
		return err
	}
	return answerAutopilot(w, res)
}

// autopilotWith validates the options, then (only when they are valid, so
// a bad option costs no fetch or parse) reads the source and onboards it.
// The single and batch autopilot calls share it.
func (s *Handlers) autopilotWith(r *http.Request, o Options, source func() (*importSource, error)) (*AutopilotResult, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	src, err := source()
	if err != nil {
		return nil, err
	}
	return s.autopilotFromSource(r, src, o)
}

// postAutopilotArtifact is autopilot of a stored import (colon route
// /wsdl/import/{artifactId}:autopilot).
func (s *Handlers) postAutopilotArtifact(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("artifactId")
	return s.draftFromArtifact(w, r, id)
}

// postGenerateService drafts a service, version, operations, auto mappings
// and a backend profile from a stored import: the same work and answer as
// the artifact autopilot.
func (s *Handlers) postGenerateService(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("artifactId")
	return s.draftFromArtifact(w, r, id)
}

func (s *Handlers) draftFromArtifact(w http.ResponseWriter, r *http.Request, id string) error {
	var body autopilotArtifactBody
	if err := adminapi.DecodeJSON(w, r, &body); err != nil {
		return err
	}
	res, err := s.autopilotFromArtifact(r, id, body.options())
	if err != nil {
		return err
	}
	return answerAutopilot(w, res)
}
