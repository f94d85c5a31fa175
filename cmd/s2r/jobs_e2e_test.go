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
	var body string
	poll.Until(t, 10*time.Second, "job metrics", func() bool {
		_, body = get(t, base+"/metrics", nil)
		return strings.Contains(body, `s2r_job_leader{job="alert-evaluation"} 1`) &&
			strings.Contains(body, `s2r_job_leader{job="backend-health-checks"} 1`)
	})
	for _, job := range []string{"alert-evaluation", "backend-health-checks", "runtime-tx-retention"} {
		if !regexp.MustCompile(`s2r_job_runs_total\{job="` + job + `"\} [1-9]`).MatchString(body) {
			t.Errorf("no run of %s in the metrics", job)
		}
		if !strings.Contains(body, `s2r_job_last_run_timestamp_seconds{job="`+job+`"}`) {
			t.Errorf("no last run time of %s", job)
		}
	}
}
