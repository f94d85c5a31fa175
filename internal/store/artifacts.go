package store

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/s2r-project/s2r/internal/model"
)

// artifactHeaderColumns are every column of wsdl_artifacts but files.
const artifactHeaderColumns = "artifact_id, created_at, created_by, source_kind, source_name, root_path, " +
	"file_count, size_bytes, content_sha256, target_namespace, service_names, summary, warnings"

// InsertArtifact stores a WSDL import artifact with every file. FileCount,
// SizeBytes and (when empty) ContentSHA256 are computed from Files and
// RootPath; ServiceNames are stored sorted. An existing id gives
// ErrAlreadyExists.
func (tx *Tx) InsertArtifact(ctx context.Context, a model.Artifact) error {
	files, err := encodeArtifactFiles(a.Files)
	if err != nil {
		return fmt.Errorf("store: insert artifact: %w", err)
	}
	if a.ContentSHA256 == "" {
		a.ContentSHA256 = model.ArtifactContentHash(a.RootPath, a.Files)
	}
	var size int64
	for _, b := range a.Files {
		size += int64(len(b))
	}
	names := slices.Sorted(slices.Values(a.ServiceNames))
	_, err = tx.Exec(ctx, `INSERT INTO wsdl_artifacts (artifact_id, created_at, created_by, source_kind, source_name,
		root_path, files, file_count, size_bytes, content_sha256, target_namespace, service_names, summary, warnings)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
		a.ArtifactID, NewTime(a.CreatedAt), a.CreatedBy, a.SourceKind, a.SourceName, a.RootPath, files,
		len(a.Files), size, a.ContentSHA256, a.TargetNamespace, artifactJSON(artifactNonNil(names)), artifactJSON(a.Summary),
		artifactJSON(artifactNonNil(a.Warnings)))
	if err != nil {
		return fmt.Errorf("store: insert artifact %s: %w", a.ArtifactID, err)
	}
	return nil
}

// Artifact returns the artifact with id and every file; ErrNotFound when
// there is none.
func (s *Store) Artifact(ctx context.Context, id string) (model.Artifact, error) {
	return artifact(ctx, s.reader(), id)
}

// Artifact returns the artifact with id as seen by the transaction.
func (tx *Tx) Artifact(ctx context.Context, id string) (model.Artifact, error) {
	return artifact(ctx, tx, id)
}

func artifact(ctx context.Context, q Querier, id string) (model.Artifact, error) {
	var files string
	row := q.QueryRow(ctx, "SELECT "+artifactHeaderColumns+", files FROM wsdl_artifacts WHERE artifact_id = $1", id)
	a, err := scanArtifact(row.Scan, &files)
	if err != nil {
		return model.Artifact{}, fmt.Errorf("store: artifact %s: %w", id, err)
	}
	if a.Files, err = decodeArtifactFiles(files); err != nil {
		return model.Artifact{}, fmt.Errorf("store: artifact %s: %w", id, err)
	}
	return a, nil
}

// ArtifactHeader returns the artifact with id without its files (Files is
// nil); ErrNotFound when there is none.
func (s *Store) ArtifactHeader(ctx context.Context, id string) (model.Artifact, error) {
	row := s.reader().QueryRow(ctx, "SELECT "+artifactHeaderColumns+" FROM wsdl_artifacts WHERE artifact_id = $1", id)
	a, err := scanArtifact(row.Scan, nil)
	if err != nil {
		return model.Artifact{}, fmt.Errorf("store: artifact %s: %w", id, err)
	}
	return a, nil
}

// NewestLineageArtifact returns, without files, the newest import of the
// WSDL lineage of serviceID that is newer than the artifact id: among the
// artifacts of the service's versions (the autopilot import that created
// it, and every import attached with a new version), the one created last
// after id (ties broken by id). Imports made for other services, and
// imports attached to none, are never part of a service's lineage, so an
// unrelated copy of the same WSDL cannot report drift (DESIGN 10.4).
// ErrNotFound when there is no newer import in the lineage, or id does not
// exist.
func (s *Store) NewestLineageArtifact(ctx context.Context, serviceID, id string) (model.Artifact, error) {
	row := s.reader().QueryRow(ctx, `SELECT b.artifact_id, b.created_at, b.created_by, b.source_kind, b.source_name,
		b.root_path, b.file_count, b.size_bytes, b.content_sha256, b.target_namespace, b.service_names, b.summary,
		b.warnings
		FROM wsdl_artifacts a JOIN wsdl_artifacts b
		  ON b.created_at > a.created_at OR (b.created_at = a.created_at AND b.artifact_id > a.artifact_id)
		WHERE a.artifact_id = $1
		  AND b.artifact_id IN (SELECT v.artifact_id FROM service_versions v WHERE v.service_id = $2)
		ORDER BY b.created_at DESC, b.artifact_id DESC LIMIT 1`, id, serviceID)
	a, err := scanArtifact(row.Scan, nil)
	if err != nil {
		return model.Artifact{}, fmt.Errorf("store: newest import of the lineage of service %s after %s: %w", serviceID, id, err)
	}
	return a, nil
}

// CountArtifacts returns the number of stored artifacts.
func (s *Store) CountArtifacts(ctx context.Context) (int64, error) {
	var n int64
	if err := s.reader().QueryRow(ctx, "SELECT COUNT(*) FROM wsdl_artifacts").Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count artifacts: %w", err)
	}
	return n, nil
}

// scanArtifact scans the header columns, then files into *files when it is
// not nil.
func scanArtifact(scan func(...any) error, files *string) (model.Artifact, error) {
	var (
		a                        model.Artifact
		at                       Time
		names, summary, warnings string
	)
	dest := []any{&a.ArtifactID, &at, &a.CreatedBy, &a.SourceKind, &a.SourceName, &a.RootPath, &a.FileCount,
		&a.SizeBytes, &a.ContentSHA256, &a.TargetNamespace, &names, &summary, &warnings}
	if files != nil {
		dest = append(dest, files)
	}
	if err := scan(dest...); err != nil {
		return model.Artifact{}, err
	}
	a.CreatedAt = at.Time
	for _, c := range []struct {
		text string
		dst  any
	}{{names, &a.ServiceNames}, {summary, &a.Summary}, {warnings, &a.Warnings}} {
		if err := json.Unmarshal([]byte(c.text), c.dst); err != nil {
			return model.Artifact{}, fmt.Errorf("decode stored JSON: %w", err)
		}
	}
	return a, nil
}

// encodeArtifactFiles renders files as a JSON object, keys sorted: a UTF-8
// file as its text, any other file as {"base64": "..."}. HTML escaping is
// off, so XML is stored nearly as is.
func encodeArtifactFiles(files map[string][]byte) (string, error) {
	obj := make(map[string]any, len(files))
	for p, b := range files {
		if utf8.Valid(b) {
			obj[p] = string(b)
		} else {
			obj[p] = map[string]string{"base64": base64.StdEncoding.EncodeToString(b)}
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(obj); err != nil {
		return "", fmt.Errorf("encode files: %w", err)
	}
	return string(bytes.TrimRight(buf.Bytes(), "\n")), nil
}

// decodeArtifactFiles is the inverse of encodeArtifactFiles.
func decodeArtifactFiles(text string) (map[string][]byte, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return nil, fmt.Errorf("decode files: %w", err)
	}
	out := make(map[string][]byte, len(raw))
	for p, v := range raw {
		if len(v) > 0 && v[0] == '"' {
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				return nil, fmt.Errorf("decode file %s: %w", p, err)
			}
			out[p] = []byte(s)
			continue
		}
		var bin struct {
			Base64 []byte `json:"base64"`
		}
		if err := json.Unmarshal(v, &bin); err != nil {
			return nil, fmt.Errorf("decode file %s: %w", p, err)
		}
		out[p] = bin.Base64
	}
	return out, nil
}

// artifactJSON encodes v as JSON text without HTML escaping.
func artifactJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "null"
	}
	return string(bytes.TrimRight(buf.Bytes(), "\n"))
}

// artifactNonNil returns s, or an empty slice for nil, so it encodes as [].
func artifactNonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// CountRows returns the number of rows of table, which must be a plain
// lower-case identifier (it is not a parameter). Tests use it to check
// that a failed request left nothing behind.
func (s *Store) CountRows(ctx context.Context, table string) (int64, error) {
	for _, r := range table {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_' {
			return 0, fmt.Errorf("store: count rows: %q is not a plain table name", table)
		}
	}
	var n int64
	if err := s.reader().QueryRow(ctx, "SELECT COUNT(*) FROM "+table).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count rows of %s: %w", table, err)
	}
	return n, nil
}
