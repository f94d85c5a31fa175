package main

import (
	"io"
	"log/slog"
)

// newLogger returns a JSON logger writing to w at level. The source
// service is tagged so mixed log streams stay attributable.
func newLogger(w io.Writer, level slog.Level) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level})).With("service", "s2r")
}
