-- SOAP message security toward backends (DESIGN 10.1, 10.3). ws_security
-- is the profile's outbound WS-Security configuration as JSON (model.
-- WSSecurity), '' for none; its secrets (wssPassword, wssSigningKeyPem)
-- live sealed in the credentials column like every other credential.
-- ws_addressing makes synchronous publish send WS-Addressing headers even
-- when the WSDL does not declare them.
ALTER TABLE backend_profiles ADD COLUMN ws_security TEXT NOT NULL DEFAULT '';
ALTER TABLE backend_profiles ADD COLUMN ws_addressing {{bool}} NOT NULL DEFAULT {{false}};
