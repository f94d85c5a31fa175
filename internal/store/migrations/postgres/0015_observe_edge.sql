-- PostgreSQL part of 0015_observe_edge.sql.

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

-- Existing discovery_hourly rows are filled from the stored events.
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
