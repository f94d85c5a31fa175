package notify

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/notify/smtptest"
	"github.com/s2r-project/s2r/internal/routing/load/loadtest"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestOneInstanceAtATime: two instances (two Stores, two Notifiers) on one
// PostgreSQL database evaluate at the same moments, many times: the rule
// is mailed exactly once, and its recovery exactly once.
func TestOneInstanceAtATime(t *testing.T) {
	cfg := storetest.PostgresConfig(t)
	ctx := context.Background()
	a := newHarness(t, storetest.Open(t, cfg), smtptest.Options{Username: smtpUser, Password: smtpPassword}, nil)
	otherStore := storetest.Open(t, cfg)
	other, err := New(Config{Store: otherStore, Settings: loadtest.Follow(t, otherStore), Secrets: a.box, Candidates: a.figures,
		Logger: a.notifier.cfg.Logger, TLSConfig: a.smtp.ClientTLS(), SendTimeout: 5 * time.Second, Now: a.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	race := func() (ran, sent int) {
		var wg sync.WaitGroup
		reps := make([]Report, 2)
		for i, n := range []*Notifier{a.notifier, other} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rep, err := n.Evaluate(ctx)
				if err != nil {
					t.Errorf("instance %d: %v", i, err)
				}
				reps[i] = rep
			}()
		}
		wg.Wait()
		for _, r := range reps {
			if r.Ran {
				ran++
			}
			sent += r.Sent
		}
		return ran, sent
	}
	a.figures.set(failing(5))
	var ran, sent int
	for range 10 {
		r, s := race()
		ran, sent = ran+r, sent+s
	}
	if sent != 1 || ran < 10 {
		t.Errorf("20 concurrent runs: %d ran, %d mails; want at least 10 runs and 1 mail", ran, sent)
	}
	a.clock.advance(2 * time.Hour)
	a.figures.set(healthy(5))
	sent = 0
	for range 10 {
		_, s := race()
		sent += s
	}
	if sent != 1 {
		t.Errorf("recovery: %d mails, want 1", sent)
	}
	if n := len(a.smtp.WaitMessages(t, 2)); n != 2 {
		t.Errorf("%d messages delivered, want 2", n)
	}
}

// TestRestartDoesNotResend: a new Notifier on the same database (a
// restart) knows what was mailed.
func TestRestartDoesNotResend(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := newHarness(t, st, smtptest.Options{Username: smtpUser, Password: smtpPassword}, nil)
		h.figures.set(failing(3))
		h.evaluate()
		restarted, err := New(Config{Store: st, Settings: loadtest.Follow(t, st), Secrets: h.box, Candidates: h.figures,
			TLSConfig: h.smtp.ClientTLS(), Now: h.clock.Now})
		if err != nil {
			t.Fatal(err)
		}
		h.clock.advance(2 * time.Hour)
		rep, err := restarted.Evaluate(context.Background())
		if err != nil || rep.Sent+rep.Failed != 0 {
			t.Errorf("after restart: %+v, %v; want no mail", rep, err)
		}
		if n := len(h.smtp.Messages()); n != 1 {
			t.Errorf("%d messages, want 1", n)
		}
	})
}

// TestRulesComeAndGo: a rule that is no longer enabled loses its state, so
// re-enabling it starts afresh; with alerts_enabled off nothing is
// evaluated or sent.
func TestRulesComeAndGo(t *testing.T) {
	h := newHarness(t, storetest.SQLite(t), smtptest.Options{Username: smtpUser, Password: smtpPassword}, nil)
	h.figures.set(failing(1), healthy(2))
	h.evaluate()
	states := h.states()
	if len(states) != 1 || states[1].State != model.AlertStateTriggered {
		t.Fatalf("states = %+v (a healthy rule never mailed keeps no state)", states)
	}
	h.figures.set(healthy(2))
	h.evaluate()
	if states := h.states(); len(states) != 0 {
		t.Errorf("disabled rule kept its state: %+v", states)
	}

	h.patchSettings(map[string]any{"alerts_enabled": false})
	h.figures.set(failing(1), failing(2))
	calls := h.figures.count()
	if rep := h.evaluate(); !rep.Ran || rep.Evaluated != 0 || rep.Sent != 0 {
		t.Errorf("alerts disabled: %+v", rep)
	}
	if h.figures.count() != calls {
		t.Error("candidates were read with alerts disabled")
	}
	if n := len(h.smtp.Messages()); n != 1 {
		t.Errorf("%d messages, want 1", n)
	}
}

// TestHistoryRetention: attempts older than default_retention_days are
// removed by the job (at most hourly).
func TestHistoryRetention(t *testing.T) {
	h := newHarness(t, storetest.SQLite(t), smtptest.Options{Username: smtpUser, Password: smtpPassword},
		map[string]any{"default_retention_days": 2})
	h.figures.set(failing(1))
	h.evaluate() // one attempt at t0
	h.clock.advance(47 * time.Hour)
	h.figures.set(healthy(1))
	h.evaluate() // a recovery at t0+47h
	if n := h.history(readerEmail).TotalItems; n != 2 {
		t.Fatalf("%d attempts, want 2", n)
	}
	h.clock.advance(2 * time.Hour) // t0 is now 49h old
	h.evaluate()
	page := h.history(readerEmail)
	if page.TotalItems != 1 || page.Items[0].Kind != model.AlertMailRecovery {
		t.Errorf("after retention: %+v", page.Items)
	}
}

// TestRunLoop: Run evaluates at start and every interval, and returns
// when its context ends.
func TestRunLoop(t *testing.T) {
	h := newHarness(t, storetest.SQLite(t), smtptest.Options{Username: smtpUser, Password: smtpPassword},
		map[string]any{"alert_evaluation_interval_seconds": 5})
	h.figures.set(failing(1))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.notifier.Run(ctx) }()
	h.smtp.WaitMessages(t, 1)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}
