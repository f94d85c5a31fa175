package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

const serviceColumns = `service_id, service_key, service_name, environment, direction, status, debug_enabled,
	description, backend_routing_mode, backend_health_check_mode, backend_health_check_interval_sec,
	default_backend_profile_id, fault_detail_exposure_mode, envelope_wrap_override, error_shape_override,
	callback_auth_mode, active_version_id, last_traffic_at, created_at, updated_at, callback_secret`

// CreateService stores a new service. Another service with the same
// direction, environment and key gives ErrAlreadyExists.
func (tx *Tx) CreateService(ctx context.Context, s model.Service) error {
	_, err := tx.Exec(ctx, "INSERT INTO services ("+serviceColumns+`) VALUES
		($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)`,
		serviceArgs(s)...)
	if err != nil {
		return fmt.Errorf("store: create service: %w", err)
	}
	return nil
}

// UpdateService rewrites every mutable column of the service s.ServiceID
// (all but its id, key, environment, direction and creation time);
// ErrNotFound when there is none, ErrAlreadyExists on a key conflict.
func (tx *Tx) UpdateService(ctx context.Context, s model.Service) error {
	a := serviceArgs(s)
	res, err := tx.Exec(ctx, `UPDATE services SET service_name = $2, status = $3, debug_enabled = $4, description = $5,
		backend_routing_mode = $6, backend_health_check_mode = $7, backend_health_check_interval_sec = $8,
		default_backend_profile_id = $9, fault_detail_exposure_mode = $10, envelope_wrap_override = $11,
		error_shape_override = $12, callback_auth_mode = $13, active_version_id = $14, last_traffic_at = $15,
		updated_at = $16, callback_secret = $17 WHERE service_id = $1`, a[0], a[2], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
		a[12], a[13], a[14], a[15], a[16], a[17], a[19], a[20])
	if err != nil {
		return fmt.Errorf("store: update service: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("store: update service %s: %w", s.ServiceID, ErrNotFound)
	}
	return nil
}

// DeleteService removes the service and, through ON DELETE CASCADE, its
// versions, operations, mappings and every other dependant row;
// ErrNotFound when there is none.
func (tx *Tx) DeleteService(ctx context.Context, id string) error {
	res, err := tx.Exec(ctx, "DELETE FROM services WHERE service_id = $1", id)
	if err != nil {
		return fmt.Errorf("store: delete service: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("store: delete service %s: %w", id, ErrNotFound)
	}
	return nil
}

// Service returns the service with id; ErrNotFound when there is none.
func (s *Store) Service(ctx context.Context, id string) (model.Service, error) {
	return getService(ctx, s.reader(), "service_id = $1", id)
}

// Service returns the service with id as seen by the transaction.
func (tx *Tx) Service(ctx context.Context, id string) (model.Service, error) {
	return getService(ctx, tx, "service_id = $1", id)
}

// ServiceByKey returns the service with the route key (direction,
// environment, serviceKey); ErrNotFound when there is none.
func (tx *Tx) ServiceByKey(ctx context.Context, direction, environment, key string) (model.Service, error) {
	return getService(ctx, tx, "direction = $1 AND environment = $2 AND service_key = $3", direction, environment, key)
}

func getService(ctx context.Context, q Querier, where string, args ...any) (model.Service, error) {
	row := q.QueryRow(ctx, "SELECT "+serviceColumns+" FROM services WHERE "+where, args...)
	svc, err := scanService(row.Scan)
	if err != nil {
		return model.Service{}, fmt.Errorf("store: service: %w", err)
	}
	return svc, nil
}

// Services returns one page of the services matching f, ordered by
// environment, key and direction.
func (s *Store) Services(ctx context.Context, f model.ServiceFilter) (model.ObservabilityPageRecord[model.Service], error) {
	where, args := serviceWhere(f)
	var total int64
	if err := s.reader().QueryRow(ctx, "SELECT COUNT(*) FROM services"+where, args...).Scan(&total); err != nil {
		return model.ObservabilityPageRecord[model.Service]{}, fmt.Errorf("store: count services: %w", err)
	}
	n := len(args)
	query := "SELECT " + serviceColumns + " FROM services" + where +
		" ORDER BY environment, service_key, direction LIMIT $" + strconv.Itoa(n+1) + " OFFSET $" + strconv.Itoa(n+2)
	args = append(args, f.Page.PageSize, f.Page.Offset())
	rows, err := s.reader().Query(ctx, query, args...)
	if err != nil {
		return model.ObservabilityPageRecord[model.Service]{}, fmt.Errorf("store: services: %w", err)
	}
	defer rows.Close()
	items := []model.Service{}
	for rows.Next() {
		svc, err := scanService(rows.Scan)
		if err != nil {
			return model.ObservabilityPageRecord[model.Service]{}, fmt.Errorf("store: services: %w", err)
		}
		items = append(items, svc)
	}
	if err := rows.Err(); err != nil {
		return model.ObservabilityPageRecord[model.Service]{}, fmt.Errorf("store: services: %w", mapError(err))
	}
	return model.NewPage(items, f.Page, total), nil
}

// serviceWhere builds the WHERE clause of f with $n placeholders.
func serviceWhere(f model.ServiceFilter) (string, []any) {
	var w whereClause
	w.equal([2]string{"environment", f.Environment}, [2]string{"direction", f.Direction}, [2]string{"status", f.Status})
	if f.Query != "" {
		w.add(`(LOWER(service_key) LIKE ? ESCAPE '\' OR LOWER(service_name) LIKE ? ESCAPE '\')`, containsPattern(f.Query))
	}
	switch f.Traffic {
	case "with":
		w.literal("last_traffic_at IS NOT NULL")
	case "without":
		w.literal("last_traffic_at IS NULL")
	}
	return w.clause()
}

func serviceArgs(s model.Service) []any {
	var lastTraffic Time
	if s.LastTrafficAt != nil {
		lastTraffic = NewTime(*s.LastTrafficAt)
	}
	return []any{s.ServiceID, s.ServiceKey, s.ServiceName, s.Environment, s.Direction, s.Status, s.DebugEnabled,
		s.Description, s.BackendRoutingMode, s.BackendHealthCheckMode, s.BackendHealthCheckIntervalSec,
		s.DefaultBackendProfileID, s.FaultDetailExposureMode, jsonOrNull(s.EnvelopeWrapOverride),
		jsonOrNull(s.ErrorShapeOverride), s.CallbackAuthMode, s.ActiveVersionID, lastTraffic,
		NewTime(s.CreatedAt), NewTime(s.UpdatedAt), credentialText(s.CallbackSecret)}
}

func scanService(scan func(...any) error) (model.Service, error) {
	var (
		s                    model.Service
		envelope, errShape   *string
		lastTraffic, created Time
		updated              Time
		secret               string
	)
	err := scan(&s.ServiceID, &s.ServiceKey, &s.ServiceName, &s.Environment, &s.Direction, &s.Status, &s.DebugEnabled,
		&s.Description, &s.BackendRoutingMode, &s.BackendHealthCheckMode, &s.BackendHealthCheckIntervalSec,
		&s.DefaultBackendProfileID, &s.FaultDetailExposureMode, &envelope, &errShape, &s.CallbackAuthMode,
		&s.ActiveVersionID, &lastTraffic, &created, &updated, &secret)
	if err != nil {
		return model.Service{}, err
	}
	if s.CallbackSecret, err = parseCredential(secret); err != nil {
		return model.Service{}, fmt.Errorf("callback_secret column: %w", err)
	}
	s.EnvelopeWrapOverride, s.ErrorShapeOverride = rawOrNil(envelope), rawOrNil(errShape)
	if !lastTraffic.IsZero() {
		t := lastTraffic.Time
		s.LastTrafficAt = &t
	}
	s.CreatedAt, s.UpdatedAt = created.Time, updated.Time
	return s, nil
}

// jsonText returns v encoded as JSON text for a TEXT column.
func jsonText(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// CountBackendProfiles returns the number of backend profiles of a
// service.
func (s *Store) CountBackendProfiles(ctx context.Context, serviceID string) (int, error) {
	return countBackendProfiles(ctx, s.reader(), serviceID)
}

// CountBackendProfiles is Store.CountBackendProfiles inside the transaction.
func (tx *Tx) CountBackendProfiles(ctx context.Context, serviceID string) (int, error) {
	return countBackendProfiles(ctx, tx, serviceID)
}

func countBackendProfiles(ctx context.Context, q Querier, serviceID string) (int, error) {
	var n int
	if err := q.QueryRow(ctx, "SELECT COUNT(*) FROM backend_profiles WHERE service_id = $1", serviceID).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count backend profiles: %w", err)
	}
	return n, nil
}

// MarkServiceTraffic records that the service saw traffic at t: its
// lastTrafficAt becomes t unless it is already later. The transaction
// recorder calls it; the service list's traffic filter reads it. It does
// not bump the configuration revision (nothing the runtime serves changes).
func (tx *Tx) MarkServiceTraffic(ctx context.Context, serviceID string, t time.Time) error {
	_, err := tx.Exec(ctx, `UPDATE services SET last_traffic_at = $2
		WHERE service_id = $1 AND (last_traffic_at IS NULL OR last_traffic_at < $2)`, serviceID, NewTime(t))
	if err != nil {
		return fmt.Errorf("store: mark service traffic: %w", err)
	}
	return nil
}
