package main

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"testing"
)

func TestNewLogger(t *testing.T) {
	var buf bytes.Buffer
	log := newLogger(&buf, slog.LevelWarn)
	log.Info("hidden")
	log.Warn("shown", "k", 1)
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatalf("want exactly one JSON line: %v\n%s", err, buf.String())
	}
	if line["msg"] != "shown" || line["service"] != "s2r" || line["level"] != "WARN" {
		t.Errorf("line = %v", line)
	}
}
