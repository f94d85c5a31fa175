package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/tests/poll"
)

// TestServeJobMetrics runs s2r serve on SQLite: every background job
// shows in /metrics with its runs, and this instance leads it (one
// process on SQLite leads every job).
func TestServeJobMetrics(t *testing.T) {
	logs, _ := startServe(t, map[string]string{"S2R_DATA_DIR": t.TempDir(), "S2R_LISTEN_ADDR": "127.0.0.1:0"})
	base := logs.addr(t, "main")
	jobs := []string{"alert-evaluation", "backend-health-checks", "runtime-tx-retention"}
	// missing lists what the metrics do not show yet: each job starts on
	// its own goroutine, so under load one may run after the others.
	missing := func(body string) []string {
		var out []string
		for _, want := range []string{`s2r_job_leader{job="alert-evaluation"} 1`, `s2r_job_leader{job="backend-health-checks"} 1`} {
			if !strings.Contains(body, want) {
				out = append(out, want)
			}
		}
		for _, job := range jobs {
			if !regexp.MustCompile(`s2r_job_runs_total\{job="` + job + `"\} [1-9]`).MatchString(body) {
				out = append(out, "a run of "+job)
			}
			if !strings.Contains(body, `s2r_job_last_run_timestamp_seconds{job="`+job+`"}`) {
				out = append(out, "the last run time of "+job)
			}
		}
		return out
	}
	poll.UntilOK(t, 20*time.Second, "job metrics", func() string {
		_, body := get(t, base+"/metrics", nil)
		return strings.Join(missing(body), "; ")
	})
}
