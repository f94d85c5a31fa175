package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

var asyncKey = model.AsyncKey{Direction: "publish", Environment: "dev", ServiceKey: "calc", OperationKey: "add"}

// newExecution stores service s1 (once) and a waiting execution id.
func newExecution(t *testing.T, s *store.Store, id, tokenHash string, created time.Time, ttl time.Duration) model.AsyncExecution {
	t.Helper()
	ctx := context.Background()
	e := model.AsyncExecution{CorrelationID: id, Status: model.AsyncWaiting, Direction: "publish", Environment: "dev",
		ServiceKey: "calc", ServiceID: "s1", OperationKey: "add", OperationID: "o1", BackendTarget: "http://b/x",
		CreatedAt: created, UpdatedAt: created, ExpiresAt: created.Add(ttl)}
	err := s.Transact(ctx, func(tx *store.Tx) error {
		if _, err := tx.Service(ctx, "s1"); errors.Is(err, store.ErrNotFound) {
			if err := tx.CreateService(ctx, testService("s1", "calc")); err != nil {
				return err
			}
		}
		return tx.InsertAsyncExecution(ctx, e, tokenHash)
	})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestAsyncExecutionLifecycle(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
		newExecution(t, s, "e1", "h1", at, time.Hour)

		err := s.Transact(ctx, func(tx *store.Tx) error {
			return tx.InsertAsyncExecution(ctx, model.AsyncExecution{CorrelationID: "e1", Status: model.AsyncWaiting,
				ServiceID: "s1", CreatedAt: at, UpdatedAt: at, ExpiresAt: at}, "h")
		})
		if !errors.Is(err, store.ErrAlreadyExists) {
			t.Fatalf("duplicate insert: %v", err)
		}

		e, err := s.AsyncExecution(ctx, "e1")
		if err != nil || e.Status != model.AsyncWaiting || e.PollPath != "/publish/dev/calc/add/async/e1" ||
			!e.ExpiresAt.Equal(at.Add(time.Hour)) || e.HasCallback || e.FinishedAt != nil {
			t.Fatalf("read back: %+v, %v", e, err)
		}
		if _, err := s.AsyncExecution(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("unknown id: %v", err)
		}

		rotate := func(key model.AsyncKey, old, next string, now time.Time) error {
			return s.Transact(ctx, func(tx *store.Tx) error {
				_, err := tx.RotatePollToken(ctx, key, "e1", old, next, now)
				return err
			})
		}
		if err := rotate(asyncKey, "h1", "h2", at.Add(time.Minute)); err != nil {
			t.Fatalf("rotate: %v", err)
		}
		if err := rotate(asyncKey, "h1", "h3", at.Add(time.Minute)); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("used token rotated: %v", err)
		}
		other := asyncKey
		other.OperationKey = "sub"
		if err := rotate(other, "h2", "h3", at.Add(time.Minute)); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("token rotated at another operation's path: %v", err)
		}
		if err := rotate(asyncKey, "h2", "h3", at.Add(2*time.Hour)); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("overdue execution rotated: %v", err)
		}
		if _, hash, err := s.AsyncPollState(ctx, "e1"); err != nil || hash != "h2" {
			t.Errorf("poll state hash = %q, %v", hash, err)
		}

		finish := func(cond store.AsyncCondition, out model.AsyncOutcome) bool {
			var ok bool
			err := s.Transact(ctx, func(tx *store.Tx) (err error) {
				ok, err = tx.FinishAsyncExecution(ctx, "e1", cond, out, at.Add(2*time.Minute))
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		waiting := store.AsyncCondition{From: []string{model.AsyncWaiting}, LiveAt: at.Add(2 * time.Minute)}
		done := model.AsyncOutcome{Status: model.AsyncCompleted, Result: json.RawMessage(`{"z":1,"a":2}`),
			Callback: []byte("<Envelope/>")}
		if !finish(waiting, done) {
			t.Fatal("finish of a waiting execution did nothing")
		}
		if finish(waiting, model.AsyncOutcome{Status: model.AsyncFailed}) {
			t.Fatal("a finished execution was finished again")
		}
		e, _ = s.AsyncExecution(ctx, "e1")
		if e.Status != model.AsyncCompleted || string(e.Result) != `{"z":1,"a":2}` || !e.HasCallback ||
			string(e.Callback) != "<Envelope/>" || e.FinishedAt == nil || e.CallbackAt == nil {
			t.Fatalf("after finish: %+v", e)
		}

		var reopened bool
		err = s.Transact(ctx, func(tx *store.Tx) (err error) {
			reopened, err = tx.ReopenAsyncExecution(ctx, "e1", store.AsyncCondition{From: model.AsyncReopenable},
				at.Add(5*time.Hour), at.Add(3*time.Minute))
			return err
		})
		if err != nil || !reopened {
			t.Fatalf("reopen: %v %v", reopened, err)
		}
		e, _ = s.AsyncExecution(ctx, "e1")
		if e.Status != model.AsyncWaiting || e.Result != nil || !e.HasCallback || e.FinishedAt != nil ||
			!e.ExpiresAt.Equal(at.Add(5*time.Hour)) {
			t.Fatalf("after reopen: %+v", e)
		}
	})
}

// TestAsyncFinishExactlyOnce: 100 concurrent finishes of one execution,
// each in its own transaction, change it once.
func TestAsyncFinishExactlyOnce(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		at := time.Now().UTC()
		newExecution(t, s, "e1", "h1", at, time.Hour)
		var (
			wg  sync.WaitGroup
			mu  sync.Mutex
			won []int
		)
		for i := range 100 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var ok bool
				err := s.Transact(ctx, func(tx *store.Tx) (err error) {
					ok, err = tx.FinishAsyncExecution(ctx, "e1", store.AsyncCondition{From: []string{model.AsyncWaiting},
						LiveAt: at}, model.AsyncOutcome{Status: model.AsyncCompleted,
						Result: json.RawMessage(`{"n":` + itoaTest(i) + `}`)}, at)
					return err
				})
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					won = append(won, i)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if len(won) != 1 {
			t.Fatalf("%d finishes won, want 1", len(won))
		}
		e, _ := s.AsyncExecution(ctx, "e1")
		if string(e.Result) != `{"n":`+itoaTest(won[0])+`}` {
			t.Errorf("stored result %s, winner %d", e.Result, won[0])
		}
	})
}

func TestAsyncExpireListDelete(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
		newExecution(t, s, "old", "h1", at, time.Minute)
		newExecution(t, s, "young", "h2", at.Add(time.Second), time.Hour)
		var n int64
		err := s.Transact(ctx, func(tx *store.Tx) (err error) {
			n, err = tx.ExpireAsyncExecutions(ctx, at.Add(10*time.Minute), 100)
			return err
		})
		if err != nil || n != 1 {
			t.Fatalf("expired %d, %v", n, err)
		}
		for _, tc := range []struct {
			f    model.AsyncFilter
			want []string
		}{
			{model.AsyncFilter{}, []string{"young", "old"}},
			{model.AsyncFilter{Statuses: []string{model.AsyncExpired}}, []string{"old"}},
			{model.AsyncFilter{Statuses: []string{model.AsyncWaiting, model.AsyncCompleted}}, []string{"young"}},
			{model.AsyncFilter{Environment: "dev", ServiceKey: "calc", OperationKey: "add", Since: at.Add(time.Second)}, []string{"young"}},
			{model.AsyncFilter{Until: at}, []string{"old"}},
			{model.AsyncFilter{OperationKey: "x"}, nil},
		} {
			p, err := s.AsyncExecutions(ctx, tc.f, model.PageRequest{Page: 1, PageSize: 10})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range p.Items {
				got = append(got, e.CorrelationID)
			}
			if len(got) != len(tc.want) || int(p.TotalItems) != len(tc.want) || (len(got) > 0 && got[0] != tc.want[0]) {
				t.Errorf("filter %+v: %v (total %d), want %v", tc.f, got, p.TotalItems, tc.want)
			}
		}
		err = s.Transact(ctx, func(tx *store.Tx) (err error) {
			n, err = tx.DeleteAsyncExecutionsBefore(ctx, at.Add(time.Hour), 100)
			return err
		})
		if err != nil || n != 1 {
			t.Fatalf("deleted %d, %v", n, err)
		}
		if _, err := s.AsyncExecution(ctx, "young"); err != nil {
			t.Errorf("waiting execution deleted: %v", err)
		}
	})
}

func itoaTest(n int) string { return string(rune('0'+n/10)) + string(rune('0'+n%10)) }
