-- runtime_tx_logs holds one row per runtime transaction (DESIGN 2), written
-- in batches by the transaction recorder off the request path and read by
-- /admin/v1/runtime-logs and /admin/v1/debug-traces. Times are TEXT in the
-- fixed-width UTC form of store.Time. Payload columns are NULL unless the
-- request ran with debug on; they hold bodies only, never headers.
CREATE TABLE runtime_tx_logs (
    id               INTEGER PRIMARY KEY,
    correlation_id   TEXT NOT NULL,
    occurred_at      TEXT NOT NULL,
    direction        TEXT NOT NULL,
    environment      TEXT NOT NULL,
    service_key      TEXT NOT NULL,
    service_id       TEXT NOT NULL,
    operation_key    TEXT NOT NULL,
    operation_id     TEXT NOT NULL,
    method           TEXT NOT NULL,
    path             TEXT NOT NULL,
    http_status      INTEGER NOT NULL,
    result_code      TEXT NOT NULL,
    in_body_fault    INTEGER NOT NULL,
    error_code       TEXT NOT NULL,
    total_ms         REAL NOT NULL,
    backend_ms       REAL NOT NULL,
    converter_ms     REAL NOT NULL,
    backend_target   TEXT NOT NULL,
    client_ip        TEXT NOT NULL,
    request_bytes    INTEGER NOT NULL,
    response_bytes   INTEGER NOT NULL,
    debug            INTEGER NOT NULL,
    request_payload  BLOB,
    response_payload BLOB,
    backend_request  BLOB,
    backend_response BLOB
);
CREATE INDEX runtime_tx_logs_occurred ON runtime_tx_logs (occurred_at);
CREATE INDEX runtime_tx_logs_route ON runtime_tx_logs (environment, service_key, operation_key, occurred_at);
CREATE INDEX runtime_tx_logs_correlation ON runtime_tx_logs (correlation_id);
CREATE INDEX runtime_tx_logs_result ON runtime_tx_logs (result_code, occurred_at);
CREATE INDEX runtime_tx_logs_status ON runtime_tx_logs (http_status, occurred_at);
