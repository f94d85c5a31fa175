-- alert_rule_states is the alert evaluation job's memory per discovery
-- alert rule (internal/notify): what the last evaluation found (state) and
-- what the last sent mail announced (notified_state), so neither a restart
-- nor another instance sends a mail twice. A rule with no row is ok and was
-- never mailed about. Times are TEXT in the fixed-width UTC form of
-- store.Time.
CREATE TABLE alert_rule_states (
    row_id          INTEGER PRIMARY KEY,
    tenant_id       TEXT NOT NULL,
    service_uri     TEXT NOT NULL,
    state           TEXT NOT NULL,
    notified_state  TEXT NOT NULL,
    changed_at      TEXT NOT NULL,
    last_attempt_at TEXT,
    last_sent_at    TEXT
);

-- alert_mail_history holds every attempt to deliver an alert mail, sent or
-- failed (GET /admin/v1/settings/alert-mail-history), newest first by
-- attempted_at. recipients is a JSON array; error is redacted before it is
-- stored. Kept default_retention_days.
CREATE TABLE alert_mail_history (
    mail_id      TEXT PRIMARY KEY,
    attempted_at TEXT NOT NULL,
    tenant_id    TEXT NOT NULL,
    kind         TEXT NOT NULL,
    status       TEXT NOT NULL,
    row_id       INTEGER,
    service_uri  TEXT NOT NULL,
    recipients   TEXT NOT NULL,
    subject      TEXT NOT NULL,
    error        TEXT NOT NULL,
    actor_email  TEXT NOT NULL
);
CREATE INDEX alert_mail_history_tenant ON alert_mail_history (tenant_id, attempted_at);
CREATE INDEX alert_mail_history_attempted ON alert_mail_history (attempted_at);
