package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

var zeroTime = time.Time{}

func TestTimeRoundTrip(t *testing.T) {
	zone := time.FixedZone("UTC+5:30", 5*3600+1800)
	in := time.Date(2026, 3, 4, 5, 6, 7, 123456789, zone)
	want := in.UTC().Truncate(time.Microsecond)
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		var got, null store.Time
		err := s.Transact(ctx, func(tx *store.Tx) error {
			if err := tx.InsertBadURLAttempts(ctx, []model.BadURLAttempt{{Path: "/p", Method: "GET", At: in}}); err != nil {
				return err
			}
			if err := tx.QueryRow(ctx, "SELECT at FROM bad_url_attempts").Scan(&got); err != nil {
				return err
			}
			return tx.QueryRow(ctx, "SELECT $1", store.Time{}).Scan(&null)
		})
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(want) || got.Location() != time.UTC {
			t.Errorf("round trip = %v (%v), want %v UTC", got.Time, got.Location(), want)
		}
		if !null.IsZero() {
			t.Errorf("zero Time round trip = %v, want zero", null.Time)
		}
	})
}

// TestTimeOrdering checks that comparisons and ORDER BY on stored times
// follow time order on both dialects, including across time zones and
// sub-second differences.
func TestTimeOrdering(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	times := []time.Time{
		base.Add(9 * time.Microsecond),
		base.Add(10 * time.Microsecond),
		base.Add(time.Second),
		base.In(time.FixedZone("behind", -8*3600)).Add(time.Hour), // 01:00 UTC
		base.Add(-time.Nanosecond * 1500),                         // 1.5µs before: truncated
	}
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		var attempts []model.BadURLAttempt
		for i, at := range times {
			attempts = append(attempts, model.BadURLAttempt{Path: string(rune('a' + i)), Method: "GET", At: at})
		}
		if err := s.Transact(ctx, func(tx *store.Tx) error { return tx.InsertBadURLAttempts(ctx, attempts) }); err != nil {
			t.Fatal(err)
		}
		var order string
		var countSince int
		err := s.Transact(ctx, func(tx *store.Tx) error {
			rows, err := tx.Query(ctx, "SELECT path FROM bad_url_attempts ORDER BY at")
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var p string
				if err := rows.Scan(&p); err != nil {
					return err
				}
				order += p
			}
			if err := rows.Err(); err != nil {
				return err
			}
			return tx.QueryRow(ctx, "SELECT COUNT(*) FROM bad_url_attempts WHERE at >= $1",
				store.NewTime(base.Add(10*time.Microsecond))).Scan(&countSince)
		})
		if err != nil {
			t.Fatal(err)
		}
		if order != "eabcd" {
			t.Errorf("ORDER BY at = %q, want eabcd", order)
		}
		if countSince != 3 {
			t.Errorf("count at >= base+10µs = %d, want 3", countSince)
		}
	})
}

func TestBadURLSummary(t *testing.T) {
	now := time.Now()
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		var attempts []model.BadURLAttempt
		for range 3 {
			attempts = append(attempts, model.BadURLAttempt{Path: "/foo", Method: "GET", At: now})
		}
		attempts = append(attempts,
			model.BadURLAttempt{Path: "/publish/", Method: "POST", At: now},
			model.BadURLAttempt{Path: "/old", Method: "GET", At: now.Add(-48 * time.Hour)})
		// More than one INSERT chunk.
		for range 600 {
			attempts = append(attempts, model.BadURLAttempt{Path: "/bulk", Method: "GET", At: now.Add(-72 * time.Hour)})
		}
		if err := s.Transact(ctx, func(tx *store.Tx) error { return tx.InsertBadURLAttempts(ctx, attempts) }); err != nil {
			t.Fatal(err)
		}
		got, err := s.BadURLSummary(ctx, now.Add(-24*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		want := []model.BadURLCount{{Path: "/foo", Count: 3}, {Path: "/publish/", Count: 1}}
		if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
			t.Errorf("summary = %v, want %v", got, want)
		}
		var removed int64
		if err := s.Transact(ctx, func(tx *store.Tx) (err error) {
			removed, err = tx.DeleteBadURLAttemptsBefore(ctx, now.Add(-24*time.Hour))
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if removed != 601 {
			t.Errorf("removed %d, want 601", removed)
		}
	})
}
