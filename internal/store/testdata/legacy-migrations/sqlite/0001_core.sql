-- Core tables owned by the foundation. Times are TEXT in the fixed-width
-- UTC form of store.Time (2006-01-02T15:04:05.000000Z), which sorts as time.

-- config_revision has exactly one row; every admin change bumps it so that
-- running instances notice they must recompile the route table.
CREATE TABLE config_revision (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    revision INTEGER NOT NULL
);
INSERT INTO config_revision (id, revision) VALUES (1, 0);

-- bad_url_attempts records requests rejected with S2R-RUN-0405, written in
-- batches off the request path, read by the bad-URL summary.
CREATE TABLE bad_url_attempts (
    id     INTEGER PRIMARY KEY,
    path   TEXT NOT NULL,
    method TEXT NOT NULL,
    at     TEXT NOT NULL
);
CREATE INDEX bad_url_attempts_at ON bad_url_attempts (at);
