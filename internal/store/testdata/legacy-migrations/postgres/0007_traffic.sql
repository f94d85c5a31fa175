-- runtime_tx_logs holds one row per runtime transaction (DESIGN 2), written
-- in batches by the transaction recorder off the request path and read by
-- /admin/v1/runtime-logs and /admin/v1/debug-traces. Payload columns are
-- NULL unless the request ran with debug on; they hold bodies only, never
-- headers. BYTEA, not TEXT: a body need not be valid UTF-8.
CREATE TABLE runtime_tx_logs (
    id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    correlation_id   TEXT NOT NULL,
    occurred_at      TIMESTAMPTZ NOT NULL,
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
    in_body_fault    BOOLEAN NOT NULL,
    error_code       TEXT NOT NULL,
    total_ms         DOUBLE PRECISION NOT NULL,
    backend_ms       DOUBLE PRECISION NOT NULL,
    converter_ms     DOUBLE PRECISION NOT NULL,
    backend_target   TEXT NOT NULL,
    client_ip        TEXT NOT NULL,
    request_bytes    BIGINT NOT NULL,
    response_bytes   BIGINT NOT NULL,
    debug            BOOLEAN NOT NULL,
    request_payload  BYTEA,
    response_payload BYTEA,
    backend_request  BYTEA,
    backend_response BYTEA
);
CREATE INDEX runtime_tx_logs_occurred ON runtime_tx_logs (occurred_at);
CREATE INDEX runtime_tx_logs_route ON runtime_tx_logs (environment, service_key, operation_key, occurred_at);
CREATE INDEX runtime_tx_logs_correlation ON runtime_tx_logs (correlation_id);
CREATE INDEX runtime_tx_logs_result ON runtime_tx_logs (result_code, occurred_at);
CREATE INDEX runtime_tx_logs_status ON runtime_tx_logs (http_status, occurred_at);
