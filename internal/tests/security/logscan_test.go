package security

import (
	"encoding/json"
	"strings"
)

// panicLines returns the log lines that report a panic or an internal
// (5xx) error, one per line, or "" when there are none.
func panicLines(log string) string {
	var out []string
	for _, line := range strings.Split(log, "\n") {
		if line == "" {
			continue
		}
		var l struct {
			Msg    string `json:"msg"`
			Level  string `json:"level"`
			Status int    `json:"status"`
		}
		if json.Unmarshal([]byte(line), &l) != nil {
			// Not JSON: a runtime crash report ("panic:", "goroutine N").
			if strings.HasPrefix(line, "panic:") || strings.HasPrefix(line, "fatal error:") {
				out = append(out, line)
			}
			continue
		}
		if strings.Contains(l.Msg, "panic") {
			out = append(out, truncate(line, 600))
		}
	}
	return strings.Join(out, "\n")
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
