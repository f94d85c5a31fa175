-- WSDL import artifacts (PostgreSQL): JSON columns are TEXT, as in 0002,
-- so the stored text is returned byte for byte.
-- Every file of an import, its content hash and the parsed summary; rows
-- are immutable once written.
-- files is a JSON object path -> file: a JSON string holding the text of a
-- UTF-8 file, or {"base64": "..."} for a file that is not valid UTF-8.
-- summary and warnings are JSON (model.ArtifactSummary, []string).
-- service_names is the JSON array of the sorted WSDL service names; with
-- target_namespace and source_name it defines "comparable" imports (drift).
CREATE TABLE wsdl_artifacts (
    artifact_id      TEXT PRIMARY KEY,
    created_at       TIMESTAMPTZ NOT NULL,
    created_by       TEXT NOT NULL,
    source_kind      TEXT NOT NULL CHECK (source_kind IN ('upload', 'zip', 'url', 'xml')),
    source_name      TEXT NOT NULL,
    root_path        TEXT NOT NULL,
    files            TEXT NOT NULL,
    file_count       INTEGER NOT NULL,
    size_bytes       BIGINT NOT NULL,
    content_sha256   TEXT NOT NULL,
    target_namespace TEXT NOT NULL,
    service_names    TEXT NOT NULL,
    summary          TEXT NOT NULL,
    warnings         TEXT NOT NULL
);
CREATE INDEX wsdl_artifacts_comparable ON wsdl_artifacts (target_namespace, created_at);
CREATE INDEX wsdl_artifacts_sha ON wsdl_artifacts (content_sha256);
