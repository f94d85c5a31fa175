-- SQLite part of 0015_observe_edge.sql.

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

-- Existing discovery_hourly rows are filled from the stored events (the
-- hour's upper bound is its prefix followed by ';', the character after
-- ':').
UPDATE discovery_hourly SET errors = (
    SELECT COUNT(*) FROM lb_events e WHERE discovery_hourly.source = 'lb' AND e.row_id = discovery_hourly.row_id
        AND e.vendor = discovery_hourly.vendor AND e.stage = 'client_response'
        AND e.occurred_at >= discovery_hourly.hour AND e.occurred_at < substr(discovery_hourly.hour, 1, 13) || ';'
        AND (e.soap_fault OR e.status_code >= 400 OR e.result_code NOT IN ('', 'ok', 'success'))) + (
    SELECT COUNT(*) FROM generic_logs g WHERE discovery_hourly.source = 'generic' AND g.row_id = discovery_hourly.row_id
        AND g.vendor = discovery_hourly.vendor
        AND g.occurred_at >= discovery_hourly.hour AND g.occurred_at < substr(discovery_hourly.hour, 1, 13) || ';'
        AND (g.soap_fault OR g.status_code >= 400 OR g.result_code NOT IN ('', 'ok', 'success')));
