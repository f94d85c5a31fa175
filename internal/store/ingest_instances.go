package store

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

const ingestInstanceColumns = "instance_id, vendor, name, tenant_id, token_hash, created_at, created_by, " +
	"revoked_at, revoked_by, last_event_at, last_heartbeat_at"

// InsertIngestInstance stores a new instance.
func (tx *Tx) InsertIngestInstance(ctx context.Context, in model.IngestInstance) error {
	_, err := tx.Exec(ctx, "INSERT INTO ingest_instances ("+ingestInstanceColumns+") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
		in.InstanceID, in.Vendor, in.Name, in.TenantID, in.TokenHash, NewTime(in.CreatedAt), in.CreatedBy,
		NewTime(in.RevokedAt), in.RevokedBy, NewTime(in.LastEventAt), NewTime(in.LastHeartbeatAt))
	if err != nil {
		return fmt.Errorf("store: insert ingest instance: %w", err)
	}
	return nil
}

// IngestInstances returns the instances of tenant ("" = every tenant),
// oldest first.
func (s *Store) IngestInstances(ctx context.Context, tenant string) ([]model.IngestInstance, error) {
	q := "SELECT " + ingestInstanceColumns + " FROM ingest_instances"
	var args []any
	if tenant != "" {
		q += " WHERE tenant_id = $1"
		args = append(args, tenant)
	}
	return queryIngestInstances(ctx, s.reader(), q+" ORDER BY created_at, instance_id", args...)
}

// IngestInstance returns one instance; ErrNotFound when there is none.
func (tx *Tx) IngestInstance(ctx context.Context, id string) (model.IngestInstance, error) {
	out, err := queryIngestInstances(ctx, tx, "SELECT "+ingestInstanceColumns+" FROM ingest_instances WHERE instance_id = $1", id)
	if err != nil {
		return model.IngestInstance{}, err
	}
	if len(out) == 0 {
		return model.IngestInstance{}, fmt.Errorf("store: ingest instance %s: %w", id, ErrNotFound)
	}
	return out[0], nil
}

// IngestInstanceByTokenHash returns the instance whose token hashes to
// hash, revoked or not; ErrNotFound when there is none.
func (s *Store) IngestInstanceByTokenHash(ctx context.Context, hash string) (model.IngestInstance, error) {
	out, err := queryIngestInstances(ctx, s.reader(), "SELECT "+ingestInstanceColumns+" FROM ingest_instances WHERE token_hash = $1", hash)
	if err != nil {
		return model.IngestInstance{}, err
	}
	if len(out) == 0 {
		return model.IngestInstance{}, fmt.Errorf("store: ingest instance by token: %w", ErrNotFound)
	}
	return out[0], nil
}

// RevokeIngestInstance marks an active instance revoked; revoking a
// revoked instance changes nothing.
func (tx *Tx) RevokeIngestInstance(ctx context.Context, id string, at time.Time, by string) error {
	_, err := tx.Exec(ctx, "UPDATE ingest_instances SET revoked_at = $2, revoked_by = $3 WHERE instance_id = $1 AND revoked_at IS NULL",
		id, NewTime(at), by)
	if err != nil {
		return fmt.Errorf("store: revoke ingest instance: %w", err)
	}
	return nil
}

// TouchIngestInstances records when instances last sent events: each
// last_event_at moves forward to the given time, never back.
func (s *Store) TouchIngestInstances(ctx context.Context, lastEvent map[string]time.Time) error {
	if len(lastEvent) == 0 {
		return nil
	}
	// Sorted, so instances flushing together lock rows in one order.
	ids := slices.Sorted(maps.Keys(lastEvent))
	return s.Transact(ctx, func(tx *Tx) error {
		for _, id := range ids {
			_, err := tx.Exec(ctx, "UPDATE ingest_instances SET last_event_at = $2 WHERE instance_id = $1 AND (last_event_at IS NULL OR last_event_at < $2)",
				id, NewTime(lastEvent[id]))
			if err != nil {
				return fmt.Errorf("store: touch ingest instance: %w", err)
			}
		}
		return nil
	})
}

// RecordIngestHeartbeat sets an instance's last heartbeat.
func (s *Store) RecordIngestHeartbeat(ctx context.Context, id string, at time.Time) error {
	return s.Transact(ctx, func(tx *Tx) error {
		_, err := tx.Exec(ctx, "UPDATE ingest_instances SET last_heartbeat_at = $2 WHERE instance_id = $1 AND (last_heartbeat_at IS NULL OR last_heartbeat_at < $2)",
			id, NewTime(at))
		if err != nil {
			return fmt.Errorf("store: ingest heartbeat: %w", err)
		}
		return nil
	})
}

func queryIngestInstances(ctx context.Context, q Querier, query string, args ...any) ([]model.IngestInstance, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: ingest instances: %w", err)
	}
	defer rows.Close()
	out := []model.IngestInstance{}
	for rows.Next() {
		var (
			in                                 model.IngestInstance
			created, revoked, event, heartbeat Time
		)
		if err := rows.Scan(&in.InstanceID, &in.Vendor, &in.Name, &in.TenantID, &in.TokenHash, &created, &in.CreatedBy,
			&revoked, &in.RevokedBy, &event, &heartbeat); err != nil {
			return nil, fmt.Errorf("store: scan ingest instance: %w", err)
		}
		in.CreatedAt, in.RevokedAt, in.LastEventAt, in.LastHeartbeatAt = created.Time, revoked.Time, event.Time, heartbeat.Time
		out = append(out, in)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: ingest instances: %w", mapError(err))
	}
	return out, nil
}
