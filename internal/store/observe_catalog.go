package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
)

// ServiceCounts are the catalog's services by status.
type ServiceCounts struct {
	Total      int64 // every service but deprecated ones
	Active     int64
	Disabled   int64
	Deprecated int64
}

// CountServices counts the catalog's services by status, of one direction
// when direction is not "".
func (s *Store) CountServices(ctx context.Context, direction string) (ServiceCounts, error) {
	q := "SELECT status, COUNT(*) FROM services"
	var args []any
	if direction != "" {
		q += " WHERE direction = $1"
		args = append(args, direction)
	}
	rows, err := s.reader().Query(ctx, q+" GROUP BY status", args...)
	if err != nil {
		return ServiceCounts{}, fmt.Errorf("store: count services: %w", err)
	}
	defer rows.Close()
	var c ServiceCounts
	for rows.Next() {
		var (
			status string
			n      int64
		)
		if err := rows.Scan(&status, &n); err != nil {
			return c, fmt.Errorf("store: count services: %w", err)
		}
		switch status {
		case "active":
			c.Active = n
		case "disabled":
			c.Disabled = n
		case "deprecated":
			c.Deprecated = n
		}
	}
	if err := rows.Err(); err != nil {
		return c, fmt.Errorf("store: count services: %w", mapError(err))
	}
	c.Total = c.Active + c.Disabled
	return c, nil
}

// APIKeyHeaderNames returns the distinct API-key header names configured
// on backend profiles (api_key_header auth), which debug captures mask.
// Profiles that leave the name empty use the default name, which the
// caller adds itself.
func (s *Store) APIKeyHeaderNames(ctx context.Context) ([]string, error) {
	return queryRows(ctx, s, "api key header names",
		"SELECT DISTINCT api_key_header_name FROM backend_profiles WHERE api_key_header_name <> '' ORDER BY 1", nil,
		func(rows *sql.Rows) (string, bool, error) {
			var v string
			err := rows.Scan(&v)
			return v, true, err
		})
}

// MonitoredServiceIDs returns the ids of the services whose synthetic
// monitor is enabled.
func (s *Store) MonitoredServiceIDs(ctx context.Context) ([]string, error) {
	return queryRows(ctx, s, "monitored services", "SELECT service_id, config FROM synthetic_monitors ORDER BY service_id", nil,
		func(rows *sql.Rows) (string, bool, error) {
			var id, cfg string
			if err := rows.Scan(&id, &cfg); err != nil {
				return "", false, err
			}
			var c monitorConfig
			return id, json.Unmarshal([]byte(cfg), &c) == nil && c.Enabled, nil
		})
}
