package onboarding

import (
	"mime"
	"net/http"
	"strconv"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/correlation"
)

// maxBatchItems bounds the items of one batch autopilot request.
const maxBatchItems = 50

// autopilotURLBatch is the body of POST /wsdl/import-urls:autopilot.
type autopilotURLBatch struct {
	Items []autopilotURLBody `json:"items"`
}

// autopilotXMLBatch is the JSON body of POST /wsdl/import-files:autopilot
// (the endpoint also takes multipart/form-data: several file parts and the
// shared autopilot fields).
type autopilotXMLBatch struct {
	Items []autopilotXMLBody `json:"items"`
}

// batchItem is the result of one item: its 201 body or its error, in the
// error shape of SPEC 7.1.
type batchItem struct {
	Index  int              `json:"index"`
	Source string           `json:"source"`
	Status int              `json:"status"`
	Result *AutopilotResult `json:"result,omitempty"`
	Error  *batchError      `json:"error,omitempty"`
}

// batchError is one item's error.
type batchError struct {
	Code          string         `json:"code"`
	Message       string         `json:"message"`
	Details       map[string]any `json:"details"`
	CorrelationID string         `json:"correlationId"`
}

// BatchSummary counts the items.
type BatchSummary struct {
	Total     int `json:"total"`
	Succeeded int `json:"succeeded"`
	Failed    int `json:"failed"`
}

// BatchResult answers a batch autopilot with 200: per-item results in
// request order and the summary. Each item ran in its own transaction, so
// the failed ones left nothing behind and the others are kept.
type BatchResult struct {
	Items   []batchItem  `json:"items"`
	Summary BatchSummary `json:"summary"`
}

// addBatchItem records one item's outcome.
func (s *Handlers) addBatchItem(b *BatchResult, r *http.Request, source string, res *AutopilotResult, err error) {
	item := batchItem{Index: len(b.Items), Source: source, Status: http.StatusCreated, Result: res}
	b.Summary.Total++
	if err == nil {
		b.Summary.Succeeded++
		b.Items = append(b.Items, item)
		return
	}
	e := apierr.Resolve(err, apierr.AdmInternal)
	status, _ := apierr.StatusOf(e.Code)
	if status >= 500 {
		apierr.Log(r.Context(), e)
	}
	adminapi.RecordFailure(s.store, s.log, r, "wsdl.autopilot", "wsdl_artifact", "", err)
	details := e.Details
	if details == nil {
		details = map[string]any{}
	}
	item.Status, item.Result = status, nil
	item.Error = &batchError{Code: e.Code, Message: e.Message, Details: details, CorrelationID: correlation.ID(r.Context())}
	b.Summary.Failed++
	b.Items = append(b.Items, item)
}

func newBatch() *BatchResult { return &BatchResult{Items: []batchItem{}} }

// checkBatchSize refuses empty and oversized batches.
func checkBatchSize(n int, field string) error {
	if n == 0 {
		return adminapi.FieldError(field, "at least one item is required")
	}
	if n > maxBatchItems {
		return adminapi.FieldError(field, "at most "+strconv.Itoa(maxBatchItems)+" items per request")
	}
	return nil
}

// postAutopilotURLs runs autopilot for each URL item.
func (s *Handlers) postAutopilotURLs(w http.ResponseWriter, r *http.Request) error {
	var body autopilotURLBatch
	if err := adminapi.DecodeJSON(w, r, &body); err != nil {
		return err
	}
	if err := checkBatchSize(len(body.Items), "items"); err != nil {
		return err
	}
	out := newBatch()
	for _, it := range body.Items {
		res, err := s.autopilotURLItem(r, it)
		s.addBatchItem(out, r, redactLocation(it.URL), res, err)
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}

func (s *Handlers) autopilotURLItem(r *http.Request, it autopilotURLBody) (*AutopilotResult, error) {
	return s.autopilotWith(r, it.options(), func() (*importSource, error) {
		return s.sourceFromURL(r.Context(), it.URL)
	})
}

// postAutopilotFiles runs autopilot for several uploaded files (multipart,
// shared fields) or several pasted WSDLs (JSON items).
func (s *Handlers) postAutopilotFiles(w http.ResponseWriter, r *http.Request) error {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "multipart/form-data" {
		return s.autopilotUploadBatch(w, r)
	}
	var body autopilotXMLBatch
	if err := decodeImportJSON(w, r, &body); err != nil {
		return err
	}
	if err := checkBatchSize(len(body.Items), "items"); err != nil {
		return err
	}
	out := newBatch()
	for i, it := range body.Items {
		res, err := s.autopilotXMLItem(r, it)
		s.addBatchItem(out, r, "items["+strconv.Itoa(i)+"]", res, err)
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}

func (s *Handlers) autopilotXMLItem(r *http.Request, it autopilotXMLBody) (*AutopilotResult, error) {
	return s.autopilotWith(r, it.options(), func() (*importSource, error) {
		return sourceFromXML(it.XML, it.Files)
	})
}

// autopilotUploadBatch handles the multipart form: every file part is one
// item, with the shared fields. A shared serviceKey or rootPath would fit
// one file only, so they are refused with several files.
func (s *Handlers) autopilotUploadBatch(w http.ResponseWriter, r *http.Request) error {
	form, err := readUploadForm(w, r, autopilotFormFields, maxBatchItems)
	if err != nil {
		return err
	}
	if len(form.files) > 1 {
		for _, f := range []string{"serviceKey", "rootPath"} {
			if form.fields[f] != "" {
				return adminapi.FieldError(f, "cannot be shared by several files; derive keys from the WSDL service names")
			}
		}
	}
	o := trimOptions(optionsFromForm(form.fields))
	if err := o.Validate(); err != nil {
		return err
	}
	out := newBatch()
	for _, f := range form.files {
		src, err := sourceFromUpload(f.name, f.data, form.fields["rootPath"])
		var res *AutopilotResult
		if err == nil {
			res, err = s.autopilotFromSource(r, src, o)
		}
		s.addBatchItem(out, r, cleanUploadName(f.name), res, err)
	}
	return adminapi.WriteJSON(w, http.StatusOK, out)
}
