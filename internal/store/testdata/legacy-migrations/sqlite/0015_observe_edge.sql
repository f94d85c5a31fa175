-- The lb and generic traffic sources in the observability aggregates
-- (docs/decisions-observe.md, "Edge sources: lb and generic"). Times are
-- TEXT in the fixed-width UTC form of store.Time.

-- traffic_hourly and traffic_daily gain the tenant of their traffic: ''
-- for runtime records (the catalog is shared by every tenant), the
-- reporting instance's tenant for lb and generic traffic (DESIGN 6.4).
-- SQLite cannot change a primary key: the tables are rebuilt.
CREATE TABLE traffic_hourly_new (
    source           TEXT NOT NULL,
    hour             TEXT NOT NULL,
    tenant_id        TEXT NOT NULL,
    direction        TEXT NOT NULL,
    environment      TEXT NOT NULL,
    service_key      TEXT NOT NULL,
    operation_key    TEXT NOT NULL,
    service_id       TEXT NOT NULL,
    requests         INTEGER NOT NULL,
    errors           INTEGER NOT NULL,
    latency_sum_ms   REAL NOT NULL,
    latency_max_ms   REAL NOT NULL,
    converter_max_ms REAL,
    PRIMARY KEY (source, hour, tenant_id, direction, environment, service_key, operation_key, service_id)
);
INSERT INTO traffic_hourly_new SELECT source, hour, '', direction, environment, service_key, operation_key, service_id,
    requests, errors, latency_sum_ms, latency_max_ms, converter_max_ms FROM traffic_hourly;
DROP TABLE traffic_hourly;
ALTER TABLE traffic_hourly_new RENAME TO traffic_hourly;
CREATE INDEX traffic_hourly_hour ON traffic_hourly (hour);

CREATE TABLE traffic_daily_new (
    source           TEXT NOT NULL,
    day              TEXT NOT NULL,
    tenant_id        TEXT NOT NULL,
    direction        TEXT NOT NULL,
    environment      TEXT NOT NULL,
    service_key      TEXT NOT NULL,
    operation_key    TEXT NOT NULL,
    service_id       TEXT NOT NULL,
    requests         INTEGER NOT NULL,
    errors           INTEGER NOT NULL,
    latency_sum_ms   REAL NOT NULL,
    latency_max_ms   REAL NOT NULL,
    converter_max_ms REAL,
    PRIMARY KEY (source, day, tenant_id, direction, environment, service_key, operation_key, service_id)
);
INSERT INTO traffic_daily_new SELECT source, day, '', direction, environment, service_key, operation_key, service_id,
    requests, errors, latency_sum_ms, latency_max_ms, converter_max_ms FROM traffic_daily;
DROP TABLE traffic_daily;
ALTER TABLE traffic_daily_new RENAME TO traffic_daily;
CREATE INDEX traffic_daily_day ON traffic_daily (day);

-- discovery_hourly.errors counts the calls that are errors by SPEC 4.11
-- rule 4 (store.EdgeError), maintained at ingest beside failures; the lb
-- and generic hourly aggregates are computed from this rollup. Existing
-- rows are filled from the stored events (the hour's upper bound is its
-- prefix followed by ';', the character after ':').
ALTER TABLE discovery_hourly ADD COLUMN errors INTEGER NOT NULL DEFAULT 0;
UPDATE discovery_hourly SET errors = (
    SELECT COUNT(*) FROM lb_events e WHERE discovery_hourly.source = 'lb' AND e.row_id = discovery_hourly.row_id
        AND e.vendor = discovery_hourly.vendor AND e.stage = 'client_response'
        AND e.occurred_at >= discovery_hourly.hour AND e.occurred_at < substr(discovery_hourly.hour, 1, 13) || ';'
        AND (e.soap_fault OR e.status_code >= 400 OR e.result_code NOT IN ('', 'ok', 'success'))) + (
    SELECT COUNT(*) FROM generic_logs g WHERE discovery_hourly.source = 'generic' AND g.row_id = discovery_hourly.row_id
        AND g.vendor = discovery_hourly.vendor
        AND g.occurred_at >= discovery_hourly.hour AND g.occurred_at < substr(discovery_hourly.hour, 1, 13) || ';'
        AND (g.soap_fault OR g.status_code >= 400 OR g.result_code NOT IN ('', 'ok', 'success')));

-- traffic_dirty_hours: the hours of the lb and generic sources that
-- received calls, written by ingest in the transaction that stores them
-- (and by the aggregation job when a discovery row's service match
-- changes); the aggregation job re-aggregates the hours of the entries
-- above its low-water mark and deletes the entries it has passed.
-- AUTOINCREMENT: ids must never be reused once entries are deleted.
CREATE TABLE traffic_dirty_hours (
    id     INTEGER PRIMARY KEY AUTOINCREMENT,
    source TEXT NOT NULL,
    hour   TEXT NOT NULL
);
CREATE INDEX traffic_dirty_hours_source ON traffic_dirty_hours (source, id);
INSERT INTO traffic_dirty_hours (source, hour) SELECT DISTINCT source, hour FROM discovery_hourly ORDER BY 2, 1;

-- traffic_row_matches: the service match of every discovery row as the
-- aggregates last saw it; a row whose match (or matched service's
-- direction) changed has its hours re-aggregated.
CREATE TABLE traffic_row_matches (
    row_id      INTEGER PRIMARY KEY,
    service_id  TEXT NOT NULL,
    direction   TEXT NOT NULL,
    environment TEXT NOT NULL,
    service_key TEXT NOT NULL
);
INSERT INTO traffic_row_matches (row_id, service_id, direction, environment, service_key)
SELECT r.row_id, COALESCE(r.onboarded_service_id, ''), COALESCE(sv.direction, ''), r.environment, r.service_key
FROM discovery_rows r LEFT JOIN services sv ON sv.service_id = r.onboarded_service_id;

-- lb_events_calls: the lb transactions (their client_response, one event
-- in four) of a tenant in time order. Every edge view reads transactions
-- this way (traffic logs, search, metrics, virtual-server failures);
-- without it a window reads all four stage events of each transaction
-- through lb_events_event. The cost is one index insertion per
-- transaction at ingest (docs/PERFORMANCE.md). Queries repeat the
-- condition literally (SQLite uses a partial index only then).
CREATE INDEX lb_events_calls ON lb_events (tenant_id, occurred_at) WHERE stage = 'client_response';
