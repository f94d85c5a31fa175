package onboarding

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"slices"
	"strconv"

	"github.com/google/uuid"
	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/catalog"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/wsdl"
	"github.com/s2r-project/s2r/internal/xmlstream"
	"github.com/s2r-project/s2r/internal/xsd"
)

// parsedImport is an import that parsed and compiled: the artifact to
// store and its contract.
type parsedImport struct {
	artifact model.Artifact
	defs     *wsdl.Definitions
}

// parseSource parses and compiles the source fully (so a bad WSDL is
// refused before anything is stored) and builds its artifact.
func (s *Handlers) parseSource(ctx context.Context, src *importSource) (*parsedImport, error) {
	defs, err := parseDefinitions(ctx, src)
	if err != nil {
		return nil, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, err
	}
	c, _ := access.CallerFrom(ctx)
	files := src.storedFiles()
	summary := summarize(defs)
	names := make([]string, 0, len(defs.Services))
	for _, svc := range defs.Services {
		names = append(names, svc.Name)
	}
	slices.Sort(names)
	var size int64
	for _, b := range files {
		size += int64(len(b))
	}
	a := model.Artifact{
		ArtifactID: id.String(), CreatedAt: s.now().UTC(), CreatedBy: c.Email,
		SourceKind: src.kind, SourceName: src.name, RootPath: src.root, Files: files,
		FileCount: len(files), SizeBytes: size, ContentSHA256: model.ArtifactContentHash(src.root, files),
		TargetNamespace: defs.TargetNamespace, ServiceNames: names, Summary: summary,
		Warnings: append([]string{}, defs.Warnings...),
	}
	return &parsedImport{artifact: a, defs: defs}, nil
}

// parseDefinitions parses and compiles the source's root WSDL and its
// imports within the import limits; a contract that does not import is
// 400 S2R-VAL-0400 naming the file, line and reason (importError).
func parseDefinitions(ctx context.Context, src *importSource) (*wsdl.Definitions, error) {
	defs, err := wsdl.Parse(ctx, src.loader, src.root, xmlstream.Limits{MaxSize: MaxImportXMLBytes})
	if err != nil {
		return nil, importError(err)
	}
	return defs, nil
}

// storeArtifact inserts the artifact with its audit event in tx. It does
// not bump the revision: callers that change nothing else bump it
// themselves (persistImport), autopilot bumps once for everything.
func storeArtifact(r *http.Request, tx *store.Tx, p *parsedImport) error {
	ctx := r.Context()
	if err := tx.InsertArtifact(ctx, p.artifact); err != nil {
		return err
	}
	a := p.artifact
	return tx.InsertAudit(ctx, adminapi.AuditEvent(r, "wsdl.import", "wsdl_artifact", a.ArtifactID,
		"imported WSDL "+a.SourceKind+" "+describeSource(a)+" ("+strconv.Itoa(a.Summary.OperationCount)+" operations)",
		nil, artifactAuditState(a)))
}

// persistImport stores a parsed import alone (the plain import endpoints)
// in one transaction with its audit event and a revision bump, then primes
// the contract cache.
func (s *Handlers) persistImport(r *http.Request, p *parsedImport) error {
	err := s.store.ChangeConfig(r.Context(), func(tx *store.Tx) error {
		return storeArtifact(r, tx, p)
	})
	if err != nil {
		return err
	}
	s.contracts.Prime(p.artifact, p.defs)
	return nil
}

// describeSource names an artifact's source for messages.
func describeSource(a model.Artifact) string {
	if a.SourceName != "" {
		return a.SourceName
	}
	return a.RootPath
}

// artifactAuditState is what the audit event records: the header, never
// the file contents.
func artifactAuditState(a model.Artifact) map[string]any {
	return map[string]any{
		"artifactId": a.ArtifactID, "sourceKind": a.SourceKind, "sourceName": a.SourceName,
		"rootPath": redactLocation(a.RootPath), "contentSha256": a.ContentSHA256, "fileCount": a.FileCount,
		"targetNamespace": a.TargetNamespace, "serviceNames": a.ServiceNames,
		"operationCount": a.Summary.OperationCount,
	}
}

// summarize outlines the parsed contract: services, ports, operations.
func summarize(defs *wsdl.Definitions) model.ArtifactSummary {
	out := model.ArtifactSummary{Name: defs.Name, TargetNamespace: defs.TargetNamespace, Services: []model.ArtifactService{}}
	for _, svc := range defs.Services {
		as := model.ArtifactService{Name: svc.Name, Ports: []model.ArtifactPort{}}
		for _, p := range svc.Ports {
			ap := model.ArtifactPort{Name: p.Name, Binding: clarkName(p.Binding), SOAPVersion: p.SOAPVersion,
				Address: p.Address, Skipped: p.Skipped, Operations: []model.ArtifactOperation{}}
			for _, op := range p.Operations {
				ap.Operations = append(ap.Operations, summarizeOperation(op, p.SOAPVersion))
			}
			out.OperationCount += len(ap.Operations)
			as.Ports = append(as.Ports, ap)
		}
		out.Services = append(out.Services, as)
	}
	return out
}

func summarizeOperation(op *xsd.Operation, soapVersion string) model.ArtifactOperation {
	ao := model.ArtifactOperation{Name: op.Name, Style: catalog.StyleName(op.Style), Use: catalog.UseName(op.Use),
		SOAPAction: op.SOAPAction, SOAPVersion: soapVersion, InputElement: messageElement(op.Input),
		OutputElement: messageElement(op.Output), OneWay: op.Output == nil, MTOM: op.MTOM}
	for _, f := range op.Faults {
		ao.Faults = append(ao.Faults, f.Name)
	}
	return ao
}

// messageElement names the single element of a message in Clark notation:
// its wrapper, or its only element part; "" otherwise.
func messageElement(m *xsd.Message) string {
	switch {
	case m == nil:
		return ""
	case m.Wrapper != nil:
		return clarkName(m.Wrapper.Name)
	case len(m.Parts) == 1 && m.Parts[0].Element != nil:
		return clarkName(m.Parts[0].Element.Name)
	}
	return ""
}

// clarkName renders n as {namespace}local, or local without a namespace.
func clarkName(n xmlstream.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return "{" + n.Space + "}" + n.Local
}

// ArtifactView is the artifact preview answered by the import endpoints
// and GET /wsdl/import/{artifactId}.
type ArtifactView struct {
	ArtifactID      string                  `json:"artifactId"`
	CreatedAt       string                  `json:"createdAt"`
	CreatedBy       string                  `json:"createdBy"`
	SourceKind      string                  `json:"sourceKind"`
	SourceName      string                  `json:"sourceName"`
	RootPath        string                  `json:"rootPath"`
	ContentSHA256   string                  `json:"contentSha256"`
	TargetNamespace string                  `json:"targetNamespace"`
	ServiceNames    []string                `json:"serviceNames"`
	FileCount       int                     `json:"fileCount"`
	SizeBytes       int64                   `json:"sizeBytes"`
	Files           []artifactFile          `json:"files"`
	OperationCount  int                     `json:"operationCount"`
	Services        []model.ArtifactService `json:"services"`
	Warnings        []string                `json:"warnings"`
}

// artifactFile is one stored file: path (for URL imports the URL with query
// values redacted), size, SHA-256 and, on request, the text.
type artifactFile struct {
	Path      string `json:"path"`
	SizeBytes int    `json:"sizeBytes"`
	SHA256    string `json:"sha256"`
	Root      bool   `json:"root,omitempty"`
	Content   string `json:"content,omitempty"`
}

// viewArtifact renders a; file contents are included when withContent.
func viewArtifact(a model.Artifact, withContent bool) ArtifactView {
	v := ArtifactView{
		ArtifactID: a.ArtifactID, CreatedAt: a.CreatedAt.UTC().Format("2006-01-02T15:04:05.000000Z07:00"),
		CreatedBy: a.CreatedBy, SourceKind: a.SourceKind, SourceName: a.SourceName,
		RootPath: redactLocation(a.RootPath), ContentSHA256: a.ContentSHA256, TargetNamespace: a.TargetNamespace,
		ServiceNames: importStrings(a.ServiceNames), FileCount: a.FileCount, SizeBytes: a.SizeBytes,
		Files: []artifactFile{}, OperationCount: a.Summary.OperationCount, Services: a.Summary.Services,
		Warnings: redactWarnings(a.Warnings),
	}
	if v.Services == nil {
		v.Services = []model.ArtifactService{}
	}
	paths := make([]string, 0, len(a.Files))
	for p := range a.Files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		sum := sha256.Sum256(a.Files[p])
		f := artifactFile{Path: redactLocation(p), SizeBytes: len(a.Files[p]), SHA256: hex.EncodeToString(sum[:]), Root: p == a.RootPath}
		if withContent {
			f.Content = string(a.Files[p])
		}
		v.Files = append(v.Files, f)
	}
	return v
}

func importStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// redactWarnings returns warnings with the URLs in them redacted
// (redactLocation), never nil.
func redactWarnings(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = urlInText.ReplaceAllStringFunc(w, redactLocation)
	}
	return out
}
