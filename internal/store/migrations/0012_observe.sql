-- Hours are store.Time at the full UTC hour (on SQLite the text ends in
-- ":00:00.000000Z").

-- traffic_hourly holds the hourly aggregates of every traffic source
-- (SPEC 4.11 rule 1): one row per (source, hour, direction, environment,
-- service key, operation key, canonical service id), recomputed whole by
-- the aggregation job (internal/observe/aggregate.go) for every hour that
-- received raw records since its previous run, so re-aggregating an hour
-- gives the same row. errors counts SPEC 4.11 rule 4 (result code or
-- in-body fault). latency_sum_ms / requests is the aggregated p50,
-- latency_max_ms the aggregated p95 and p99; converter_max_ms is NULL for
-- sources without converter figures. service_id is '' for traffic that
-- matched no onboarded service.
CREATE TABLE traffic_hourly (
    source           TEXT NOT NULL,
    hour             {{time}} NOT NULL,
    direction        TEXT NOT NULL,
    environment      TEXT NOT NULL,
    service_key      TEXT NOT NULL,
    operation_key    TEXT NOT NULL,
    service_id       TEXT NOT NULL,
    requests         {{int64}} NOT NULL,
    errors           {{int64}} NOT NULL,
    latency_sum_ms   {{float64}} NOT NULL,
    latency_max_ms   {{float64}} NOT NULL,
    converter_max_ms {{float64}},
    PRIMARY KEY (source, hour, direction, environment, service_key, operation_key, service_id)
);
CREATE INDEX traffic_hourly_hour ON traffic_hourly (hour);

-- traffic_daily rolls traffic_hourly up per UTC day (same groups and
-- figures), rebuilt from the day's hourly rows whenever one of them
-- changes: windows of many days read whole days here and only their
-- partial first and last days from traffic_hourly.
CREATE TABLE traffic_daily (
    source           TEXT NOT NULL,
    day              {{time}} NOT NULL,
    direction        TEXT NOT NULL,
    environment      TEXT NOT NULL,
    service_key      TEXT NOT NULL,
    operation_key    TEXT NOT NULL,
    service_id       TEXT NOT NULL,
    requests         {{int64}} NOT NULL,
    errors           {{int64}} NOT NULL,
    latency_sum_ms   {{float64}} NOT NULL,
    latency_max_ms   {{float64}} NOT NULL,
    converter_max_ms {{float64}},
    PRIMARY KEY (source, day, direction, environment, service_key, operation_key, service_id)
);
CREATE INDEX traffic_daily_day ON traffic_daily (day);

-- traffic_aggregation_state is the aggregation job's progress per source:
-- raw rows with an id above low_water are looked at again on the next run
-- (their hours re-aggregated); high_water is the largest id seen, and
-- becomes low_water once it is older than the settle time, so a row whose
-- transaction committed after a later id was visible is still counted.
-- refreshed_at is the end of the last successful run (dataFreshness).
CREATE TABLE traffic_aggregation_state (
    source        TEXT PRIMARY KEY,
    low_water     {{int64}} NOT NULL,
    high_water    {{int64}} NOT NULL,
    high_water_at {{time}} NOT NULL,
    refreshed_at  {{time}} NOT NULL
);

-- The headers of a debug transaction (request, answer, backend request,
-- backend answer) as a JSON object, redacted before storage; NULL when
-- debug was off.
ALTER TABLE runtime_tx_logs ADD COLUMN debug_headers TEXT;
