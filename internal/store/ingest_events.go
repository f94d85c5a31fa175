package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// ingestAttempts bounds the retries of an ingest transaction that lost a
// race: a concurrent batch stored one of its event ids first (unique
// violation), or PostgreSQL chose it as a deadlock victim.
const ingestAttempts = 3

// Ingest stores a batch all-or-nothing in one committed transaction:
// the discovery rows it touches, its events whose ids are not stored yet,
// and the rollups of exactly those events. Duplicates (ids already stored
// or repeated within the batch) are counted, not stored. When Ingest
// returns nil the batch is committed. rollup computes the rollups of the
// newly stored events (discovery.Rollups).
func (s *Store) Ingest(ctx context.Context, b *model.IngestBatch, rollup RollupFunc) (model.IngestResult, error) {
	if len(b.LB) > 0 && len(b.Generic) > 0 {
		return model.IngestResult{}, errors.New("store: ingest batch mixes lb events and generic logs")
	}
	var err error
	for range ingestAttempts {
		var res model.IngestResult
		res, err = s.ingestOnce(ctx, b, rollup)
		if err == nil {
			return res, nil
		}
		if !errors.Is(err, ErrAlreadyExists) && !errors.Is(err, ErrConflict) || ctx.Err() != nil {
			break
		}
	}
	return model.IngestResult{}, err
}

func (s *Store) ingestOnce(ctx context.Context, b *model.IngestBatch, rollup RollupFunc) (model.IngestResult, error) {
	var res model.IngestResult
	spans := rowSpans(b)
	full := s.fullInsertStmt(ctx, b)
	err := s.transactWithCopy(ctx, func(tx *Tx, cp copier) error {
		rowIDs, err := ensureRows(ctx, tx, b, spans)
		if err != nil {
			return err
		}
		var fresh []int
		if len(b.LB) > 0 {
			fresh, err = insertLBEvents(ctx, tx, cp, full, b, rowIDs)
		} else {
			fresh, err = insertGenericLogs(ctx, tx, cp, full, b, rowIDs)
		}
		if err != nil {
			return err
		}
		res.Stored = len(fresh)
		res.Duplicates = len(b.LB) + len(b.Generic) - len(fresh)
		return applyRollups(ctx, tx, b, rowIDs, spans, rollup(b, rowIDs, fresh))
	})
	return res, err
}

// rowChunk bounds the rows of one discovery-row statement.
const rowChunk = 500

// discoveryRowColumns are the columns ensureRows writes.
var discoveryRowColumns = []string{"tenant_id", "service_uri", "sample_uri", "lb_instance_id", "vendor", "seen_lb",
	"seen_generic", "first_seen", "last_seen", "onboarded_service_id", "environment", "service_key"}

// ensureRows creates the batch's missing discovery rows (without locking
// existing ones, so concurrent batches of the same services do not queue
// here) and returns every row's id, indexed like b.Rows.
func ensureRows(ctx context.Context, tx *Tx, b *model.IngestBatch, spans []rowSpan) ([]int64, error) {
	order := make([]int, len(b.Rows))
	for i := range order {
		order[i] = i
	}
	// One order for every batch, so concurrent inserts of new rows wait
	// for each other without deadlocking.
	slices.SortFunc(order, func(x, y int) int { return strings.Compare(b.Rows[x].ServiceURI, b.Rows[y].ServiceURI) })
	lbInstance := any(nil)
	if len(b.LB) > 0 {
		lbInstance = b.InstanceID
	}
	ids := make([]int64, len(b.Rows))
	for chunk := range slices.Chunk(order, rowChunk) {
		args := make([]any, 0, len(chunk)*len(discoveryRowColumns))
		for _, i := range chunk {
			r := &b.Rows[i]
			args = append(args, b.TenantID, r.ServiceURI, r.SampleURI, lbInstance, r.Vendor, len(b.LB) > 0, len(b.Generic) > 0,
				NewTime(spans[i].first), NewTime(spans[i].last), nullString(r.OnboardedServiceID), r.Environment, r.ServiceKey)
		}
		q := valuesSQL(tx.dialect, "discovery_rows", discoveryRowColumns, len(chunk)) + " ON CONFLICT (tenant_id, service_uri) DO NOTHING"
		if _, err := tx.Exec(ctx, q, args...); err != nil {
			return nil, fmt.Errorf("store: create discovery rows: %w", err)
		}
		if err := rowIDs(ctx, tx, b, chunk, ids); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// rowIDs reads the ids of the rows chunk (indexes into b.Rows) into ids.
func rowIDs(ctx context.Context, tx *Tx, b *model.IngestBatch, chunk []int, ids []int64) error {
	index := make(map[string]int, len(chunk))
	args := make([]any, 0, len(chunk)+1)
	args = append(args, b.TenantID)
	var sb strings.Builder
	sb.WriteString("SELECT row_id, service_uri FROM discovery_rows WHERE tenant_id = ")
	writeParam(&sb, tx.dialect, 1)
	sb.WriteString(" AND service_uri IN ")
	inList(&sb, tx.dialect, 1, len(chunk))
	for _, i := range chunk {
		index[b.Rows[i].ServiceURI] = i
		args = append(args, b.Rows[i].ServiceURI)
	}
	rows, err := tx.Query(ctx, sb.String(), args...)
	if err != nil {
		return fmt.Errorf("store: discovery row ids: %w", err)
	}
	defer rows.Close()
	found := 0
	for rows.Next() {
		var (
			id  int64
			uri string
		)
		if err := rows.Scan(&id, &uri); err != nil {
			return fmt.Errorf("store: discovery row ids: %w", err)
		}
		if i, ok := index[uri]; ok {
			ids[i] = id
			found++
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: discovery row ids: %w", mapError(err))
	}
	if found != len(chunk) {
		// A row vanished between the two statements (retention): retry.
		return fmt.Errorf("store: discovery rows: %d of %d found: %w", found, len(chunk), ErrConflict)
	}
	return nil
}

// rowSpan is the time range of a batch's events on one row.
type rowSpan struct{ first, last time.Time }

// rowSpans returns the span of b's events per row, indexed like b.Rows.
func rowSpans(b *model.IngestBatch) []rowSpan {
	spans := make([]rowSpan, len(b.Rows))
	add := func(row int, at time.Time) {
		sp := &spans[row]
		if sp.first.IsZero() || at.Before(sp.first) {
			sp.first = at
		}
		if at.After(sp.last) {
			sp.last = at
		}
	}
	for i := range b.LB {
		add(b.LB[i].Row, b.LB[i].OccurredAt)
	}
	for i := range b.Generic {
		add(b.Generic[i].Row, b.Generic[i].OccurredAt)
	}
	return spans
}

// nullString stores "" as NULL.
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}
