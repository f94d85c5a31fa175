-- Admin area: settings, role and permission bindings, audit events.
-- Times are TEXT in the fixed-width UTC form of store.Time.

-- settings holds only settings changed from their defaults; value is the
-- JSON of the value, for a credential the JSON string of its sealed form.
CREATE TABLE settings (
    name       TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    updated_by TEXT NOT NULL
);

-- role_bindings maps identity-provider groups to roles; replaced as a set.
CREATE TABLE role_bindings (
    group_id  TEXT NOT NULL,
    tenant_id TEXT NOT NULL,
    role      TEXT NOT NULL CHECK (role IN ('admin', 'operator', 'reader')),
    position  INTEGER NOT NULL,
    PRIMARY KEY (group_id, tenant_id)
);

-- permission_bindings assigns a role directly to one user e-mail.
CREATE TABLE permission_bindings (
    binding_id TEXT PRIMARY KEY,
    email      TEXT NOT NULL UNIQUE,
    role       TEXT NOT NULL CHECK (role IN ('admin', 'operator', 'reader')),
    tenant_id  TEXT NOT NULL,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL
);

-- audit_events is append-only; seq breaks ties of equal occurred_at.
CREATE TABLE audit_events (
    seq            INTEGER PRIMARY KEY,
    event_id       TEXT NOT NULL UNIQUE,
    occurred_at    TEXT NOT NULL,
    actor_email    TEXT NOT NULL,
    actor_role     TEXT NOT NULL,
    action_type    TEXT NOT NULL,
    entity_type    TEXT NOT NULL,
    entity_id      TEXT NOT NULL,
    result         TEXT NOT NULL CHECK (result IN ('success', 'failure')),
    correlation_id TEXT NOT NULL,
    message        TEXT NOT NULL,
    before_state   TEXT,
    after_state    TEXT
);
CREATE INDEX audit_events_occurred ON audit_events (occurred_at, seq);
CREATE INDEX audit_events_entity ON audit_events (entity_type, entity_id);
CREATE INDEX audit_events_correlation ON audit_events (correlation_id);
CREATE INDEX audit_events_actor ON audit_events (actor_email);
