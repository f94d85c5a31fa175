-- WS-Security on incoming consume and gateway requests (DESIGN 10.2,
-- docs/ws-security.md).

-- inbound_ws_security: one policy per service, as JSON
-- (store.inboundWSSRow): mode, accepted usernames with their passwords
-- sealed by internal/secret (never in clear), trusted certificates, the
-- require flags and the clock skew. A service without a row has mode off.
CREATE TABLE inbound_ws_security (
    service_id TEXT PRIMARY KEY REFERENCES services (service_id) ON DELETE CASCADE,
    policy     TEXT NOT NULL,
    updated_at {{time}} NOT NULL,
    updated_by TEXT NOT NULL
);

-- wss_nonces: UsernameToken nonces seen by any instance sharing this
-- database, so that a replay is refused on every instance. nonce is the
-- 64-hex-digit key of wssec (a hash of the username and the Nonce); a row
-- counts until expires_at, after which the same key may be recorded again
-- (insert-if-absent-or-expired). Expired rows are pruned by the instances
-- as they record new nonces (store.Store.NonceSeen).
CREATE TABLE wss_nonces (
    nonce      TEXT PRIMARY KEY,
    expires_at {{time}} NOT NULL
);
CREATE INDEX wss_nonces_expires ON wss_nonces (expires_at);

-- The authenticated WS-Security username or certificate subject of a
-- consume or gateway transaction; '' when none.
ALTER TABLE runtime_tx_logs ADD COLUMN consumer_identity TEXT NOT NULL DEFAULT '';
