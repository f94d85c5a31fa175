-- Async callback executions (SPEC 2.2, 3.1; DESIGN 6.5, 9) and the
-- per-service callback secret.
--
-- services.callback_secret is one credential as JSON {"sealed",
-- "updatedAt", "updatedBy"} ('{}' when never set); the sealed value is a
-- secret.Box ciphertext bound to the service id.
ALTER TABLE services ADD COLUMN callback_secret TEXT NOT NULL DEFAULT '{}';

-- async_executions: one row per async publish request, created
-- waiting_callback (committed before the backend is called) and finished
-- by a conditional UPDATE ... WHERE status = 'waiting_callback', so
-- concurrent callbacks complete it exactly once. poll_token_hash is the
-- SHA-256 (hex) of the current single-use poll token. result, fault and
-- error are JSON text (TEXT on both dialects: key order is kept);
-- callback is the raw callback body with WS-Security headers removed.
CREATE TABLE async_executions (
    correlation_id  TEXT PRIMARY KEY,
    direction       TEXT NOT NULL,
    environment     TEXT NOT NULL,
    service_key     TEXT NOT NULL,
    service_id      TEXT NOT NULL REFERENCES services (service_id) ON DELETE CASCADE,
    operation_key   TEXT NOT NULL,
    operation_id    TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('waiting_callback', 'completed', 'failed', 'expired')),
    poll_token_hash TEXT NOT NULL,
    backend_target  TEXT NOT NULL DEFAULT '',
    created_at      {{time}} NOT NULL,
    updated_at      {{time}} NOT NULL,
    expires_at      {{time}} NOT NULL,
    finished_at     {{time}},
    callback_at     {{time}},
    result          TEXT,
    fault           TEXT,
    error           TEXT,
    callback        {{bytes}}
);
CREATE INDEX async_executions_waiting ON async_executions (expires_at) WHERE status = 'waiting_callback';
CREATE INDEX async_executions_created ON async_executions (created_at);
CREATE INDEX async_executions_route ON async_executions (environment, service_key, operation_key, created_at);
CREATE INDEX async_executions_service ON async_executions (service_id);
