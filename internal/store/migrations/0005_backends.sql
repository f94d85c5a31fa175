-- Backends area: backend profiles, consumer grants, synthetic monitors,
-- test datasets, test previews and generated OpenAPI documents.
-- JSON values are TEXT so key order is kept.

-- backend_profiles: credentials is a JSON object field -> {"sealed",
-- "updatedAt", "updatedBy"}; sealed values are secret.Box ciphertexts bound
-- to the profile id and field.
CREATE TABLE backend_profiles (
    profile_id               TEXT PRIMARY KEY,
    service_id               TEXT NOT NULL REFERENCES services (service_id) ON DELETE CASCADE,
    name                     TEXT NOT NULL,
    endpoint_url             TEXT NOT NULL,
    auth_type                TEXT NOT NULL CHECK (auth_type IN ('none', 'basic', 'bearer', 'api_key_header', 'oauth2_client_credentials')),
    username                 TEXT NOT NULL DEFAULT '',
    api_key_header_name      TEXT NOT NULL DEFAULT '',
    token_url                TEXT NOT NULL DEFAULT '',
    client_id                TEXT NOT NULL DEFAULT '',
    scope                    TEXT NOT NULL DEFAULT '',
    credentials              TEXT NOT NULL DEFAULT '{}',
    mtls_enabled             {{bool}} NOT NULL DEFAULT {{false}},
    client_cert_pem          TEXT NOT NULL DEFAULT '',
    ca_cert_pem              TEXT NOT NULL DEFAULT '',
    connect_timeout_ms       INTEGER NOT NULL,
    tls_handshake_timeout_ms INTEGER NOT NULL,
    idle_conn_timeout_ms     INTEGER NOT NULL,
    max_idle_conns_per_host  INTEGER NOT NULL,
    timeout_ms               INTEGER,
    retry_count              INTEGER,
    routing_priority         INTEGER NOT NULL DEFAULT 0,
    routing_weight           INTEGER NOT NULL DEFAULT 1 CHECK (routing_weight >= 1),
    health_check_url         TEXT NOT NULL DEFAULT '',
    created_at               {{time}} NOT NULL,
    updated_at               {{time}} NOT NULL,
    UNIQUE (service_id, name)
);
CREATE INDEX backend_profiles_service ON backend_profiles (service_id, routing_priority);

-- consumer_grants: one CIDR list (JSON array) per service.
CREATE TABLE consumer_grants (
    service_id TEXT PRIMARY KEY REFERENCES services (service_id) ON DELETE CASCADE,
    cidrs      TEXT NOT NULL,
    updated_at {{time}} NOT NULL,
    updated_by TEXT NOT NULL
);

-- synthetic_monitors: one configuration (JSON) per service.
CREATE TABLE synthetic_monitors (
    service_id TEXT PRIMARY KEY REFERENCES services (service_id) ON DELETE CASCADE,
    config     TEXT NOT NULL,
    updated_at {{time}} NOT NULL,
    updated_by TEXT NOT NULL
);

-- test_datasets: named request payloads, name unique per service.
CREATE TABLE test_datasets (
    dataset_id    TEXT PRIMARY KEY,
    service_id    TEXT NOT NULL REFERENCES services (service_id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    operation_key TEXT NOT NULL DEFAULT '',
    payload       TEXT NOT NULL,
    created_at    {{time}} NOT NULL,
    created_by    TEXT NOT NULL,
    UNIQUE (service_id, name)
);

-- test_previews: saved request/response of backend test calls.
CREATE TABLE test_previews (
    preview_id   TEXT PRIMARY KEY,
    profile_id   TEXT NOT NULL REFERENCES backend_profiles (profile_id) ON DELETE CASCADE,
    operation_id TEXT,
    kind         TEXT NOT NULL,
    request      TEXT NOT NULL,
    response     TEXT NOT NULL,
    status       TEXT NOT NULL,
    http_status  INTEGER NOT NULL,
    latency_ms   INTEGER NOT NULL,
    created_at   {{time}} NOT NULL,
    created_by   TEXT NOT NULL
);
CREATE INDEX test_previews_profile ON test_previews (profile_id, created_at);

-- openapi_documents: the stored generated OpenAPI document of a version.
CREATE TABLE openapi_documents (
    version_id   TEXT PRIMARY KEY REFERENCES service_versions (version_id) ON DELETE CASCADE,
    document     TEXT NOT NULL,
    sha256       TEXT NOT NULL,
    generated_at {{time}} NOT NULL,
    generated_by TEXT NOT NULL
);
