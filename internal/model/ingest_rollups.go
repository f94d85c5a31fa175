package model

import "time"

// IngestRollups are the discovery rollups of the calls an ingest batch
// newly stored: what the batch adds to the hourly, per-minute and consumer
// rollups, the vendors its rows were reported by, and the (source, hour)
// pairs the observability aggregation must look at again. internal/discovery
// computes them; the store writes them. Row fields are discovery row ids.
type IngestRollups struct {
	Hours      map[HourBucket]*HourCounts
	Minutes    map[MinuteBucket]*CallCounts
	Consumers  map[ConsumerBucket]*ConsumerCounts
	Vendors    map[RowVendor]bool
	DirtyHours map[DirtyHour]bool
}

// HourBucket is one row's calls of one source and vendor in one UTC hour
// (table discovery_hourly).
type HourBucket struct {
	Row            int64
	Source, Vendor string
	Hour           time.Time
}

// HourCounts are the calls of an HourBucket: how many, how many failed
// (discovery's failure), how many are errors by SPEC 4.11 rule 4, and the
// sum and maximum of their latencies.
type HourCounts struct {
	Calls, Failures, Errors    int64
	LatencySumMs, LatencyMaxMs float64
}

// MinuteBucket is one row's calls of one source in one UTC minute (table
// discovery_minutely).
type MinuteBucket struct {
	Row    int64
	Source string
	Minute time.Time
}

// CallCounts are the calls of a bucket and how many of them failed.
type CallCounts struct{ Calls, Failures int64 }

// ConsumerBucket is one consumer IP's calls of one row, source and vendor
// on one UTC day (table discovery_consumers).
type ConsumerBucket struct {
	Row            int64
	Source, Vendor string
	Day            time.Time
	IP             string
}

// ConsumerCounts are the calls of a ConsumerBucket, how many failed, and
// the latest.
type ConsumerCounts struct {
	Calls, Failures int64
	LastSeen        time.Time
}

// RowVendor is a vendor that reported a row (table discovery_row_vendors).
type RowVendor struct {
	Row    int64
	Vendor string
}

// DirtyHour is a source's hour that received calls (table
// traffic_dirty_hours).
type DirtyHour struct {
	Source string
	Hour   time.Time
}
