package admin

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

func TestAuditEventsEndpoint(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
		api.srv.now = func() time.Time { return now }
		ctx := context.Background()
		err := st.Transact(ctx, func(tx *store.Tx) error {
			for i := range 120 {
				e := model.AuditEvent{OccurredAt: now.Add(-time.Duration(i) * time.Hour), ActorEmail: "a@example.com",
					ActorRole: model.RoleAdmin, ActionType: "settings.update", EntityType: "settings", EntityID: "settings",
					Result: model.AuditSuccess, CorrelationID: "corr-" + string(rune('a'+i%26)), Message: "event"}
				if i%10 == 0 {
					e.ActorEmail, e.ActorRole, e.Result, e.Message = "b@example.com", model.RoleOperator, model.AuditFailure, "Refused: bad VALUE"
				}
				if err := tx.InsertAudit(ctx, e); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name                          string
			query                         string
			wantItems, wantPage, wantSize int
			wantTotal                     int64
			wantPages                     int
		}{
			{name: "defaults", query: "", wantItems: 50, wantPage: 1, wantSize: 50, wantTotal: 120, wantPages: 3},
			{name: "last page", query: "page=3", wantItems: 20, wantPage: 3, wantSize: 50, wantTotal: 120, wantPages: 3},
			{name: "max page size", query: "pageSize=200", wantItems: 120, wantPage: 1, wantSize: 200, wantTotal: 120, wantPages: 1},
			{name: "actor", query: "actorEmail=B@example.com", wantItems: 12, wantPage: 1, wantSize: 50, wantTotal: 12, wantPages: 1},
			{name: "role", query: "actorRole=operator", wantItems: 12, wantPage: 1, wantSize: 50, wantTotal: 12, wantPages: 1},
			{name: "result", query: "result=failure&pageSize=5", wantItems: 5, wantPage: 1, wantSize: 5, wantTotal: 12, wantPages: 3},
			{name: "message", query: "messageContains=bad+value", wantItems: 12, wantPage: 1, wantSize: 50, wantTotal: 12, wantPages: 1},
			{name: "correlation", query: "correlationId=corr-a", wantItems: 5, wantPage: 1, wantSize: 50, wantTotal: 5, wantPages: 1},
			{name: "entity", query: "entityType=settings&entityId=settings&actionType=settings.update&pageSize=1", wantItems: 1, wantPage: 1, wantSize: 1, wantTotal: 120, wantPages: 120},
			{name: "window 24h", query: "window=24h", wantItems: 25, wantPage: 1, wantSize: 50, wantTotal: 25, wantPages: 1},
			{name: "window 15m", query: "window=15m", wantItems: 1, wantPage: 1, wantSize: 50, wantTotal: 1, wantPages: 1},
			{name: "start end override window", query: "window=15m&start=2026-06-01T00:00:00Z&end=2026-06-01T09:00:00Z", wantItems: 10, wantPage: 1, wantSize: 50, wantTotal: 10, wantPages: 1},
			{name: "since until", query: "since=2026-06-01T10:00:00%2B00:00&until=2026-06-01T12:00:00Z", wantItems: 3, wantPage: 1, wantSize: 50, wantTotal: 3, wantPages: 1},
			{name: "unencoded plus offset", query: "since=2026-06-01T12:00:00+02:00", wantItems: 3, wantPage: 1, wantSize: 50, wantTotal: 3, wantPages: 1},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				var page model.ObservabilityPageRecord[model.AuditEvent]
				api.Do("GET", "/admin/v1/audit-events?"+tc.query, readerEmail, "").WantStatus(t, 200).Decode(t, &page)
				got := []any{len(page.Items), page.Page, page.PageSize, page.TotalItems, page.TotalPages}
				want := []any{tc.wantItems, tc.wantPage, tc.wantSize, tc.wantTotal, tc.wantPages}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("items, page, pageSize, total, pages (-want +got):\n%s", diff)
				}
				for i := 1; i < len(page.Items); i++ {
					if page.Items[i].OccurredAt.After(page.Items[i-1].OccurredAt) {
						t.Fatalf("not newest first at %d", i)
					}
				}
			})
		}
	})
}

func TestAuditEventsBadQuery(t *testing.T) {
	api := newTestAPI(t, storetest.SQLite(t))
	tests := []struct{ query, field string }{
		{"page=0", "page"},
		{"page=x", "page"},
		{"pageSize=0", "pageSize"},
		{"pageSize=201", "pageSize"},
		{"window=2h", "window"},
		{"start=yesterday", "start"},
		{"until=2026-13-01", "until"},
		{"start=2026-02-01&end=2026-01-01", "start"},
		{"result=ok", "result"},
		{"actorRole=root", "actorRole"},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			q, _ := url.ParseQuery(tc.query)
			e := api.Do("GET", "/admin/v1/audit-events?"+q.Encode(), readerEmail, "").WantStatus(t, 400).ErrorOf(t).Error
			if e.Code != apierr.ValBadRequest || e.Details["field"] != tc.field {
				t.Errorf("code %s field %v, want %s %s", e.Code, e.Details["field"], apierr.ValBadRequest, tc.field)
			}
		})
	}
}
