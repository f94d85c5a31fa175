-- Ingest and discovery (DESIGN 9 "Ingest", "Discovery and alerts";
-- docs/discovery.md describes every table for the areas that read them).
-- SQLite: times are TEXT in store.Time's fixed-width UTC form, booleans
-- INTEGER, UUIDs TEXT; row ids are AUTOINCREMENT so a pruned row's id is
-- never given to another URI.

-- ingest_instances: registered connectors. The token is never stored,
-- only its SHA-256 (hex); revoked instances stay for the audit trail.
-- last_event_at and last_heartbeat_at feed freshness (f5IngestStale).
CREATE TABLE ingest_instances (
    instance_id       TEXT PRIMARY KEY,
    vendor            TEXT NOT NULL,
    name              TEXT NOT NULL,
    tenant_id         TEXT NOT NULL,
    token_hash        TEXT NOT NULL UNIQUE,
    created_at        TEXT NOT NULL,
    created_by        TEXT NOT NULL,
    revoked_at        TEXT,
    revoked_by        TEXT NOT NULL DEFAULT '',
    last_event_at     TEXT,
    last_heartbeat_at TEXT
);
CREATE INDEX ingest_instances_tenant ON ingest_instances (tenant_id);

-- discovery_rows: one master discovery row per (tenant, normalised
-- serviceUri). lb_instance_id is the first lb instance that reported the
-- URI (NULL when only generic logs did); vendor is that instance's vendor,
-- else the vendor of the first generic log. environment and service_key
-- are the onboarded service's when one matches, else 'discovered' and the
-- serviceUri.
CREATE TABLE discovery_rows (
    row_id               INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id            TEXT NOT NULL,
    service_uri          TEXT NOT NULL,
    sample_uri           TEXT NOT NULL,
    lb_instance_id       TEXT,
    vendor               TEXT NOT NULL,
    seen_lb              INTEGER NOT NULL,
    seen_generic         INTEGER NOT NULL,
    first_seen           TEXT NOT NULL,
    last_seen            TEXT NOT NULL,
    onboarded_service_id TEXT,
    environment          TEXT NOT NULL,
    service_key          TEXT NOT NULL,
    UNIQUE (tenant_id, service_uri)
);
CREATE INDEX discovery_rows_last_seen ON discovery_rows (tenant_id, last_seen);

-- discovery_row_vendors: every vendor that reported a row.
CREATE TABLE discovery_row_vendors (
    row_id INTEGER NOT NULL REFERENCES discovery_rows (row_id) ON DELETE CASCADE,
    vendor TEXT NOT NULL,
    PRIMARY KEY (row_id, vendor)
);

-- Rollups maintained in the ingest transaction from the events it
-- stored (never from duplicates). A call is an lb client_response event
-- or a generic log; failures as in docs/discovery.md.
CREATE TABLE discovery_hourly (
    row_id         INTEGER NOT NULL REFERENCES discovery_rows (row_id) ON DELETE CASCADE,
    source         TEXT NOT NULL,
    vendor         TEXT NOT NULL,
    hour           TEXT NOT NULL,
    calls          INTEGER NOT NULL,
    failures       INTEGER NOT NULL,
    latency_sum_ms REAL NOT NULL,
    latency_max_ms REAL NOT NULL,
    PRIMARY KEY (row_id, source, vendor, hour)
);
CREATE INDEX discovery_hourly_hour ON discovery_hourly (hour);

-- discovery_minutely: the last hours per minute, for the sliding one-hour
-- window of alert evaluation; retention keeps three hours.
CREATE TABLE discovery_minutely (
    row_id   INTEGER NOT NULL REFERENCES discovery_rows (row_id) ON DELETE CASCADE,
    source   TEXT NOT NULL,
    minute   TEXT NOT NULL,
    calls    INTEGER NOT NULL,
    failures INTEGER NOT NULL,
    PRIMARY KEY (row_id, source, minute)
);
CREATE INDEX discovery_minutely_minute ON discovery_minutely (minute);

-- discovery_consumers: calls per consumer IP and UTC day.
CREATE TABLE discovery_consumers (
    row_id      INTEGER NOT NULL REFERENCES discovery_rows (row_id) ON DELETE CASCADE,
    source      TEXT NOT NULL,
    vendor      TEXT NOT NULL,
    day         TEXT NOT NULL,
    consumer_ip TEXT NOT NULL,
    calls       INTEGER NOT NULL,
    failures    INTEGER NOT NULL,
    last_seen   TEXT NOT NULL,
    PRIMARY KEY (row_id, source, vendor, day, consumer_ip)
);
CREATE INDEX discovery_consumers_day ON discovery_consumers (day);

-- discovery_alert_rules: one rule per row (SPEC 2.4).
CREATE TABLE discovery_alert_rules (
    row_id                  INTEGER PRIMARY KEY REFERENCES discovery_rows (row_id) ON DELETE CASCADE,
    enabled                 INTEGER NOT NULL,
    min_calls_1h            INTEGER NOT NULL,
    failure_pct_threshold   REAL NOT NULL,
    failure_count_threshold INTEGER NOT NULL,
    updated_at              TEXT NOT NULL,
    updated_by              TEXT NOT NULL
);

-- lb_events: one row per raw load-balancer event (up to four stages per
-- transaction share global_transaction_id). An event is identified by
-- (occurred_at, event_id): a resent event carries both unchanged, and
-- keys that start with the time keep the unique index's inserts on a few
-- pages per batch, where a random UUID alone would touch one page per
-- event. That index also serves time windows and retention. No foreign
-- key to discovery_rows: each would lock the row per inserted event.
-- failure is true only on a failing client_response (the counted
-- stage). payload is cut to 64 KB; payload_bytes is its size as sent.
CREATE TABLE lb_events (
    event_id              TEXT NOT NULL,
    global_transaction_id TEXT NOT NULL,
    instance_id           TEXT NOT NULL,
    tenant_id             TEXT NOT NULL,
    vendor                TEXT NOT NULL,
    row_id                INTEGER NOT NULL,
    service_uri           TEXT NOT NULL,
    environment           TEXT NOT NULL,
    service_key           TEXT NOT NULL,
    onboarded_service_id  TEXT NOT NULL,
    stage                 TEXT NOT NULL,
    occurred_at           TEXT NOT NULL,
    received_at           TEXT NOT NULL,
    front_virtual_server  TEXT NOT NULL,
    back_virtual_server   TEXT NOT NULL,
    client_ip             TEXT NOT NULL,
    method                TEXT NOT NULL,
    host                  TEXT NOT NULL,
    uri                   TEXT NOT NULL,
    backend               TEXT NOT NULL,
    status_code           INTEGER NOT NULL,
    duration_ms           REAL NOT NULL,
    bytes_in              INTEGER NOT NULL,
    bytes_out             INTEGER NOT NULL,
    result_code           TEXT NOT NULL,
    soap_fault            INTEGER NOT NULL,
    failure               INTEGER NOT NULL,
    headers               TEXT NOT NULL,
    payload               TEXT NOT NULL,
    payload_bytes         INTEGER NOT NULL
);
CREATE UNIQUE INDEX lb_events_event ON lb_events (occurred_at, event_id);
CREATE INDEX lb_events_row_time ON lb_events (row_id, occurred_at);
CREATE INDEX lb_events_gtid ON lb_events (global_transaction_id);
CREATE INDEX lb_events_failures ON lb_events (row_id, occurred_at) WHERE failure;
CREATE INDEX lb_events_result ON lb_events (result_code, occurred_at) WHERE result_code NOT IN ('', 'ok');

-- generic_logs: one row per access-log record of any other gateway,
-- identified by (occurred_at, event_id) like lb_events. service_uri is
-- normalised; raw_uri is the serviceUri as sent.
CREATE TABLE generic_logs (
    id                     INTEGER PRIMARY KEY,
    event_id               TEXT NOT NULL,
    instance_id            TEXT NOT NULL,
    tenant_id              TEXT NOT NULL,
    vendor                 TEXT NOT NULL,
    row_id                 INTEGER NOT NULL,
    service_uri            TEXT NOT NULL,
    raw_uri                TEXT NOT NULL,
    environment            TEXT NOT NULL,
    service_key            TEXT NOT NULL,
    onboarded_service_id   TEXT NOT NULL,
    occurred_at            TEXT NOT NULL,
    received_at            TEXT NOT NULL,
    method                 TEXT NOT NULL,
    status_code            INTEGER NOT NULL,
    latency_ms             REAL NOT NULL,
    consumer_ip            TEXT NOT NULL,
    backend                TEXT NOT NULL,
    result_code            TEXT NOT NULL,
    soap_fault             INTEGER NOT NULL,
    failure                INTEGER NOT NULL,
    request_payload        TEXT NOT NULL,
    response_payload       TEXT NOT NULL,
    request_payload_bytes  INTEGER NOT NULL,
    response_payload_bytes INTEGER NOT NULL
);
CREATE UNIQUE INDEX generic_logs_event ON generic_logs (occurred_at, event_id);
CREATE INDEX generic_logs_row_time ON generic_logs (row_id, occurred_at);
CREATE INDEX generic_logs_failures ON generic_logs (row_id, occurred_at) WHERE failure;
CREATE INDEX generic_logs_result ON generic_logs (result_code, occurred_at) WHERE result_code NOT IN ('', 'ok');
