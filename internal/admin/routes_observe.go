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
		{Method: "GET", Path: "/runtime-logs", Role: model.RoleReader, Handle: s.getRuntimeLogs, Doc: docGetRuntimeLogs},
		{Method: "GET", Path: "/runtime-logs/latency", Role: model.RoleReader, Handle: s.getRuntimeLatency, Doc: docGetRuntimeLatency},
		{Method: "GET", Path: "/bad-url-summary", Role: model.RoleReader, Handle: s.getBadURLSummary, Doc: docGetBadURLSummary},
	}
}
