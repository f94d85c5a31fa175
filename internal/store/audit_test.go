package store_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

func TestAuditEventsFiltersAndPages(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		base := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
		events := []model.AuditEvent{
			{OccurredAt: base, ActorEmail: "a@example.com", ActorRole: model.RoleAdmin, ActionType: "settings.update",
				EntityType: "settings", EntityID: "settings", Result: model.AuditSuccess, CorrelationID: "c1",
				Message: "Changed max_payload_mb", BeforeState: json.RawMessage(`{"max_payload_mb":10}`), AfterState: json.RawMessage(`{"max_payload_mb":20}`)},
			{OccurredAt: base.Add(time.Minute), ActorEmail: "b@example.com", ActorRole: model.RoleAdmin, ActionType: "role_bindings.replace",
				EntityType: "role_bindings", EntityID: "role_bindings", Result: model.AuditSuccess, CorrelationID: "c2", Message: "100% replaced"},
			{OccurredAt: base.Add(2 * time.Minute), ActorEmail: "a@example.com", ActorRole: model.RoleAdmin, ActionType: "settings.update",
				EntityType: "settings", EntityID: "settings", Result: model.AuditFailure, CorrelationID: "c3", Message: "rejected: max_payload_mb"},
		}
		err := s.Transact(ctx, func(tx *store.Tx) error {
			for _, e := range events {
				if err := tx.InsertAudit(ctx, e); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		page := model.PageRequest{Page: 1, PageSize: 50}
		tests := []struct {
			name      string
			filter    model.AuditFilter
			wantCorrs []string
			wantTotal int64
			wantPages int
		}{
			{name: "all newest first", filter: model.AuditFilter{Page: page}, wantCorrs: []string{"c3", "c2", "c1"}, wantTotal: 3, wantPages: 1},
			{name: "actor", filter: model.AuditFilter{ActorEmail: "a@example.com", Page: page}, wantCorrs: []string{"c3", "c1"}, wantTotal: 2, wantPages: 1},
			{name: "role", filter: model.AuditFilter{ActorRole: "operator", Page: page}, wantCorrs: []string{}, wantTotal: 0, wantPages: 0},
			{name: "action", filter: model.AuditFilter{ActionType: "role_bindings.replace", Page: page}, wantCorrs: []string{"c2"}, wantTotal: 1, wantPages: 1},
			{name: "entity", filter: model.AuditFilter{EntityType: "settings", EntityID: "settings", Page: page}, wantCorrs: []string{"c3", "c1"}, wantTotal: 2, wantPages: 1},
			{name: "result", filter: model.AuditFilter{Result: "failure", Page: page}, wantCorrs: []string{"c3"}, wantTotal: 1, wantPages: 1},
			{name: "correlation", filter: model.AuditFilter{CorrelationID: "c2", Page: page}, wantCorrs: []string{"c2"}, wantTotal: 1, wantPages: 1},
			{name: "message case-insensitive", filter: model.AuditFilter{MessageContains: "MAX_PAYLOAD", Page: page}, wantCorrs: []string{"c3", "c1"}, wantTotal: 2, wantPages: 1},
			{name: "message wildcard is literal", filter: model.AuditFilter{MessageContains: "0%", Page: page}, wantCorrs: []string{"c2"}, wantTotal: 1, wantPages: 1},
			{name: "underscore is literal", filter: model.AuditFilter{MessageContains: "max_p", Page: page}, wantCorrs: []string{"c3", "c1"}, wantTotal: 2, wantPages: 1},
			{name: "since until inclusive", filter: model.AuditFilter{Since: base.Add(time.Minute), Until: base.Add(2 * time.Minute), Page: page}, wantCorrs: []string{"c3", "c2"}, wantTotal: 2, wantPages: 1},
			{name: "page 2 of size 2", filter: model.AuditFilter{Page: model.PageRequest{Page: 2, PageSize: 2}}, wantCorrs: []string{"c1"}, wantTotal: 3, wantPages: 2},
			{name: "page past the end", filter: model.AuditFilter{Page: model.PageRequest{Page: 5, PageSize: 2}}, wantCorrs: []string{}, wantTotal: 3, wantPages: 2},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				got, err := s.AuditEvents(ctx, tc.filter)
				if err != nil {
					t.Fatal(err)
				}
				corrs := []string{}
				for _, e := range got.Items {
					corrs = append(corrs, e.CorrelationID)
				}
				if diff := cmp.Diff(tc.wantCorrs, corrs); diff != "" {
					t.Errorf("events (-want +got):\n%s", diff)
				}
				if got.TotalItems != tc.wantTotal || got.TotalPages != tc.wantPages {
					t.Errorf("total %d pages %d, want %d and %d", got.TotalItems, got.TotalPages, tc.wantTotal, tc.wantPages)
				}
			})
		}
		got, err := s.AuditEvents(ctx, model.AuditFilter{CorrelationID: "c1", Page: page})
		if err != nil || len(got.Items) != 1 {
			t.Fatalf("c1: %v %v", got, err)
		}
		e := got.Items[0]
		if e.EventID == "" || !e.OccurredAt.Equal(base) || string(e.AfterState) != `{"max_payload_mb":20}` {
			t.Errorf("round trip: %+v", e)
		}
		if got, _ := s.AuditEvents(ctx, model.AuditFilter{CorrelationID: "c2", Page: page}); got.Items[0].BeforeState != nil {
			t.Errorf("empty state read back as %q, want nil", got.Items[0].BeforeState)
		}
	})
}
