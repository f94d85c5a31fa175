package onboarding

import (
	"bytes"
	"errors"
	"net/http"

	"github.com/go-json-experiment/json"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// importURLBody is the body of POST /wsdl/import-url.
type importURLBody struct {
	URL string `json:"url"`
}

// importXMLBody is the body of POST /wsdl/import-xml: the root WSDL and
// further files by the relative path the WSDL's imports use.
type importXMLBody struct {
	XML   string            `json:"xml"`
	Files map[string]string `json:"files,omitempty"`
}

// importUploadBody documents the multipart body of POST /wsdl/import.
type importUploadBody struct {
	File     string `json:"file"`
	RootPath string `json:"rootPath,omitempty"`
}

// postImport imports an uploaded WSDL, or a ZIP of a WSDL and its XSDs.
func (s *Handlers) postImport(w http.ResponseWriter, r *http.Request) error {
	form, err := readUploadForm(w, r, []string{"rootPath"}, 1)
	if err != nil {
		return err
	}
	src, err := sourceFromUpload(form.files[0].name, form.files[0].data, form.fields["rootPath"])
	if err != nil {
		return err
	}
	return s.importAndAnswer(w, r, src)
}

// postImportURL imports the WSDL at a URL through the guarded fetcher.
func (s *Handlers) postImportURL(w http.ResponseWriter, r *http.Request) error {
	var body importURLBody
	if err := adminapi.DecodeJSON(w, r, &body); err != nil {
		return err
	}
	src, err := s.sourceFromURL(r.Context(), body.URL)
	if err != nil {
		return err
	}
	return s.importAndAnswer(w, r, src)
}

// postImportXML imports pasted XML with optional further files.
func (s *Handlers) postImportXML(w http.ResponseWriter, r *http.Request) error {
	var body importXMLBody
	if err := decodeImportJSON(w, r, &body); err != nil {
		return err
	}
	src, err := sourceFromXML(body.XML, body.Files)
	if err != nil {
		return err
	}
	return s.importAndAnswer(w, r, src)
}

// importAndAnswer parses, stores and answers 201 with the preview.
func (s *Handlers) importAndAnswer(w http.ResponseWriter, r *http.Request, src *importSource) error {
	p, err := s.parseSource(r.Context(), src)
	if err != nil {
		return err
	}
	if err := s.persistImport(r, p); err != nil {
		return err
	}
	w.Header().Set("Location", adminapi.Prefix+"/wsdl/import/"+p.artifact.ArtifactID)
	return adminapi.WriteJSON(w, http.StatusCreated, viewArtifact(p.artifact, false))
}

// getImport answers a stored artifact with its parsed outline; with
// ?includeFiles=true every file's text too.
func (s *Handlers) getImport(w http.ResponseWriter, r *http.Request) error {
	withFiles := false
	switch v := r.URL.Query().Get("includeFiles"); v {
	case "", "false":
	case "true":
		withFiles = true
	default:
		return adminapi.FieldError("includeFiles", "must be true or false")
	}
	a, err := s.loadArtifact(r, r.PathValue("artifactId"))
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, viewArtifact(a, withFiles))
}

// loadArtifact reads an artifact; a missing one is 404 S2R-ADM-0404.
func (s *Handlers) loadArtifact(r *http.Request, id string) (model.Artifact, error) {
	a, err := s.store.Artifact(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		return a, apierr.New(apierr.AdmNotFound, "no WSDL import artifact with this id").WithDetail("artifactId", id)
	}
	return a, err
}

// decodeImportJSON is decodeJSON for the import bodies that carry XML:
// the same strict rules with the import body limit (MaxImportBodyBytes).
func decodeImportJSON(w http.ResponseWriter, r *http.Request, dst any) error {
	if err := adminapi.CheckJSONContentType(r); err != nil {
		return err
	}
	body, err := adminapi.ReadBody(w, r, MaxImportBodyBytes)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return adminapi.FieldError("", "request body is required")
	}
	if err := json.Unmarshal(body, dst, json.RejectUnknownMembers(true)); err != nil {
		return adminapi.DecodeError(err)
	}
	return nil
}
