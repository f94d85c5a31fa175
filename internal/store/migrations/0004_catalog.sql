-- Catalog area: services, their versions, operations and mappings.
-- JSON values (overrides, rules, mappings) are TEXT so key order is kept.

-- services: one row per (direction, environment, service_key); a soft
-- delete keeps the row with status 'deprecated', a hard delete removes it
-- with everything that depends on it.
CREATE TABLE services (
    service_id                        TEXT PRIMARY KEY,
    service_key                       TEXT NOT NULL,
    service_name                      TEXT NOT NULL,
    environment                       TEXT NOT NULL,
    direction                         TEXT NOT NULL CHECK (direction IN ('publish', 'consume', 'gateway')),
    status                            TEXT NOT NULL CHECK (status IN ('active', 'disabled', 'deprecated')),
    debug_enabled                     {{bool}} NOT NULL DEFAULT {{false}},
    description                       TEXT NOT NULL DEFAULT '',
    backend_routing_mode              TEXT NOT NULL DEFAULT 'single',
    backend_health_check_mode         TEXT NOT NULL DEFAULT 'none',
    backend_health_check_interval_sec INTEGER NOT NULL DEFAULT 30,
    default_backend_profile_id        TEXT,
    fault_detail_exposure_mode        TEXT NOT NULL DEFAULT 'safe',
    envelope_wrap_override            TEXT,
    error_shape_override              TEXT,
    callback_auth_mode                TEXT NOT NULL DEFAULT 'none',
    active_version_id                 TEXT,
    last_traffic_at                   {{time}},
    created_at                        {{time}} NOT NULL,
    updated_at                        {{time}} NOT NULL,
    UNIQUE (direction, environment, service_key)
);
CREATE INDEX services_environment ON services (environment);
CREATE INDEX services_status ON services (status);
CREATE INDEX services_last_traffic ON services (last_traffic_at);

-- service_versions: at most one draft and one active version per service.
CREATE TABLE service_versions (
    version_id     TEXT PRIMARY KEY,
    service_id     TEXT NOT NULL REFERENCES services (service_id) ON DELETE CASCADE,
    version_number INTEGER NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('draft', 'active', 'inactive')),
    artifact_id    TEXT REFERENCES wsdl_artifacts (artifact_id),
    wsdl_service   TEXT NOT NULL DEFAULT '',
    wsdl_port      TEXT NOT NULL DEFAULT '',
    created_at     {{time}} NOT NULL,
    activated_at   {{time}},
    created_by     TEXT NOT NULL,
    note           TEXT NOT NULL DEFAULT '',
    UNIQUE (service_id, version_number)
);
CREATE UNIQUE INDEX service_versions_one_draft ON service_versions (service_id) WHERE status = 'draft';
CREATE UNIQUE INDEX service_versions_one_active ON service_versions (service_id) WHERE status = 'active';
CREATE INDEX service_versions_artifact ON service_versions (artifact_id);

-- operations of a version; position keeps the contract's order.
CREATE TABLE operations (
    operation_id        TEXT PRIMARY KEY,
    version_id          TEXT NOT NULL REFERENCES service_versions (version_id) ON DELETE CASCADE,
    position            INTEGER NOT NULL,
    operation_key       TEXT NOT NULL,
    soap_operation_name TEXT NOT NULL,
    soap_namespace      TEXT NOT NULL,
    soap_version        TEXT NOT NULL CHECK (soap_version IN ('1.1', '1.2')),
    soap_action         TEXT NOT NULL,
    style               TEXT NOT NULL,
    body_use            TEXT NOT NULL,
    rest_method         TEXT NOT NULL,
    rest_path           TEXT NOT NULL,
    timeout_ms          INTEGER,
    retry_count         INTEGER,
    execution_mode      TEXT NOT NULL CHECK (execution_mode IN ('sync', 'async_callback')),
    validation_rules    TEXT NOT NULL DEFAULT '[]',
    transform_rules     TEXT NOT NULL DEFAULT '[]',
    UNIQUE (version_id, operation_key)
);
CREATE INDEX operations_version ON operations (version_id, position);

-- mappings: versions of an operation's mapping, at most one active.
CREATE TABLE mappings (
    mapping_id       TEXT PRIMARY KEY,
    operation_id     TEXT NOT NULL REFERENCES operations (operation_id) ON DELETE CASCADE,
    mapping_version  INTEGER NOT NULL,
    active           {{bool}} NOT NULL,
    request_mapping  TEXT NOT NULL,
    response_mapping TEXT NOT NULL,
    fault_mapping    TEXT NOT NULL,
    source           TEXT NOT NULL CHECK (source IN ('auto', 'manual')),
    created_at       {{time}} NOT NULL,
    created_by       TEXT NOT NULL,
    UNIQUE (operation_id, mapping_version)
);
