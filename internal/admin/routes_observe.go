package admin

import (
	"github.com/s2r-project/s2r/internal/model"
)

// observeRoutes lists the runtime observability routes (SPEC 4.10): the
// runtime transaction logs, their latency percentiles, debug traces and
// the bad-URL summary. All are reads, so reader may call them; a debug
// trace's payloads are shown to operator and admin only (see
// docGetDebugTrace).
func (s *server) observeRoutes() []route {
	return []route{
		{"GET", "/runtime-logs", model.RoleReader, s.getRuntimeLogs, docGetRuntimeLogs},
		{"GET", "/runtime-logs/latency", model.RoleReader, s.getRuntimeLatency, docGetRuntimeLatency},
		{"GET", "/debug-traces/{correlationId}", model.RoleReader, s.getDebugTrace, docGetDebugTrace},
		{"GET", "/bad-url-summary", model.RoleReader, s.getBadURLSummary, docGetBadURLSummary},
	}
}
