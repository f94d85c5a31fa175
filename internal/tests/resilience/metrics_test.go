package resilience

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// metric returns the samples of family name on base's /metrics, by the
// value of label (e.g. "job"). An unreachable instance gives nil.
func metric(t *testing.T, base, name, label string) map[string]float64 {
	t.Helper()
	r := call("GET", base+"/metrics", nil)
	if !r.ok() {
		return nil
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(r.body))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	prefix := name + "{"
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		end := strings.LastIndexByte(line, '}')
		if end < 0 {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(line[end+1:]), 64)
		if err != nil {
			continue
		}
		for _, kv := range strings.Split(line[len(prefix):end], ",") {
			if k, val, ok := strings.Cut(kv, "="); ok && k == label {
				out[strings.Trim(val, `"`)] = v
			}
		}
	}
	return out
}

// jobRuns returns s2r_job_runs_total by job on base.
func jobRuns(t *testing.T, base string) map[string]float64 {
	return metric(t, base, "s2r_job_runs_total", "job")
}

// jobLeaders returns s2r_job_leader by job on base.
func jobLeaders(t *testing.T, base string) map[string]float64 {
	return metric(t, base, "s2r_job_leader", "job")
}
