package notify

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

func TestTriggered(t *testing.T) {
	rule := Candidate{MinCalls1h: 20, FailurePctThreshold: 10, FailureCountThreshold: 5}
	with := func(calls, failures int64) Candidate {
		c := rule
		c.Calls1h, c.Failures1h = calls, failures
		return c
	}
	tests := []struct {
		name string
		c    Candidate
		want bool
	}{
		{"below min calls", with(19, 19), false},
		{"at min calls, pct reached", with(20, 2), true},
		{"pct exactly at threshold", Candidate{MinCalls1h: 20, FailurePctThreshold: 10, FailureCountThreshold: 50, Calls1h: 100, Failures1h: 10}, true},
		{"pct just below, count reached", with(1000, 5), true},
		{"pct and count below", with(1000, 4), false},
		{"count reached at min calls", with(20, 5), true},
		{"no calls", with(0, 0), false},
		{"zero thresholds need a failure", Candidate{Calls1h: 50}, false},
		{"zero thresholds with a failure", Candidate{Calls1h: 50, Failures1h: 1}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.c.Triggered(); got != tc.want {
				t.Errorf("Triggered(%+v) = %v, want %v (pct %.2f)", tc.c, got, tc.want, tc.c.FailurePct())
			}
		})
	}
}

func TestPlan(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	p := policy{cooldown: time.Hour, retry: 5 * time.Minute}
	trig, ok := failing(1), healthy(1)
	state := func(cur, notified string, attempt, sent time.Duration) store.AlertRuleState {
		st := store.AlertRuleState{RowID: 1, TenantID: trig.TenantID, ServiceURI: trig.ServiceURI, State: cur,
			NotifiedState: notified, ChangedAt: t0}
		if attempt >= 0 {
			st.LastAttemptAt = t0.Add(attempt)
		}
		if sent >= 0 {
			st.LastSentAt = t0.Add(sent)
		}
		return st
	}
	const never = -1
	T, O := model.AlertStateTriggered, model.AlertStateOK
	tests := []struct {
		name      string
		prev      []store.AlertRuleState
		cand      Candidate
		at        time.Duration
		wantMail  string
		wantWrite bool
	}{
		{"new healthy rule: nothing stored", nil, ok, 0, "", false},
		{"new failing rule: trigger", nil, trig, 0, model.AlertMailTrigger, true},
		{"still triggered, announced", []store.AlertRuleState{state(T, T, 0, 0)}, trig, 3 * time.Hour, "", false},
		{"recovered inside cooldown", []store.AlertRuleState{state(T, T, 0, 0)}, ok, 59 * time.Minute, "", true},
		{"recovered, cooldown over", []store.AlertRuleState{state(O, T, 0, 0)}, ok, time.Hour, model.AlertMailRecovery, false},
		{"failed attempt, before retry", []store.AlertRuleState{state(T, O, 0, never)}, trig, 4 * time.Minute, "", false},
		{"failed attempt, retry due", []store.AlertRuleState{state(T, O, 0, never)}, trig, 5 * time.Minute, model.AlertMailTrigger, false},
		{"failed recovery after a sent trigger", []store.AlertRuleState{state(O, T, 2*time.Hour, 0)}, ok, 2*time.Hour + time.Minute, "", false},
		{"recovered before the trigger was sent", []store.AlertRuleState{state(T, O, 0, never)}, ok, 10 * time.Minute, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			steps, gone := plan(tc.prev, []Candidate{tc.cand, tc.cand}, t0.Add(tc.at), p)
			if len(steps) != 1 || len(gone) != 0 {
				t.Fatalf("steps %d, gone %v; want one step (duplicates ignored), none gone", len(steps), gone)
			}
			s := steps[0]
			if s.mail != tc.wantMail || s.write != tc.wantWrite {
				t.Errorf("mail %q write %v; want %q %v", s.mail, s.write, tc.wantMail, tc.wantWrite)
			}
			if want := tc.cand.state(); s.state.State != want {
				t.Errorf("state %s, want %s", s.state.State, want)
			}
		})
	}
	_, gone := plan([]store.AlertRuleState{state(T, T, 0, 0)}, nil, t0, p)
	if len(gone) != 1 || gone[0] != 1 {
		t.Errorf("gone = %v, want [1]", gone)
	}
}

func TestRedact(t *testing.T) {
	user, pass := "mailer", "s3cr3t\"pw"
	plainAuth := base64.StdEncoding.EncodeToString([]byte("\x00" + user + "\x00" + pass))
	login := base64.StdEncoding.EncodeToString([]byte(pass))
	for _, msg := range []string{
		"535 bad credentials " + pass,
		"535 auth " + plainAuth + " refused",
		"334 got " + login,
		`quoted "s3cr3t\"pw"`,
	} {
		got := redact(errors.New(msg), user, pass)
		if strings.Contains(got, pass) || strings.Contains(got, plainAuth) || strings.Contains(got, login) ||
			strings.Contains(got, `s3cr3t\"pw`) || !strings.Contains(got, redacted) {
			t.Errorf("redact(%q) = %q", msg, got)
		}
	}
	long := redact(errors.New(strings.Repeat("é", maxErrorLen)+"\r\nnext"), user, pass)
	if len(long) > maxErrorLen+len("…") || strings.ContainsAny(long, "\r\n") {
		t.Errorf("long error: %d bytes", len(long))
	}
	if got := redact(errors.New("line\r\nInjected: x"), "", ""); got != "line  Injected: x" {
		t.Errorf("control characters: %q", got)
	}
}
