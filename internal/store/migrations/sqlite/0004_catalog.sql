-- SQLite part of 0004_catalog.sql: a boolean is an INTEGER here, so the
-- condition compares with 1.
CREATE UNIQUE INDEX mappings_one_active ON mappings (operation_id) WHERE active = 1;
