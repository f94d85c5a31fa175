package openapi

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/s2r-project/s2r/internal/zipset"
)

// Files of the artifact package.
const (
	FileOpenAPI   = "openapi.json"
	FileMetadata  = "mapping-metadata.json"
	FileChecksums = "checksums.json"
)

// OperationMetadata is one operation's entry of mapping-metadata.json.
type OperationMetadata struct {
	OperationID       string `json:"operationId"`
	OperationKey      string `json:"operationKey"`
	SOAPOperationName string `json:"soapOperationName"`
	SOAPNamespace     string `json:"soapNamespace"`
	SOAPAction        string `json:"soapAction"`
	SOAPVersion       string `json:"soapVersion"`
	Style             string `json:"style"`
	Use               string `json:"use"`
	RestMethod        string `json:"restMethod"`
	RestPath          string `json:"restPath"`
	// PublishPath is the full runtime path of the operation.
	PublishPath   string `json:"publishPath"`
	ExecutionMode string `json:"executionMode"`
	// MappingVersion and MappingSource are those of the active mapping,
	// 0 and "" when there is none.
	MappingVersion int    `json:"mappingVersion"`
	MappingSource  string `json:"mappingSource"`
	// Diagnostics is the mapping readiness of the operation.
	Diagnostics any `json:"diagnostics"`
}

// Metadata is mapping-metadata.json.
type Metadata struct {
	ServiceID     string              `json:"serviceId"`
	ServiceKey    string              `json:"serviceKey"`
	Environment   string              `json:"environment"`
	VersionID     string              `json:"versionId"`
	VersionNumber int                 `json:"versionNumber"`
	VersionStatus string              `json:"versionStatus"`
	BasePath      string              `json:"basePath"`
	OpenAPISHA256 string              `json:"openapiSha256"`
	Operations    []OperationMetadata `json:"operations"`
}

// SHA256 returns the hex SHA-256 of b.
func SHA256(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Package returns the deterministic ZIP of the OpenAPI document, the
// mapping metadata and checksums.json (the hex SHA-256 of the two other
// files, by file name).
func Package(doc []byte, meta Metadata) ([]byte, error) {
	meta.OpenAPISHA256 = SHA256(doc)
	metaJSON, err := plainMarshal(meta)
	if err != nil {
		return nil, err
	}
	sums, err := marshal(map[string]any{
		"algorithm": "SHA-256",
		"files":     map[string]any{FileOpenAPI: SHA256(doc), FileMetadata: SHA256(metaJSON)},
	})
	if err != nil {
		return nil, err
	}
	zip, err := zipset.Write(map[string][]byte{FileOpenAPI: doc, FileMetadata: metaJSON, FileChecksums: sums})
	if err != nil {
		return nil, fmt.Errorf("openapi: package: %w", err)
	}
	return zip, nil
}

// plainMarshal renders v like the document: sorted keys, indented.
func plainMarshal(v any) ([]byte, error) {
	tree, err := plainAny(v)
	if err != nil {
		return nil, err
	}
	return marshal(tree)
}
