-- PostgreSQL part of 0004_catalog.sql: the condition is the boolean itself.
CREATE UNIQUE INDEX mappings_one_active ON mappings (operation_id) WHERE active;
