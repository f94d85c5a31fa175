package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

func TestAlertRuleStates(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		at := time.Date(2026, 3, 1, 10, 0, 0, 123456000, time.UTC)
		a := store.AlertRuleState{RowID: 7, TenantID: "default", ServiceURI: "/orders/{id}", State: model.AlertStateTriggered,
			ChangedAt: at, NotifiedState: model.AlertStateTriggered, LastAttemptAt: at, LastSentAt: at}
		b := store.AlertRuleState{RowID: 1 << 40, TenantID: "acme", ServiceURI: "/x", State: model.AlertStateOK,
			ChangedAt: at, NotifiedState: model.AlertStateOK}
		put := func(states ...store.AlertRuleState) {
			t.Helper()
			err := s.Transact(ctx, func(tx *store.Tx) error {
				for _, st := range states {
					if err := tx.PutAlertRuleState(ctx, st); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		put(a, b)
		a.State, a.ChangedAt = model.AlertStateOK, at.Add(time.Minute)
		put(a) // upsert
		got, err := s.AlertRuleStates(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]store.AlertRuleState{a, b}, got); diff != "" {
			t.Errorf("states (-want +got):\n%s", diff)
		}
		err = s.Transact(ctx, func(tx *store.Tx) error { return tx.DeleteAlertRuleStates(ctx, []int64{7, 99}) })
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := s.AlertRuleStates(ctx); len(got) != 1 || got[0].RowID != b.RowID {
			t.Errorf("after delete: %+v", got)
		}
	})
}

func TestAlertMails(t *testing.T) {
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		base := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
		row := int64(42)
		mails := []model.AlertMail{
			{AttemptedAt: base, TenantID: "default", Kind: model.AlertMailTrigger, Status: model.AlertMailSent,
				RowID: &row, ServiceURI: "/orders/{id}", Recipients: []string{"a@example.com", "b@example.com"}, Subject: "s1"},
			{AttemptedAt: base.Add(time.Minute), TenantID: "default", Kind: model.AlertMailTest, Status: model.AlertMailFailed,
				Recipients: []string{"a@example.com"}, Subject: "s2", Error: "dial failed", ActorEmail: "root@example.com"},
			{AttemptedAt: base.Add(2 * time.Minute), TenantID: "acme", Kind: model.AlertMailRecovery, Status: model.AlertMailSent,
				RowID: &row, ServiceURI: "/y", Recipients: []string{"c@example.com"}, Subject: "s3"},
			{AttemptedAt: base.Add(3 * time.Minute), TenantID: "default", Kind: model.AlertMailRecovery, Status: model.AlertMailSent,
				RowID: &row, ServiceURI: "/orders/{id}", Recipients: []string{"a@example.com"}, Subject: "bad \xff\x00 text"},
		}
		err := s.Transact(ctx, func(tx *store.Tx) error {
			for i := range mails {
				id, err := tx.InsertAlertMail(ctx, mails[i])
				if err != nil {
					return err
				}
				mails[i].MailID = id
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		page, err := s.AlertMails(ctx, "default", model.PageRequest{Page: 1, PageSize: 2})
		if err != nil {
			t.Fatal(err)
		}
		mails[3].Subject = "bad \uFFFD text"
		want := model.NewPage([]model.AlertMail{mails[3], mails[1]}, model.PageRequest{Page: 1, PageSize: 2}, 3)
		if diff := cmp.Diff(want, page); diff != "" {
			t.Errorf("page 1 (-want +got):\n%s", diff)
		}
		page, err = s.AlertMails(ctx, "default", model.PageRequest{Page: 2, PageSize: 2})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != 1 || page.Items[0].MailID != mails[0].MailID || page.TotalPages != 2 {
			t.Errorf("page 2: %+v", page)
		}
		var n int64
		err = s.Transact(ctx, func(tx *store.Tx) (err error) {
			n, err = tx.DeleteAlertMailsBefore(ctx, base.Add(90*time.Second))
			return err
		})
		if err != nil || n != 2 {
			t.Fatalf("retention removed %d, %v; want 2", n, err)
		}
		if page, _ := s.AlertMails(ctx, "acme", model.PageRequest{Page: 1, PageSize: 50}); page.TotalItems != 1 {
			t.Errorf("acme after retention: %+v", page)
		}
	})
}
