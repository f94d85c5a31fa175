package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// inboundWSSRow is the JSON of inbound_ws_security.policy: the policy with
// each password sealed (secret.Box ciphertext, never clear text).
type inboundWSSRow struct {
	Mode                   string            `json:"mode"`
	UsernameTokens         []inboundWSSRowUT `json:"usernameTokens"`
	TrustedCertificatesPEM []string          `json:"trustedCertificatesPem"`
	RequireSignature       bool              `json:"requireSignature"`
	RequireTimestamp       bool              `json:"requireTimestamp"`
	MaxClockSkewSeconds    int               `json:"maxClockSkewSeconds"`
}

type inboundWSSRowUT struct {
	Username  string     `json:"username"`
	Sealed    string     `json:"sealedPassword"`
	UpdatedAt *time.Time `json:"passwordUpdatedAt,omitempty"`
	UpdatedBy string     `json:"passwordUpdatedBy,omitempty"`
}

// PutInboundWSS replaces the inbound WS-Security policy of c.ServiceID
// (updated now when c.UpdatedAt is nil).
func (tx *Tx) PutInboundWSS(ctx context.Context, c model.InboundWSSConfig) error {
	row := inboundWSSRow{Mode: c.Mode, TrustedCertificatesPEM: c.TrustedCertificatesPEM,
		RequireSignature: c.RequireSignature, RequireTimestamp: c.RequireTimestamp, MaxClockSkewSeconds: c.MaxClockSkewSeconds}
	for _, u := range c.UsernameTokens {
		ut := inboundWSSRowUT{Username: u.Username, Sealed: u.Password.Sealed(), UpdatedAt: u.Password.LastUpdatedAt}
		if u.Password.LastUpdatedBy != nil {
			ut.UpdatedBy = *u.Password.LastUpdatedBy
		}
		row.UsernameTokens = append(row.UsernameTokens, ut)
	}
	policy, err := json.Marshal(row)
	if err != nil {
		return fmt.Errorf("store: inbound ws-security: %w", err)
	}
	at := NewTime(time.Now())
	if c.UpdatedAt != nil {
		at = NewTime(*c.UpdatedAt)
	}
	if _, err := tx.Exec(ctx, "DELETE FROM inbound_ws_security WHERE service_id = $1", c.ServiceID); err != nil {
		return fmt.Errorf("store: inbound ws-security: %w", err)
	}
	_, err = tx.Exec(ctx, `INSERT INTO inbound_ws_security (service_id, policy, updated_at, updated_by)
		VALUES ($1, $2, $3, $4)`, c.ServiceID, string(policy), at, c.UpdatedBy)
	if err != nil {
		return fmt.Errorf("store: inbound ws-security: %w", err)
	}
	return nil
}

// InboundWSS returns the inbound WS-Security policy of a service: the
// default (mode off) when none was ever stored.
func (s *Store) InboundWSS(ctx context.Context, serviceID string) (model.InboundWSSConfig, error) {
	return inboundWSS(ctx, s.reader(), serviceID)
}

// InboundWSS returns the policy of a service as seen by the transaction.
func (tx *Tx) InboundWSS(ctx context.Context, serviceID string) (model.InboundWSSConfig, error) {
	return inboundWSS(ctx, tx, serviceID)
}

func inboundWSS(ctx context.Context, q Querier, serviceID string) (model.InboundWSSConfig, error) {
	c := model.DefaultInboundWSSConfig(serviceID)
	var (
		policy string
		at     Time
	)
	err := q.QueryRow(ctx, "SELECT policy, updated_at, updated_by FROM inbound_ws_security WHERE service_id = $1",
		serviceID).Scan(&policy, &at, &c.UpdatedBy)
	if errors.Is(err, ErrNotFound) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("store: inbound ws-security: %w", err)
	}
	var row inboundWSSRow
	if err := json.Unmarshal([]byte(policy), &row); err != nil {
		return c, fmt.Errorf("store: inbound ws-security column: %w", err)
	}
	c.Mode, c.RequireSignature, c.RequireTimestamp = row.Mode, row.RequireSignature, row.RequireTimestamp
	c.MaxClockSkewSeconds = row.MaxClockSkewSeconds
	if row.TrustedCertificatesPEM != nil {
		c.TrustedCertificatesPEM = row.TrustedCertificatesPEM
	}
	for _, u := range row.UsernameTokens {
		var when time.Time
		if u.UpdatedAt != nil {
			when = *u.UpdatedAt
		}
		c.UsernameTokens = append(c.UsernameTokens,
			model.InboundWSSUser{Username: u.Username, Password: model.NewCredential(u.Sealed, when, u.UpdatedBy)})
	}
	t := at.Time
	c.UpdatedAt = &t
	return c, nil
}

// nonceSeenCalls counts NonceSeen calls of this process, to prune expired
// nonces every noncePruneEvery calls.
var nonceSeenCalls atomic.Uint64

// noncePruneEvery is how many recorded nonces pass between two prunes.
const noncePruneEvery = 512

// NonceSeen records a WS-Security UsernameToken nonce key until the given
// time and reports whether it was already recorded and had not expired
// (wssec.NonceStore). Insert-if-absent-or-expired in one statement, so two
// instances racing on one PostgreSQL see it recorded exactly once.
func (s *Store) NonceSeen(ctx context.Context, nonce string, until time.Time) (bool, error) {
	now, w := NewTime(time.Now()), querier{q: s.write}
	if nonceSeenCalls.Add(1)%noncePruneEvery == 0 {
		if _, err := w.Exec(ctx, "DELETE FROM wss_nonces WHERE expires_at <= $1", now); err != nil {
			return false, fmt.Errorf("store: prune ws-security nonces: %w", err)
		}
	}
	res, err := w.Exec(ctx, `INSERT INTO wss_nonces (nonce, expires_at) VALUES ($1, $2)
		ON CONFLICT (nonce) DO UPDATE SET expires_at = excluded.expires_at WHERE wss_nonces.expires_at <= $3`,
		nonce, NewTime(until), now)
	if err != nil {
		return false, fmt.Errorf("store: record ws-security nonce: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("store: record ws-security nonce: %w", err)
	}
	return n == 0, nil
}
