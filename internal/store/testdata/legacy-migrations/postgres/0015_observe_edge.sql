-- The lb and generic traffic sources in the observability aggregates
-- (docs/decisions-observe.md, "Edge sources: lb and generic").

-- traffic_hourly and traffic_daily gain the tenant of their traffic: ''
-- for runtime records (the catalog is shared by every tenant), the
-- reporting instance's tenant for lb and generic traffic, so each tenant's
-- figures hold its own edge traffic only (DESIGN 6.4).
ALTER TABLE traffic_hourly ADD COLUMN tenant_id TEXT NOT NULL DEFAULT '';
ALTER TABLE traffic_hourly DROP CONSTRAINT traffic_hourly_pkey;
ALTER TABLE traffic_hourly ADD PRIMARY KEY (source, hour, tenant_id, direction, environment, service_key, operation_key, service_id);
ALTER TABLE traffic_daily ADD COLUMN tenant_id TEXT NOT NULL DEFAULT '';
ALTER TABLE traffic_daily DROP CONSTRAINT traffic_daily_pkey;
ALTER TABLE traffic_daily ADD PRIMARY KEY (source, day, tenant_id, direction, environment, service_key, operation_key, service_id);

-- discovery_hourly.errors counts the calls that are errors by SPEC 4.11
-- rule 4 (store.EdgeError: SOAP fault, HTTP status 400 or more, or an
-- edge result code other than ok and success), maintained at ingest
-- beside failures (discovery's own definition). The lb and generic hourly
-- aggregates are computed from this rollup. Existing rows are filled from
-- the stored events.
ALTER TABLE discovery_hourly ADD COLUMN errors BIGINT NOT NULL DEFAULT 0;
UPDATE discovery_hourly h SET errors = e.n FROM (
    SELECT row_id, 'lb' AS source, vendor, date_trunc('hour', occurred_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS hour,
        COUNT(*) AS n
    FROM lb_events WHERE stage = 'client_response' AND (soap_fault OR status_code >= 400 OR result_code NOT IN ('', 'ok', 'success'))
    GROUP BY 1, 3, 4
    UNION ALL
    SELECT row_id, 'generic', vendor, date_trunc('hour', occurred_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', COUNT(*)
    FROM generic_logs WHERE soap_fault OR status_code >= 400 OR result_code NOT IN ('', 'ok', 'success')
    GROUP BY 1, 3, 4) e
WHERE h.row_id = e.row_id AND h.source = e.source AND h.vendor = e.vendor AND h.hour = e.hour;

-- traffic_dirty_hours: the hours of the lb and generic sources that
-- received calls, written by ingest in the transaction that stores them
-- (and by the aggregation job when a discovery row's service match
-- changes). The aggregation job re-aggregates the hours of the entries
-- above its low-water mark, as it does with runtime record ids, and
-- deletes the entries it has passed. An append-only log: concurrent
-- ingest batches never wait on each other here.
CREATE TABLE traffic_dirty_hours (
    id     BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    source TEXT NOT NULL,
    hour   TIMESTAMPTZ NOT NULL
);
CREATE INDEX traffic_dirty_hours_source ON traffic_dirty_hours (source, id);
INSERT INTO traffic_dirty_hours (source, hour) SELECT DISTINCT source, hour FROM discovery_hourly ORDER BY 2, 1;

-- traffic_row_matches: the service match of every discovery row as the
-- aggregates last saw it. The aggregation job compares it with the rows'
-- current match (and the matched service's direction); a row that
-- changed has its hours re-aggregated, so the lb and generic aggregates
-- follow a service onboarded (or removed) after its traffic arrived.
CREATE TABLE traffic_row_matches (
    row_id      BIGINT PRIMARY KEY,
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
