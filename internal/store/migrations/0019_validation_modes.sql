-- Response validation modes (DESIGN 10.6). operations.response_validation
-- is strict (refuse a response that breaks the contract: the behaviour
-- before this migration), detect (answer it and record the violations)
-- or off. runtime_tx_logs.validation_issues holds the JSON array of the
-- violations a detect-mode transaction found ([{pointer, reason}]); NULL
-- when there were none.
ALTER TABLE operations ADD COLUMN response_validation TEXT NOT NULL DEFAULT 'strict';
ALTER TABLE runtime_tx_logs ADD COLUMN validation_issues TEXT;
