package main

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/s2r-project/s2r/internal/store"
)

// jobCollector exposes what this instance did with each background job
// (store.JobStats): with several instances on one PostgreSQL, a job's
// runs grow on one instance at a time, the one whose s2r_job_leader is 1.
type jobCollector struct {
	stats                       func() []store.JobStat
	runs, failures, skips, lead *prometheus.Desc
	lastRun                     *prometheus.Desc
}

func newJobCollector(stats func() []store.JobStat) *jobCollector {
	label := []string{"job"}
	return &jobCollector{
		stats:    stats,
		runs:     prometheus.NewDesc("s2r_job_runs_total", "Runs of a background job on this instance.", label, nil),
		failures: prometheus.NewDesc("s2r_job_failures_total", "Runs of a background job on this instance that failed.", label, nil),
		skips: prometheus.NewDesc("s2r_job_skips_total",
			"Times this instance did not run a background job because another instance (or another run here) had it.", label, nil),
		lead: prometheus.NewDesc("s2r_job_leader",
			"1 while this instance holds the background job's lease (runs it), else 0.", label, nil),
		lastRun: prometheus.NewDesc("s2r_job_last_run_timestamp_seconds",
			"Start of the last run of a background job on this instance (Unix time).", label, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *jobCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.runs, c.failures, c.skips, c.lead, c.lastRun} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *jobCollector) Collect(ch chan<- prometheus.Metric) {
	for _, st := range c.stats() {
		lead := 0.0
		if st.Leading {
			lead = 1
		}
		ch <- prometheus.MustNewConstMetric(c.runs, prometheus.CounterValue, float64(st.Runs), st.Name)
		ch <- prometheus.MustNewConstMetric(c.failures, prometheus.CounterValue, float64(st.Failures), st.Name)
		ch <- prometheus.MustNewConstMetric(c.skips, prometheus.CounterValue, float64(st.Skips), st.Name)
		ch <- prometheus.MustNewConstMetric(c.lead, prometheus.GaugeValue, lead, st.Name)
		if !st.LastRun.IsZero() {
			ch <- prometheus.MustNewConstMetric(c.lastRun, prometheus.GaugeValue, float64(st.LastRun.UnixNano())/1e9, st.Name)
		}
	}
}
