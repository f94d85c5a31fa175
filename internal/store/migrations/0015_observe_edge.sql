-- The lb and generic traffic sources in the observability aggregates
-- (docs/decisions-observe.md, "Edge sources: lb and generic"). What the
-- dialects do differently is in sqlite/ and postgres/0015_observe_edge.sql,
-- which run after this file: traffic_hourly and traffic_daily gain
-- tenant_id, and existing discovery_hourly rows get their errors.

-- discovery_hourly.errors counts the calls that are errors by SPEC 4.11
-- rule 4 (store.EdgeError: SOAP fault, HTTP status 400 or more, or an
-- edge result code other than ok and success), maintained at ingest
-- beside failures (discovery's own definition). The lb and generic hourly
-- aggregates are computed from this rollup.
ALTER TABLE discovery_hourly ADD COLUMN errors {{int64}} NOT NULL DEFAULT 0;

-- traffic_dirty_hours: the hours of the lb and generic sources that
-- received calls, written by ingest in the transaction that stores them
-- (and by the aggregation job when a discovery row's service match
-- changes). The aggregation job re-aggregates the hours of the entries
-- above its low-water mark, as it does with runtime record ids, and
-- deletes the entries it has passed, so ids are never reused. An
-- append-only log: concurrent ingest batches never wait on each other
-- here.
CREATE TABLE traffic_dirty_hours (
    id     {{auto_id_no_reuse}},
    source TEXT NOT NULL,
    hour   {{time}} NOT NULL
);
CREATE INDEX traffic_dirty_hours_source ON traffic_dirty_hours (source, id);
INSERT INTO traffic_dirty_hours (source, hour) SELECT DISTINCT source, hour FROM discovery_hourly ORDER BY 2, 1;

-- traffic_row_matches: the service match of every discovery row as the
-- aggregates last saw it. The aggregation job compares it with the rows'
-- current match (and the matched service's direction); a row that
-- changed has its hours re-aggregated, so the lb and generic aggregates
-- follow a service onboarded (or removed) after its traffic arrived.
CREATE TABLE traffic_row_matches (
    row_id      {{int64}} PRIMARY KEY,
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
