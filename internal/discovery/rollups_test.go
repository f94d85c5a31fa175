package discovery_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/model"
)

func TestRollupsLB(t *testing.T) {
	at := time.Date(2026, 3, 1, 10, 15, 30, 0, time.UTC)
	b := &model.IngestBatch{InstanceVendor: "f5", Rows: []model.RowRef{{ServiceURI: "/a"}, {ServiceURI: "/b"}},
		LB: []model.LBEvent{
			{Row: 0, Stage: model.StageClientResponse, OccurredAt: at, DurationMs: 10, ClientIP: "10.0.0.1"},
			{Row: 0, Stage: model.StageClientResponse, OccurredAt: at.Add(time.Minute), DurationMs: 30, ClientIP: "10.0.0.1",
				Failure: true, StatusCode: 502},
			{Row: 0, Stage: model.StageClientRequest, OccurredAt: at},                                        // not a call
			{Row: 1, Stage: model.StageClientResponse, OccurredAt: at, DurationMs: 5, ResultCode: "timeout"}, // no consumer
			{Row: 1, Stage: model.StageClientResponse, OccurredAt: at, DurationMs: 99},                       // not fresh
		}}
	got := discovery.Rollups(b, []int64{7, 9}, []int{0, 1, 2, 3})
	hour, day := at.Truncate(time.Hour), at.Truncate(24*time.Hour)
	want := model.IngestRollups{
		Hours: map[model.HourBucket]*model.HourCounts{
			{Row: 7, Source: model.SourceLB, Vendor: "f5", Hour: hour}: {Calls: 2, Failures: 1, Errors: 1, LatencySumMs: 40, LatencyMaxMs: 30},
			{Row: 9, Source: model.SourceLB, Vendor: "f5", Hour: hour}: {Calls: 1, Errors: 1, LatencySumMs: 5, LatencyMaxMs: 5},
		},
		Minutes: map[model.MinuteBucket]*model.CallCounts{
			{Row: 7, Source: model.SourceLB, Minute: at.Truncate(time.Minute)}:                  {Calls: 1},
			{Row: 7, Source: model.SourceLB, Minute: at.Add(time.Minute).Truncate(time.Minute)}: {Calls: 1, Failures: 1},
			{Row: 9, Source: model.SourceLB, Minute: at.Truncate(time.Minute)}:                  {Calls: 1},
		},
		Consumers: map[model.ConsumerBucket]*model.ConsumerCounts{
			{Row: 7, Source: model.SourceLB, Vendor: "f5", Day: day, IP: "10.0.0.1"}: {Calls: 2, Failures: 1, LastSeen: at.Add(time.Minute)},
		},
		Vendors:    map[model.RowVendor]bool{{Row: 7, Vendor: "f5"}: true, {Row: 9, Vendor: "f5"}: true},
		DirtyHours: map[model.DirtyHour]bool{{Source: model.SourceLB, Hour: hour}: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Rollups (-want +got):\n%s", diff)
	}
}

func TestRollupsGeneric(t *testing.T) {
	at := time.Date(2026, 3, 1, 23, 59, 59, 0, time.FixedZone("CET", 3600))
	b := &model.IngestBatch{Rows: []model.RowRef{{ServiceURI: "/a"}},
		Generic: []model.GenericLog{{Row: 0, Vendor: "kong", OccurredAt: at, LatencyMs: 4, ConsumerIP: "10.0.0.2"}}}
	got := discovery.Rollups(b, []int64{3}, []int{0})
	utc := at.UTC()
	want := model.IngestRollups{
		Hours: map[model.HourBucket]*model.HourCounts{
			{Row: 3, Source: model.SourceGeneric, Vendor: "kong", Hour: utc.Truncate(time.Hour)}: {Calls: 1, LatencySumMs: 4, LatencyMaxMs: 4},
		},
		Minutes: map[model.MinuteBucket]*model.CallCounts{
			{Row: 3, Source: model.SourceGeneric, Minute: utc.Truncate(time.Minute)}: {Calls: 1},
		},
		Consumers: map[model.ConsumerBucket]*model.ConsumerCounts{
			{Row: 3, Source: model.SourceGeneric, Vendor: "kong", Day: utc.Truncate(24 * time.Hour), IP: "10.0.0.2"}: {Calls: 1, LastSeen: utc},
		},
		Vendors:    map[model.RowVendor]bool{{Row: 3, Vendor: "kong"}: true},
		DirtyHours: map[model.DirtyHour]bool{{Source: model.SourceGeneric, Hour: utc.Truncate(time.Hour)}: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Rollups (-want +got):\n%s", diff)
	}
}
