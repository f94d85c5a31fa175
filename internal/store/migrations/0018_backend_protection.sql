-- Backend protection and client rate limits (DESIGN 10.6), per instance.

-- A backend profile's caps: NULL is unlimited; queue_timeout_ms 0 refuses
-- a call over a cap at once.
ALTER TABLE backend_profiles ADD COLUMN max_concurrent_requests {{int64}};
ALTER TABLE backend_profiles ADD COLUMN max_requests_per_second {{float64}};
ALTER TABLE backend_profiles ADD COLUMN queue_timeout_ms {{int64}} NOT NULL DEFAULT 0;

-- service_rate_limits: the rate limit per client of a service; no row, no
-- limit. client_key is "ip" or "header:NAME"; burst is stored resolved.
CREATE TABLE service_rate_limits (
    service_id          TEXT PRIMARY KEY REFERENCES services (service_id) ON DELETE CASCADE,
    client_key          TEXT NOT NULL,
    requests_per_minute {{int64}} NOT NULL,
    burst               {{int64}} NOT NULL,
    updated_at          {{time}} NOT NULL,
    updated_by          TEXT NOT NULL
);
