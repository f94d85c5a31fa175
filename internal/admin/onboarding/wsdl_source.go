package onboarding

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/contracts"
	"github.com/s2r-project/s2r/internal/fetch"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xsd"
	"github.com/s2r-project/s2r/internal/zipset"
)

// Import limits (docs/decisions-import.md). A single XML document (a WSDL,
// an XSD, a pasted or fetched file) is at most MaxImportXMLBytes; a ZIP
// holds at most maxImportFiles files and maxImportTotalBytes once
// inflated; a multipart or JSON import request body is at most
// MaxImportBodyBytes (over it: 413 S2R-ADM-0413). Document and archive
// limits answer 400 S2R-VAL-0400 naming the file, because they describe the
// submitted contract rather than the request.
const (
	MaxImportXMLBytes   = adminapi.MaxDocumentBytes
	maxImportTotalBytes = 50 << 20
	maxImportFiles      = 500
	MaxImportBodyBytes  = 32 << 20
	maxFormFieldBytes   = 64 << 10
)

// RootXMLName is the path given to the root WSDL of a pasted-XML import.
const RootXMLName = "root.wsdl"

// importSource is the file set of an import before it is parsed: where it
// came from, the root WSDL's location and the loader serving it and its
// imports. For uploads, ZIPs and pasted XML the loader is the file set;
// for URL imports it is the guarded fetcher, recorded so that exactly the
// fetched documents are stored.
type importSource struct {
	kind   string
	name   string // upload file name, redacted URL, or "" for pasted XML
	root   string
	files  map[string][]byte   // the submitted files (nil for URL imports)
	loader xsd.Loader          // serves root and imports
	rec    *contracts.Recorder // set for URL imports
}

// storedFiles returns the files to persist: the submitted set, or for a URL
// import every document fetched.
func (src *importSource) storedFiles() map[string][]byte {
	if src.rec != nil {
		return src.rec.Files()
	}
	return src.files
}

// sourceFromUpload turns one uploaded file into a source: a ZIP (detected
// by its magic bytes, whatever its name) is read safely and its root WSDL
// chosen by wsdl.FindRoot; anything else is a single WSDL.
//
// rootPath, when not empty, names the root WSDL inside a ZIP explicitly
// (for archives whose root wsdl.FindRoot cannot tell).
func sourceFromUpload(filename string, data []byte, rootPath string) (*importSource, error) {
	name := cleanUploadName(filename)
	if IsZIP(data) {
		files, err := zipset.Read(data, zipset.Limits{MaxFiles: maxImportFiles, MaxTotalBytes: maxImportTotalBytes, MaxFileBytes: MaxImportXMLBytes})
		if err != nil {
			return nil, zipError(name, err)
		}
		root := rootPath
		if root == "" {
			if root, err = wsdl.FindRoot(files); err != nil {
				return nil, importDetailError(name, 0, err.Error())
			}
		} else if _, ok := files[root]; !ok {
			return nil, adminapi.FieldError("rootPath", "the archive has no file at this path").WithDetail("file", root)
		}
		return &importSource{kind: model.ArtifactZIP, name: name, root: root, files: files, loader: xsd.FileSet(files)}, nil
	}
	if rootPath != "" {
		return nil, adminapi.FieldError("rootPath", "only applies to a ZIP upload")
	}
	if len(data) > MaxImportXMLBytes {
		return nil, importDetailError(name, 0, "document is over the "+importLimitMB(MaxImportXMLBytes)+" MB limit")
	}
	files := map[string][]byte{name: data}
	return &importSource{kind: model.ArtifactUpload, name: name, root: name, files: files, loader: xsd.FileSet(files)}, nil
}

// IsZIP reports whether data starts like a ZIP archive (a local file
// header, or the end record of an empty archive).
func IsZIP(data []byte) bool {
	return bytes.HasPrefix(data, []byte("PK\x03\x04")) || bytes.HasPrefix(data, []byte("PK\x05\x06"))
}

// cleanUploadName keeps the base name of an uploaded file name, so a
// client-supplied path cannot place the root anywhere; empty or odd names
// become "upload.wsdl".
func cleanUploadName(filename string) string {
	base := path.Base(strings.ReplaceAll(filename, "\\", "/"))
	if base == "." || base == "/" || base == ".." || base == "" || strings.ContainsAny(base, "\x00:") {
		return "upload.wsdl"
	}
	return base
}

// sourceFromXML turns pasted XML and its further files into a source. The
// root WSDL is stored as root.wsdl; further file paths must be clean
// relative paths (they are what the WSDL's imports name).
func sourceFromXML(xml string, extra map[string]string) (*importSource, error) {
	if strings.TrimSpace(xml) == "" {
		return nil, adminapi.FieldError("xml", "is required")
	}
	if len(extra)+1 > maxImportFiles {
		return nil, adminapi.FieldError("files", "more than "+strconv.Itoa(maxImportFiles)+" files")
	}
	if len(xml) > MaxImportXMLBytes {
		return nil, importDetailError(RootXMLName, 0, "document is over the "+importLimitMB(MaxImportXMLBytes)+" MB limit")
	}
	files := map[string][]byte{RootXMLName: []byte(xml)}
	total := int64(len(xml))
	for p, text := range extra {
		if reason := checkRelativePath(p); reason != "" {
			return nil, adminapi.FieldError("files", reason).WithDetail("file", p)
		}
		if p == RootXMLName {
			return nil, adminapi.FieldError("files", RootXMLName+" is the name of the root WSDL").WithDetail("file", p)
		}
		if len(text) > MaxImportXMLBytes {
			return nil, importDetailError(p, 0, "document is over the "+importLimitMB(MaxImportXMLBytes)+" MB limit")
		}
		total += int64(len(text))
		files[p] = []byte(text)
	}
	if total > maxImportTotalBytes {
		return nil, adminapi.FieldError("files", "the files total more than "+importLimitMB(maxImportTotalBytes)+" MB")
	}
	return &importSource{kind: model.ArtifactXML, root: RootXMLName, files: files, loader: xsd.FileSet(files)}, nil
}

// checkRelativePath returns why p is not a clean relative file path, or "".
func checkRelativePath(p string) string {
	switch {
	case p == "":
		return "a file path is empty"
	case strings.ContainsAny(p, "\\\x00"):
		return "a file path contains a backslash or NUL"
	case strings.HasPrefix(p, "/") || (len(p) > 1 && p[1] == ':'):
		return "a file path is absolute"
	case path.Clean(p) != p || p == "." || p == ".." || strings.HasPrefix(p, "../"):
		return "a file path is not a clean relative path (no ., .., or double slashes)"
	}
	return ""
}

// sourceFromURL prepares a URL import: the URL is checked now; the root
// and its imports are fetched while parsing, each through the guarded
// fetcher built from the current settings.
func (s *Handlers) sourceFromURL(ctx context.Context, raw string) (*importSource, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, adminapi.FieldError("url", "is required")
	}
	u, err := fetch.ValidateURL(raw)
	if err != nil {
		return nil, fetchDetailError("url", err)
	}
	f, err := adminapi.GuardedFetcher(ctx, s.store)
	if err != nil {
		return nil, err
	}
	rec := &contracts.Recorder{Loader: xsd.URLLoader{Fetch: func(ctx context.Context, u string) ([]byte, error) {
		res, err := f.Get(ctx, u)
		if err != nil {
			return nil, err
		}
		return res.Body, nil
	}}}
	return &importSource{kind: model.ArtifactURL, name: fetch.Redact(u), root: u.String(), loader: rec, rec: rec}, nil
}

// uploadForm is a parsed multipart import: the uploaded files in order and
// the text fields (each at most once).
type uploadForm struct {
	files  []uploadedFile
	fields map[string]string
}

type uploadedFile struct {
	name string
	data []byte
}

// readUploadForm reads a multipart/form-data body of at most
// MaxImportBodyBytes: parts named "file" are files, other parts must be in
// allowed and are text fields. maxFiles bounds the file parts.
func readUploadForm(w http.ResponseWriter, r *http.Request, allowed []string, maxFiles int) (*uploadForm, error) {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return nil, apierr.New(apierr.ValUnsupportedMedia, "request body must be multipart/form-data with a boundary")
	}
	if err := adminapi.CheckLength(w, r, MaxImportBodyBytes); err != nil {
		return nil, err
	}
	mr := multipart.NewReader(http.MaxBytesReader(w, r.Body, MaxImportBodyBytes), params["boundary"])
	form := &uploadForm{fields: map[string]string{}}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, bodyReadError(err, "multipart body is malformed")
		}
		if err := form.add(part, allowed, maxFiles); err != nil {
			return nil, err
		}
	}
	if len(form.files) == 0 {
		return nil, adminapi.FieldError("file", "is required")
	}
	return form, nil
}

// add reads one part into the form.
func (f *uploadForm) add(part *multipart.Part, allowed []string, maxFiles int) error {
	defer part.Close()
	name := part.FormName()
	if name == "file" {
		if len(f.files) >= maxFiles {
			return adminapi.FieldError("file", "more than "+strconv.Itoa(maxFiles)+" files")
		}
		data, err := adminapi.ReadAll(part, -1)
		if err != nil {
			return bodyReadError(err, "file part could not be read")
		}
		f.files = append(f.files, uploadedFile{name: part.FileName(), data: data})
		return nil
	}
	if !slices.Contains(allowed, name) {
		return adminapi.FieldError(name, "unknown field")
	}
	if _, dup := f.fields[name]; dup {
		return adminapi.FieldError(name, "given more than once")
	}
	data, err := io.ReadAll(io.LimitReader(part, maxFormFieldBytes+1))
	if err != nil {
		return bodyReadError(err, "form field could not be read")
	}
	if len(data) > maxFormFieldBytes {
		return adminapi.FieldError(name, "longer than 64 KB")
	}
	f.fields[name] = string(data)
	return nil
}

// bodyReadError maps a body read failure: over the limit → 413.
func bodyReadError(err error, msg string) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return apierr.PayloadTooLarge(apierr.AdmPayloadTooLarge, MaxImportBodyBytes>>20)
	}
	return apierr.Wrap(apierr.ValBadRequest, err, msg).WithDetail("reason", msg)
}
