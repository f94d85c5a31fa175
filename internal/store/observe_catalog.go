package store

import (
	"context"
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
	return s.queryStrings(ctx, "api key header names",
		"SELECT DISTINCT api_key_header_name FROM backend_profiles WHERE api_key_header_name <> '' ORDER BY 1")
}

// MonitoredServiceIDs returns the ids of the services whose synthetic
// monitor is enabled.
func (s *Store) MonitoredServiceIDs(ctx context.Context) ([]string, error) {
	rows, err := s.reader().Query(ctx, "SELECT service_id, config FROM synthetic_monitors ORDER BY service_id")
	if err != nil {
		return nil, fmt.Errorf("store: monitored services: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id, cfg string
		if err := rows.Scan(&id, &cfg); err != nil {
			return nil, fmt.Errorf("store: monitored services: %w", err)
		}
		var c monitorConfig
		if json.Unmarshal([]byte(cfg), &c) == nil && c.Enabled {
			out = append(out, id)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: monitored services: %w", mapError(err))
	}
	return out, nil
}

// queryStrings runs a query returning one text column.
func (s *Store) queryStrings(ctx context.Context, what, query string, args ...any) ([]string, error) {
	rows, err := s.reader().Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("store: %s: %w", what, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, mapError(err))
	}
	return out, nil
}
