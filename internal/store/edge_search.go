package store

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/s2r-project/s2r/internal/model"
)

// SearchEdge returns at most q.Limit edge transactions matching q, newest
// first, with their discovery row's service match and, for lb, their
// stages merged.
func (s *Store) SearchEdge(ctx context.Context, q model.EdgeSearch) ([]model.EdgeTx, error) {
	var (
		a     sqlArgs
		parts []string
	)
	limit := a.add(q.Limit)
	for i, src := range edgeSelects {
		if len(q.Sources) > 0 && !slices.Contains(q.Sources, src.source) {
			continue
		}
		conds := edgeSearchConds(q, &a, src)
		parts = append(parts, "SELECT * FROM (SELECT "+src.listColumns()+" FROM "+src.table+" "+src.alias+" WHERE "+
			strings.Join(conds, " AND ")+" ORDER BY "+src.alias+".occurred_at DESC LIMIT "+limit+") p"+strconv.Itoa(i))
	}
	return s.edgeRows(ctx, parts, &a, q.TenantID, q.Limit, 0)
}

// edgeSearchConds returns the conditions of q on one edge source.
func edgeSearchConds(q model.EdgeSearch, a *sqlArgs, src edgeSelect) []string {
	x := src.alias + "."
	lb := src.source == model.SourceLB
	conds := []string{x + "occurred_at >= " + a.add(NewTime(q.Since)), x + "occurred_at <= " + a.add(NewTime(q.Until))}
	if lb {
		conds = append(conds, x+"stage = 'client_response'")
	}
	if q.TenantID != "" {
		conds = append(conds, x+"tenant_id = "+a.add(q.TenantID))
	}
	like := func(col, sub string) string {
		return "LOWER(" + col + ") LIKE " + a.add(containsPattern(sub)) + " ESCAPE '\\'"
	}
	uri, customer := "raw_uri", "consumer_ip"
	if lb {
		uri, customer = "uri", "client_ip"
	}
	if q.URIContains != "" {
		p := a.add(containsPattern(q.URIContains))
		conds = append(conds, "(LOWER("+x+"service_uri) LIKE "+p+" ESCAPE '\\' OR LOWER("+x+uri+") LIKE "+p+" ESCAPE '\\'"+
			" OR LOWER("+x+"service_key) LIKE "+p+" ESCAPE '\\')")
	}
	if q.BackendContains != "" {
		conds = append(conds, like(x+"backend", q.BackendContains))
	}
	if q.ConsumerIPContains != "" {
		conds = append(conds, like(x+customer, q.ConsumerIPContains))
	}
	if q.StatusMax != 0 {
		conds = append(conds, x+"status_code >= "+a.add(q.StatusMin), x+"status_code <= "+a.add(q.StatusMax))
	}
	if q.PayloadContains != "" {
		p := a.add(containsPattern(q.PayloadContains))
		if lb {
			// "LIMIT 1 OFFSET 0" keeps PostgreSQL from turning the EXISTS into a
			// semi-join that scans every stored payload: checked per
			// candidate transaction, through lb_events_gtid, newest first
			// until the limit is reached.
			conds = append(conds, "EXISTS (SELECT 1 FROM lb_events pe WHERE pe.global_transaction_id = e.global_transaction_id "+
				"AND pe.tenant_id = e.tenant_id AND LOWER(pe.payload) LIKE "+p+" ESCAPE '\\' LIMIT 1 OFFSET 0)")
		} else {
			conds = append(conds, "(LOWER(g.request_payload) LIKE "+p+" ESCAPE '\\' OR LOWER(g.response_payload) LIKE "+p+" ESCAPE '\\')")
		}
	}
	return conds
}
