package query

import (
	"context"
	"time"

	"github.com/s2r-project/s2r/internal/model"
)

// buckets splits a range into the time buckets of a timeline: on raw
// ranges 1 minute up to 15 minutes, else 5 minutes, from the range's
// start; on aggregated ranges 1 hour up to 48 hours and 6 hours up to 14
// days from the start's hour, else UTC days from the start's day.
type buckets struct {
	origin time.Time
	width  time.Duration
	count  int
}

func newBuckets(tr timeRange) buckets {
	span := tr.until.Sub(tr.since)
	if tr.raw() {
		w := time.Minute
		if span > 15*time.Minute {
			w = 5 * time.Minute
		}
		// Whole seconds: the store buckets by Unix seconds (the last
		// bucket takes the fraction of a second this adds at the end).
		return buckets{origin: tr.since.Truncate(time.Second), width: w, count: max(int((span+w-1)/w), 1)}
	}
	w := 24 * time.Hour
	switch {
	case span <= 48*time.Hour:
		w = time.Hour
	case span <= 14*24*time.Hour:
		w = 6 * time.Hour
	}
	origin := tr.since.UTC().Truncate(time.Hour)
	if w == 24*time.Hour {
		origin = origin.Truncate(w)
	}
	last := tr.until.UTC().Truncate(time.Hour)
	return buckets{origin: origin, width: w, count: int(last.Sub(origin)/w) + 1}
}

// apply sets q's bucketing.
func (b buckets) apply(q *model.MetricQuery) {
	q.BucketSeconds = int64(b.width / time.Second)
	q.BucketCount = int64(b.count)
	q.BucketOrigin = b.origin
}

// start returns the start of bucket i.
func (b buckets) start(i int) time.Time { return b.origin.Add(time.Duration(i) * b.width) }

// summaryAndPoints answers q over tr as a whole and per bucket of tr.
func (a *API) summaryAndPoints(ctx context.Context, q model.MetricQuery, tr timeRange) (summary, points []model.MetricRow, b buckets, err error) {
	if summary, err = a.store.Metrics(ctx, q); err != nil {
		return nil, nil, b, err
	}
	b = newBuckets(tr)
	b.apply(&q)
	points, err = a.store.Metrics(ctx, q)
	return summary, points, b, err
}
