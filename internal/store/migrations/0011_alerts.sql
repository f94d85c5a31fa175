-- alert_rule_states is the alert evaluation job's memory per discovery
-- alert rule (internal/notify): what the last evaluation found (state) and
-- what the last sent mail announced (notified_state), so neither a restart
-- nor another instance sends a mail twice. A rule with no row is ok and was
-- never mailed about.
CREATE TABLE alert_rule_states (
    row_id          {{int64}} PRIMARY KEY,
    tenant_id       TEXT NOT NULL,
    service_uri     TEXT NOT NULL,
    state           TEXT NOT NULL,
    notified_state  TEXT NOT NULL,
    changed_at      {{time}} NOT NULL,
    last_attempt_at {{time}},
    last_sent_at    {{time}}
);

-- alert_mail_history holds every attempt to deliver an alert mail, sent or
-- failed (GET /admin/v1/settings/alert-mail-history), newest first by
-- attempted_at. recipients is a JSON array; error is redacted before it is
-- stored. Kept default_retention_days.
CREATE TABLE alert_mail_history (
    mail_id      TEXT PRIMARY KEY,
    attempted_at {{time}} NOT NULL,
    tenant_id    TEXT NOT NULL,
    kind         TEXT NOT NULL,
    status       TEXT NOT NULL,
    row_id       {{int64}},
    service_uri  TEXT NOT NULL,
    recipients   TEXT NOT NULL,
    subject      TEXT NOT NULL,
    error        TEXT NOT NULL,
    actor_email  TEXT NOT NULL
);
CREATE INDEX alert_mail_history_tenant ON alert_mail_history (tenant_id, attempted_at);
CREATE INDEX alert_mail_history_attempted ON alert_mail_history (attempted_at);
