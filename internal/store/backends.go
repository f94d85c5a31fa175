package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

const backendColumns = `p.profile_id, p.service_id, p.name, p.endpoint_url, p.auth_type, p.username,
	p.api_key_header_name, p.token_url, p.client_id, p.scope, p.credentials, p.mtls_enabled, p.client_cert_pem,
	p.ca_cert_pem, p.connect_timeout_ms, p.tls_handshake_timeout_ms, p.idle_conn_timeout_ms,
	p.max_idle_conns_per_host, p.timeout_ms, p.retry_count, p.routing_priority, p.routing_weight,
	p.health_check_url, p.created_at, p.updated_at, p.ws_security, p.ws_addressing,
	CASE WHEN s.default_backend_profile_id = p.profile_id THEN 1 ELSE 0 END, ` + protectionColumns

const backendFrom = ` FROM backend_profiles p JOIN services s ON s.service_id = p.service_id`

// storedCredential is the JSON form of one credential in the credentials
// column. Only sealed values are stored.
type storedCredential struct {
	Sealed    string    `json:"sealed"`
	UpdatedAt time.Time `json:"updatedAt,omitzero"`
	UpdatedBy string    `json:"updatedBy,omitempty"`
}

// CreateBackendProfile stores a new backend profile. The credentials must
// already be sealed; IsDefault is not stored (it is the service's
// defaultBackendProfileId). A missing service gives ErrConflict, a name
// already used by the service ErrAlreadyExists.
func (tx *Tx) CreateBackendProfile(ctx context.Context, p model.BackendProfile) error {
	creds, err := credentialsText(p.Credentials)
	if err != nil {
		return fmt.Errorf("store: create backend profile: %w", err)
	}
	wss, err := wsSecurityText(p.WSSecurity)
	if err != nil {
		return fmt.Errorf("store: create backend profile: %w", err)
	}
	_, err = tx.Exec(ctx, `INSERT INTO backend_profiles (profile_id, service_id, name, endpoint_url, auth_type,
		username, api_key_header_name, token_url, client_id, scope, credentials, mtls_enabled, client_cert_pem,
		ca_cert_pem, connect_timeout_ms, tls_handshake_timeout_ms, idle_conn_timeout_ms, max_idle_conns_per_host,
		timeout_ms, retry_count, routing_priority, routing_weight, health_check_url, created_at, updated_at,
		ws_security, ws_addressing)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
		$22, $23, $24, $25, $26, $27)`,
		p.ProfileID, p.ServiceID, p.Name, p.EndpointURL, p.AuthType, p.Username, p.APIKeyHeaderName, p.TokenURL,
		p.ClientID, p.Scope, creds, p.MTLSEnabled, p.ClientCertPEM, p.CACertPEM, p.ConnectTimeoutMs,
		p.TLSHandshakeTimeoutMs, p.IdleConnTimeoutMs, p.MaxIdleConnsPerHost, p.TimeoutMs, p.RetryCount,
		p.RoutingPriority, p.RoutingWeight, p.HealthCheckURL, NewTime(p.CreatedAt), NewTime(p.UpdatedAt),
		wss, p.WSAddressing)
	if err != nil {
		return fmt.Errorf("store: create backend profile: %w", err)
	}
	return tx.writeBackendProtection(ctx, p)
}

// UpdateBackendProfile rewrites every mutable column of the profile
// p.ProfileID (all but its id, service and creation time); ErrNotFound
// when there is none.
func (tx *Tx) UpdateBackendProfile(ctx context.Context, p model.BackendProfile) error {
	creds, err := credentialsText(p.Credentials)
	if err != nil {
		return fmt.Errorf("store: update backend profile: %w", err)
	}
	wss, err := wsSecurityText(p.WSSecurity)
	if err != nil {
		return fmt.Errorf("store: update backend profile: %w", err)
	}
	res, err := tx.Exec(ctx, `UPDATE backend_profiles SET name = $2, endpoint_url = $3, auth_type = $4,
		username = $5, api_key_header_name = $6, token_url = $7, client_id = $8, scope = $9, credentials = $10,
		mtls_enabled = $11, client_cert_pem = $12, ca_cert_pem = $13, connect_timeout_ms = $14,
		tls_handshake_timeout_ms = $15, idle_conn_timeout_ms = $16, max_idle_conns_per_host = $17,
		timeout_ms = $18, retry_count = $19, routing_priority = $20, routing_weight = $21,
		health_check_url = $22, updated_at = $23, ws_security = $24, ws_addressing = $25 WHERE profile_id = $1`,
		p.ProfileID, p.Name, p.EndpointURL, p.AuthType, p.Username, p.APIKeyHeaderName, p.TokenURL, p.ClientID,
		p.Scope, creds, p.MTLSEnabled, p.ClientCertPEM, p.CACertPEM, p.ConnectTimeoutMs, p.TLSHandshakeTimeoutMs,
		p.IdleConnTimeoutMs, p.MaxIdleConnsPerHost, p.TimeoutMs, p.RetryCount, p.RoutingPriority, p.RoutingWeight,
		p.HealthCheckURL, NewTime(p.UpdatedAt), wss, p.WSAddressing)
	if err != nil {
		return fmt.Errorf("store: update backend profile: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("store: update backend profile %s: %w", p.ProfileID, ErrNotFound)
	}
	return tx.writeBackendProtection(ctx, p)
}

// DeleteBackendProfile removes the profile and its test previews;
// ErrNotFound when there is none. The caller reassigns the service's
// default profile first when it pointed at this one.
func (tx *Tx) DeleteBackendProfile(ctx context.Context, id string) error {
	res, err := tx.Exec(ctx, "DELETE FROM backend_profiles WHERE profile_id = $1", id)
	if err != nil {
		return fmt.Errorf("store: delete backend profile: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("store: delete backend profile %s: %w", id, ErrNotFound)
	}
	return nil
}

// BackendProfile returns the profile with id; ErrNotFound when there is
// none.
func (s *Store) BackendProfile(ctx context.Context, id string) (model.BackendProfile, error) {
	return getBackendProfile(ctx, s.reader(), id)
}

// BackendProfile returns the profile with id as seen by the transaction.
func (tx *Tx) BackendProfile(ctx context.Context, id string) (model.BackendProfile, error) {
	return getBackendProfile(ctx, tx, id)
}

// BackendProfiles returns the profiles of a service in routing order:
// routingPriority, then creation time, then id.
func (s *Store) BackendProfiles(ctx context.Context, serviceID string) ([]model.BackendProfile, error) {
	return listBackendProfiles(ctx, s.reader(), serviceID)
}

// BackendProfiles returns the profiles of a service in routing order, as
// seen by the transaction.
func (tx *Tx) BackendProfiles(ctx context.Context, serviceID string) ([]model.BackendProfile, error) {
	return listBackendProfiles(ctx, tx, serviceID)
}

func getBackendProfile(ctx context.Context, q Querier, id string) (model.BackendProfile, error) {
	row := q.QueryRow(ctx, "SELECT "+backendColumns+backendFrom+" WHERE p.profile_id = $1", id)
	p, err := scanBackendProfile(row.Scan)
	if err != nil {
		return model.BackendProfile{}, fmt.Errorf("store: backend profile: %w", err)
	}
	return p, nil
}

func listBackendProfiles(ctx context.Context, q Querier, serviceID string) ([]model.BackendProfile, error) {
	rows, err := q.Query(ctx, "SELECT "+backendColumns+backendFrom+
		" WHERE p.service_id = $1 ORDER BY p.routing_priority, p.created_at, p.profile_id", serviceID)
	if err != nil {
		return nil, fmt.Errorf("store: backend profiles: %w", err)
	}
	defer rows.Close()
	out := []model.BackendProfile{}
	for rows.Next() {
		p, err := scanBackendProfile(rows.Scan)
		if err != nil {
			return nil, fmt.Errorf("store: backend profiles: %w", err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: backend profiles: %w", mapError(err))
	}
	return out, nil
}

func scanBackendProfile(scan func(...any) error) (model.BackendProfile, error) {
	var (
		p                model.BackendProfile
		creds, wss       string
		created, updated Time
		isDefault        int
	)
	err := scan(&p.ProfileID, &p.ServiceID, &p.Name, &p.EndpointURL, &p.AuthType, &p.Username,
		&p.APIKeyHeaderName, &p.TokenURL, &p.ClientID, &p.Scope, &creds, &p.MTLSEnabled, &p.ClientCertPEM,
		&p.CACertPEM, &p.ConnectTimeoutMs, &p.TLSHandshakeTimeoutMs, &p.IdleConnTimeoutMs,
		&p.MaxIdleConnsPerHost, &p.TimeoutMs, &p.RetryCount, &p.RoutingPriority, &p.RoutingWeight,
		&p.HealthCheckURL, &created, &updated, &wss, &p.WSAddressing, &isDefault, &p.MaxConcurrentRequests, &p.MaxRequestsPerSecond,
		&p.QueueTimeoutMs)
	if err != nil {
		return model.BackendProfile{}, err
	}
	p.CreatedAt, p.UpdatedAt, p.IsDefault = created.Time, updated.Time, isDefault == 1
	p.Credentials, err = parseCredentials(creds)
	if err != nil {
		return model.BackendProfile{}, err
	}
	if p.WSSecurity, err = parseWSSecurity(wss); err != nil {
		return model.BackendProfile{}, err
	}
	return p, nil
}

// credentialsText encodes the credentials column: only fields that were
// ever set or cleared appear.
func credentialsText(c model.BackendCredentials) (string, error) {
	m := map[string]storedCredential{}
	for _, name := range model.CredentialFields {
		f := c.Field(name)
		if !f.IsSet() && f.LastUpdatedAt == nil {
			continue
		}
		m[name] = storedCredentialOf(*f)
	}
	b, err := json.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("credentials: %w", err)
	}
	return string(b), nil
}

// storedCredentialOf is the stored form of c.
func storedCredentialOf(c model.Credential) storedCredential {
	sc := storedCredential{Sealed: c.Sealed()}
	if c.LastUpdatedAt != nil {
		sc.UpdatedAt = NewTime(*c.LastUpdatedAt).Time
	}
	if c.LastUpdatedBy != nil {
		sc.UpdatedBy = *c.LastUpdatedBy
	}
	return sc
}

// credentialText encodes a single-credential column ("{}" when the
// credential was never set or cleared).
func credentialText(c model.Credential) string {
	if !c.IsSet() && c.LastUpdatedAt == nil {
		return "{}"
	}
	b, _ := json.Marshal(storedCredentialOf(c)) // a struct of strings and a time cannot fail
	return string(b)
}

// parseCredential decodes a single-credential column.
func parseCredential(text string) (model.Credential, error) {
	var sc storedCredential
	if text == "" {
		return model.Credential{}, nil
	}
	if err := json.Unmarshal([]byte(text), &sc); err != nil {
		return model.Credential{}, err
	}
	return model.NewCredential(sc.Sealed, sc.UpdatedAt, sc.UpdatedBy), nil
}

func parseCredentials(text string) (model.BackendCredentials, error) {
	var (
		m map[string]storedCredential
		c model.BackendCredentials
	)
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		return c, fmt.Errorf("credentials column: %w", err)
	}
	for name, sc := range m {
		if f := c.Field(name); f != nil {
			*f = model.NewCredential(sc.Sealed, sc.UpdatedAt, sc.UpdatedBy)
		}
	}
	return c, nil
}
