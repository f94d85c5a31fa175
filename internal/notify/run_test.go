package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/routing/load/loadtest"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// setInterval stores alert_evaluation_interval_seconds and bumps the
// configuration revision, as the settings PATCH does.
func setInterval(t *testing.T, st *store.Store, seconds int) {
	t.Helper()
	ctx := context.Background()
	err := st.Transact(ctx, func(tx *store.Tx) error {
		if err := tx.PutSetting(ctx, store.SettingRow{Name: "alert_evaluation_interval_seconds",
			Value: json.RawMessage(itoa(seconds)), UpdatedAt: time.Now(), UpdatedBy: "test"}); err != nil {
			return err
		}
		_, err := tx.BumpRevision(ctx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// runs returns how many evaluations st ran.
func runs(st *store.Store) int64 {
	for _, s := range st.JobStats() {
		if s.Name == evaluationJob {
			return s.Runs
		}
	}
	return 0
}

// TestRunIntervalChangeAppliesAtOnce: with the default interval (60 s)
// the second evaluation would be a minute away; lowering the interval
// through the settings brings it forward without a restart, through the
// reloader's settings snapshot (the notifier never reads the store's
// settings).
func TestRunIntervalChangeAppliesAtOnce(t *testing.T) {
	st := storetest.SQLite(t)
	n, err := New(Config{Store: st, Settings: loadtest.Follow(t, st)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	defer func() { cancel(); <-done }()
	waitRuns(t, st, 1, 5*time.Second)
	setInterval(t, st, 5)
	waitRuns(t, st, 2, 7*time.Second)
}

func waitRuns(t *testing.T, st *store.Store, want int64, within time.Duration) {
	t.Helper()
	poll.UntilOK(t, within, "evaluations", func() string {
		if n := runs(st); n < want {
			return fmt.Sprintf("%d evaluations, want %d", n, want)
		}
		return ""
	})
}

// TestFollowerAsksAtTheInterval: an instance that does not evaluate
// (another one leads) still reports the configured interval as its next
// attempt, so it takes over within one interval of the leader's death.
func TestFollowerAsksAtTheInterval(t *testing.T) {
	cfg := storetest.PostgresConfig(t)
	ctx := context.Background()
	leaderStore, followerStore := storetest.Open(t, cfg), storetest.Open(t, cfg)
	setInterval(t, leaderStore, 7)
	leader, _ := New(Config{Store: leaderStore, Settings: loadtest.Follow(t, leaderStore)})
	follower, _ := New(Config{Store: followerStore, Settings: loadtest.Follow(t, followerStore)})
	if rep, err := leader.Evaluate(ctx); err != nil || !rep.Ran {
		t.Fatalf("leader: %+v, %v", rep, err)
	}
	rep, err := follower.Evaluate(ctx)
	if err != nil || rep.Ran || rep.Next != 7*time.Second {
		t.Fatalf("follower: %+v, %v; want not run, next 7s", rep, err)
	}
	leaderStore.Close()
	if rep, err := follower.Evaluate(ctx); err != nil || !rep.Ran {
		t.Fatalf("follower after the leader closed: %+v, %v", rep, err)
	}
}
