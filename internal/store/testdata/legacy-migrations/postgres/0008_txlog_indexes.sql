-- Fewer index writes per recorded transaction: every runtime request
-- inserts a row, and each secondary index is one more B-tree insert (the
-- recorder's largest cost under load, docs/PERFORMANCE.md). The result
-- index now covers only the rows that are not successes (the ones a
-- result filter looks for; successes are the bulk of the table and are
-- found through the time and route indexes), and the status index goes:
-- a status filter always comes with a time window (occurred index) or a
-- route. store.txLogWhere adds the index's condition to a result filter
-- that does not ask for successes, so the planner can use it.
DROP INDEX runtime_tx_logs_result;
DROP INDEX runtime_tx_logs_status;
CREATE INDEX runtime_tx_logs_not_success ON runtime_tx_logs (result_code, occurred_at) WHERE result_code <> 'success';
