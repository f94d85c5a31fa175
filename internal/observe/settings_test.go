package observe

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/redact"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/routing/load/loadtest"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// follow is the route reloader of s as s2r serve builds it, following
// the revision: its settings snapshot is what the recorder and the
// aggregator read.
func follow(t *testing.T, s *store.Store) *routing.Reloader { return loadtest.Follow(t, s) }

// changeSettings stores settings (name: JSON value) and runs more in one
// configuration change, as PATCH /admin/v1/settings does.
func changeSettings(t *testing.T, s *store.Store, values map[string]string, more func(*store.Tx) error) {
	t.Helper()
	ctx := context.Background()
	err := s.ChangeConfig(ctx, func(tx *store.Tx) error {
		for name, v := range values {
			if err := tx.PutSetting(ctx, store.SettingRow{Name: name, Value: json.RawMessage(v), UpdatedAt: time.Now(), UpdatedBy: "test"}); err != nil {
				return err
			}
		}
		if more != nil {
			return more(tx)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSettingsFollowed changes debug_max_payload_kb, debug_redact_names,
// default_retention_days and adds a backend profile with an API-key
// header while the recorder runs: it never reads the store's settings,
// yet records after the change are cut and masked by the new values and
// retention keeps the new number of days, all through the route table's
// settings snapshot.
func TestSettingsFollowed(t *testing.T) {
	s := storetest.SQLite(t)
	ctx := context.Background()
	routes := follow(t, s)
	r, _ := newRecorder(t, Config{Store: s, Settings: routes, FlushInterval: time.Millisecond})
	started(t, r)
	debugRecord := func(i int) *model.TxRecord {
		rec := record(i, time.Now())
		rec.Debug = true
		rec.RequestPayload = []byte("<pin>" + canary + "</pin>" + strings.Repeat("x", 5000))
		rec.Headers = &model.DebugHeaders{Request: map[string][]string{"X-Tenant-Key": {canary}}}
		return rec
	}
	stored := func(rec *model.TxRecord) model.TxLog {
		t.Helper()
		got, err := s.TxLogsByCorrelation(ctx, rec.CorrelationID)
		if err != nil || len(got) != 1 {
			t.Fatal(err, got)
		}
		return got[0]
	}

	before := debugRecord(1)
	r.Record(before)
	waitFor(t, "written", func() bool { return r.Stats().Written == 1 })
	if l := stored(before); !strings.Contains(string(l.RequestPayload), canary) || len(l.RequestPayload) < 5000 {
		t.Fatalf("with the defaults the payload is neither cut nor masked: %d bytes", len(l.RequestPayload))
	}

	names, _ := json.Marshal(append(model.DefaultDebugRedactNames(), "pin"))
	changeSettings(t, s, map[string]string{"debug_max_payload_kb": "2", "debug_redact_names": string(names),
		"default_retention_days": "2"}, func(tx *store.Tx) error {
		return storetest.AddAPIKeyService(ctx, tx, "k", "X-Tenant-Key")
	})
	waitFor(t, "the new snapshot", func() bool { return r.settings().DebugMaxPayloadBytes == 2<<10 })

	after := debugRecord(2)
	r.Record(after)
	waitFor(t, "written", func() bool { return r.Stats().Written == 2 })
	l := stored(after)
	if !strings.HasPrefix(string(l.RequestPayload), "<pin>"+redact.Mask+"</pin>") || !strings.Contains(string(l.RequestPayload), "\n[truncated") {
		t.Errorf("payload not masked and cut at 2 KB: %.60q… (%d bytes)", l.RequestPayload, len(l.RequestPayload))
	}
	if strings.Contains(l.DebugHeaders, canary) || !strings.Contains(l.DebugHeaders, redact.Mask) {
		t.Errorf("API-key header not masked: %s", l.DebugHeaders)
	}

	old := model.TxLog{CorrelationID: "cid-old", OccurredAt: time.Now().Add(-3 * 24 * time.Hour), Direction: "publish",
		Environment: "dev", ServiceKey: "calc", Method: "POST", Path: "/p", HTTPStatus: 200, ResultCode: model.ResultSuccess}
	if err := s.CopyTxLogs(ctx, []model.TxLog{old}); err != nil {
		t.Fatal(err)
	}
	if n, err := r.Retain(ctx); err != nil || n != 1 {
		t.Errorf("retention removed %d (%v), want the 3-day-old record (default_retention_days 2)", n, err)
	}
}

// TestAggregatorFollowsInterval: the aggregator reads
// aggregation_interval_seconds from the snapshot; lowering it from the
// default minute to 5 s brings the next run forward as soon as the
// reloader swaps the new snapshot in.
func TestAggregatorFollowsInterval(t *testing.T) {
	s := storetest.SQLite(t)
	routes := follow(t, s)
	agg, err := NewAggregator(AggregatorConfig{Store: s, Settings: routes, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- agg.Run(ctx) }()
	defer func() { cancel(); <-done }()
	runs := func() int64 {
		for _, st := range s.JobStats() {
			if st.Name == aggregationJob {
				return st.Runs
			}
		}
		return 0
	}
	waitFor(t, "the first run", func() bool { return runs() == 1 })
	changeSettings(t, s, map[string]string{"aggregation_interval_seconds": "5"}, nil) // the least the admin takes
	// At the default minute the second run is 60 s away; waitFor gives up
	// after 20 s.
	waitFor(t, "the second run", func() bool { return runs() >= 2 })
}
