package model

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"slices"
	"time"
)

// Artifact source kinds: how the files of a WSDL import arrived.
const (
	ArtifactUpload = "upload" // one WSDL file uploaded as multipart
	ArtifactZIP    = "zip"    // a ZIP of a WSDL and its XSDs
	ArtifactURL    = "url"    // fetched by URL (with its relative imports)
	ArtifactXML    = "xml"    // pasted XML, with optional further files
)

// Artifact is a persisted WSDL import: every file of the import exactly as
// received, the path of the root WSDL among them, a content hash and the
// summary of what was parsed. Artifacts are immutable.
type Artifact struct {
	ArtifactID string    `json:"artifactId"`
	CreatedAt  time.Time `json:"createdAt"`
	CreatedBy  string    `json:"createdBy"`
	SourceKind string    `json:"sourceKind"`
	// SourceName is the uploaded file name, the URL or "pasted.wsdl".
	SourceName string `json:"sourceName"`
	// RootPath is the path of the root WSDL inside Files.
	RootPath string `json:"rootPath"`
	// Files maps slash-separated relative paths (for URL imports: the
	// absolute URLs) to file bytes. Not rendered by default: the admin API
	// lists paths and sizes and serves files on request.
	Files         map[string][]byte `json:"-"`
	FileCount     int               `json:"fileCount"`
	SizeBytes     int64             `json:"sizeBytes"`
	ContentSHA256 string            `json:"contentSha256"`
	// TargetNamespace and ServiceNames (sorted) identify comparable imports.
	TargetNamespace string          `json:"targetNamespace"`
	ServiceNames    []string        `json:"serviceNames"`
	Summary         ArtifactSummary `json:"summary"`
	Warnings        []string        `json:"warnings"`
}

// ArtifactSummary is the parsed outline of an import: services, their
// ports and the operations of each SOAP port.
type ArtifactSummary struct {
	Name            string            `json:"name,omitempty"`
	TargetNamespace string            `json:"targetNamespace"`
	OperationCount  int               `json:"operationCount"`
	Services        []ArtifactService `json:"services"`
}

// ArtifactService is one wsdl:service of an import.
type ArtifactService struct {
	Name  string         `json:"name"`
	Ports []ArtifactPort `json:"ports"`
}

// ArtifactPort is one wsdl:port. Skipped says why a port is not imported
// (for example an HTTP binding); such a port has no operations.
type ArtifactPort struct {
	Name        string              `json:"name"`
	Binding     string              `json:"binding"`
	SOAPVersion string              `json:"soapVersion,omitempty"`
	Address     string              `json:"address,omitempty"`
	Skipped     string              `json:"skipped,omitempty"`
	Operations  []ArtifactOperation `json:"operations"`
}

// ArtifactOperation is one SOAP operation of a port. InputElement and
// OutputElement are Clark names ({namespace}local) of the wrapper elements
// (document/literal wrapped, or the synthesized rpc wrapper); empty when
// the message has no single wrapper (bare multi-part) or no output.
type ArtifactOperation struct {
	Name          string   `json:"name"`
	Style         string   `json:"style"`
	Use           string   `json:"use"`
	SOAPAction    string   `json:"soapAction"`
	SOAPVersion   string   `json:"soapVersion"`
	InputElement  string   `json:"inputElement,omitempty"`
	OutputElement string   `json:"outputElement,omitempty"`
	OneWay        bool     `json:"oneWay,omitempty"`
	Faults        []string `json:"faults,omitempty"`
	MTOM          bool     `json:"mtom,omitempty"`
}

// ArtifactContentHash returns the hex SHA-256 of the canonical encoding
// of an import's file set: the root path, then every file in byte order of
// its path, each string written as its 8-byte big-endian length followed by
// its bytes (path, then content). Two imports of the same files with the
// same root hash equal whatever order or source they came from.
func ArtifactContentHash(root string, files map[string][]byte) string {
	h := sha256.New()
	var n [8]byte
	write := func(b []byte) {
		binary.BigEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	write([]byte(root))
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		write([]byte(p))
		write(files[p])
	}
	return hex.EncodeToString(h.Sum(nil))
}
