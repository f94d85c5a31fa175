package admin

import (
	"github.com/s2r-project/s2r/internal/model"
)

// observeRoutes lists the runtime observability routes kept in admin
// (SPEC 4.10): the runtime transaction logs, their latency percentiles and
// the bad-URL summary. All are reads, so reader may call them. The other
// observability queries (metrics, dashboard, SLO, search, debug traces,
// previews) live in internal/observe/query and come in through
// Config.Routes.
func (s *server) observeRoutes() []route {
	return []route{
		{"GET", "/runtime-logs", model.RoleReader, s.getRuntimeLogs, docGetRuntimeLogs},
		{"GET", "/runtime-logs/latency", model.RoleReader, s.getRuntimeLatency, docGetRuntimeLatency},
		{"GET", "/bad-url-summary", model.RoleReader, s.getBadURLSummary, docGetBadURLSummary},
	}
}
