package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// rowScope is the SQL condition (on discovery_rows r and a rollup h) of
// the gateway-type scoping of SPEC 4.9: lb data always; generic data of
// every vendor for an lb-observed row, else of the row's vendor only.
const rowScope = "(h.source = 'lb' OR r.lb_instance_id IS NOT NULL OR h.vendor = r.vendor)"

// discoveryRowWhere returns the conditions of f and their arguments.
func discoveryRowWhere(f model.DiscoveryRowFilter) (string, []any) {
	var w whereClause
	w.add("tenant_id = ?", f.TenantID)
	if f.Q != "" {
		w.add(`(service_uri LIKE ? ESCAPE '\' OR LOWER(service_key) LIKE ? ESCAPE '\')`, containsPattern(f.Q))
	}
	if f.Vendor != "" {
		w.add("(vendor = ? OR EXISTS (SELECT 1 FROM discovery_row_vendors v WHERE v.row_id = discovery_rows.row_id AND v.vendor = ?))", f.Vendor)
	}
	switch f.Source {
	case model.SourceLB:
		w.literal("seen_lb")
	case model.SourceGeneric:
		w.literal("seen_generic")
	}
	if f.Onboarded != nil {
		if *f.Onboarded {
			w.literal("onboarded_service_id IS NOT NULL")
		} else {
			w.literal("onboarded_service_id IS NULL")
		}
	}
	return w.clause()
}

const discoveryRowColumnsRead = "r.row_id, r.tenant_id, r.service_uri, r.sample_uri, r.lb_instance_id, r.vendor, r.seen_lb, " +
	"r.seen_generic, r.first_seen, r.last_seen, r.onboarded_service_id, r.environment, r.service_key"

// DiscoveryRows returns one page of f's rows, most recently seen first,
// with calls and errors of the 24 hourly buckets up to now.
func (s *Store) DiscoveryRows(ctx context.Context, f model.DiscoveryRowFilter, now time.Time, page model.PageRequest) (model.ObservabilityPageRecord[model.DiscoveryRow], error) {
	where, args := discoveryRowWhere(f)
	var total int64
	if err := s.reader().QueryRow(ctx, "SELECT COUNT(*) FROM discovery_rows"+where, args...).Scan(&total); err != nil {
		return model.ObservabilityPageRecord[model.DiscoveryRow]{}, fmt.Errorf("store: count discovery rows: %w", err)
	}
	n := len(args)
	q := "SELECT " + discoveryRowColumnsRead + ", COALESCE(SUM(h.calls), 0), COALESCE(SUM(h.failures), 0) FROM " +
		"(SELECT * FROM discovery_rows" + where + " ORDER BY last_seen DESC, row_id DESC LIMIT $" + strconv.Itoa(n+1) +
		" OFFSET $" + strconv.Itoa(n+2) + ") r LEFT JOIN discovery_hourly h ON h.row_id = r.row_id AND h.hour >= $" +
		strconv.Itoa(n+3) + " AND " + rowScope + " GROUP BY " + discoveryRowColumnsRead +
		" ORDER BY r.last_seen DESC, r.row_id DESC"
	args = append(args, page.PageSize, page.Offset(), NewTime(Since24h(now)))
	items, err := s.queryDiscoveryRows(ctx, q, args...)
	if err != nil {
		return model.ObservabilityPageRecord[model.DiscoveryRow]{}, err
	}
	return model.NewPage(items, page, total), nil
}

// Since24h is the first hourly bucket of "the last 24 hours" at now: the
// current hour and the 23 before it.
func Since24h(now time.Time) time.Time { return now.UTC().Truncate(time.Hour).Add(-23 * time.Hour) }

// DiscoveryRow returns one row of any tenant (the caller checks the
// tenant) with its 24-hour counts; ErrNotFound when there is none.
func (s *Store) DiscoveryRow(ctx context.Context, rowID int64, now time.Time) (model.DiscoveryRow, error) {
	q := "SELECT " + discoveryRowColumnsRead + ", COALESCE(SUM(h.calls), 0), COALESCE(SUM(h.failures), 0) FROM discovery_rows r " +
		"LEFT JOIN discovery_hourly h ON h.row_id = r.row_id AND h.hour >= $2 AND " + rowScope +
		" WHERE r.row_id = $1 GROUP BY " + discoveryRowColumnsRead
	rows, err := s.queryDiscoveryRows(ctx, q, rowID, NewTime(Since24h(now)))
	if err != nil {
		return model.DiscoveryRow{}, err
	}
	if len(rows) == 0 {
		return model.DiscoveryRow{}, fmt.Errorf("store: discovery row %d: %w", rowID, ErrNotFound)
	}
	return rows[0], nil
}

func (s *Store) queryDiscoveryRows(ctx context.Context, q string, args ...any) ([]model.DiscoveryRow, error) {
	rows, err := s.reader().Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: discovery rows: %w", err)
	}
	defer rows.Close()
	var (
		out   []model.DiscoveryRow
		index = map[int64]int{}
	)
	for rows.Next() {
		var (
			r               model.DiscoveryRow
			lb, onboarded   *string
			first, lastSeen Time
		)
		if err := rows.Scan(&r.RowID, &r.TenantID, &r.ServiceURI, &r.SampleURI, &lb, &r.Vendor, &r.SeenLB, &r.SeenGeneric,
			&first, &lastSeen, &onboarded, &r.Environment, &r.ServiceKey, &r.Calls24h, &r.Errors24h); err != nil {
			return nil, fmt.Errorf("store: scan discovery row: %w", err)
		}
		r.FirstSeen, r.LastSeen = first.Time, lastSeen.Time
		if lb != nil {
			r.LBInstanceID = *lb
		}
		if onboarded != nil {
			r.OnboardedServiceID = *onboarded
		}
		r.Vendors = []string{}
		index[r.RowID] = len(out)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: discovery rows: %w", mapError(err))
	}
	rows.Close()
	if len(out) == 0 {
		return out, nil
	}
	return out, s.addRowVendors(ctx, out, index)
}

// addRowVendors fills Vendors of rows (index maps row id to position).
func (s *Store) addRowVendors(ctx context.Context, rows []model.DiscoveryRow, index map[int64]int) error {
	var sb strings.Builder
	sb.WriteString("SELECT row_id, vendor FROM discovery_row_vendors WHERE row_id IN ")
	inList(&sb, Postgres, 0, len(rows))
	sb.WriteString(" ORDER BY row_id, vendor")
	args := make([]any, len(rows))
	for i := range rows {
		args[i] = rows[i].RowID
	}
	vr, err := s.reader().Query(ctx, sb.String(), args...)
	if err != nil {
		return fmt.Errorf("store: discovery row vendors: %w", err)
	}
	defer vr.Close()
	for vr.Next() {
		var (
			id     int64
			vendor string
		)
		if err := vr.Scan(&id, &vendor); err != nil {
			return fmt.Errorf("store: discovery row vendors: %w", err)
		}
		if i, ok := index[id]; ok {
			rows[i].Vendors = append(rows[i].Vendors, vendor)
		}
	}
	if err := vr.Err(); err != nil {
		return fmt.Errorf("store: discovery row vendors: %w", mapError(err))
	}
	return nil
}
