package discovery_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/loadgen"
	"github.com/s2r-project/s2r/internal/redact"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

const canary = "Canary-51d0"

// storedEvent returns the payload and headers stored for the lb event
// on uri.
func storedEvent(t *testing.T, st *store.Store, uri string) (payload, headers string) {
	t.Helper()
	ctx := context.Background()
	err := st.Transact(ctx, func(tx *store.Tx) error {
		return tx.QueryRow(ctx, "SELECT payload, headers FROM lb_events WHERE uri = $1", uri).Scan(&payload, &headers)
	})
	if err != nil {
		t.Fatal(err)
	}
	return payload, headers
}

// TestSettingsFollowed: ingest masks by the settings snapshot, not by a
// store read of its own. A PATCH of debug_redact_names and
// default_retention_days through the admin API, and a backend profile
// with an API-key header, reach ingest and retention once the reloader has
// followed the revision.
func TestSettingsFollowed(t *testing.T) {
	st := storetest.SQLite(t)
	ctx := context.Background()
	e := newEnv(t, st)
	f5 := e.register("f5", "bigip-1", "")
	event := func(uri string, n int) loadgen.LBEvent {
		ev := tx(uri, "10.1.0.1", time.Now().UTC().Add(-time.Minute), n, false)[0]
		ev.Payload = "<m:Add><m:pin>" + canary + "</m:pin></m:Add>"
		ev.Headers = map[string]string{"Pin": canary, "X-Tenant-Key": canary, "SOAPAction": "add"}
		return ev
	}
	e.send(f5.Token, []loadgen.LBEvent{event("/before", 1)})
	if p, h := storedEvent(t, st, "/before"); !strings.Contains(p, canary) || !strings.Contains(h, canary) {
		t.Fatalf("the default names masked pin or X-Tenant-Key: %s %s", p, h)
	}

	e.admin("PATCH", "/settings", adminEmail, `{"debug_redact_names":["password","pin"],"default_retention_days":2}`).WantStatus(t, 200)
	err := st.ChangeConfig(ctx, func(tx *store.Tx) error {
		return storetest.AddAPIKeyService(ctx, tx, "k", "X-Tenant-Key")
	})
	if err != nil {
		t.Fatal(err)
	}
	e.caughtUp()

	e.send(f5.Token, []loadgen.LBEvent{event("/after", 2)})
	p, h := storedEvent(t, st, "/after")
	if strings.Contains(p+h, canary) || !strings.Contains(p, redact.Mask) || !strings.Contains(h, redact.Mask) {
		t.Errorf("after the change pin and X-Tenant-Key are not masked: %s %s", p, h)
	}

	// Retention keeps 2 days now: a 3-day-old transaction goes.
	e.send(f5.Token, tx("/old", "10.1.0.1", time.Now().UTC().Add(-3*24*time.Hour), 3, false))
	if n, err := e.svc.Retain(ctx); err != nil || n < 4 {
		t.Errorf("retention removed %d (%v), want the 4 events of 3 days ago", n, err)
	}
	if lb, _ := countEvents(t, st); lb != 2 {
		t.Errorf("%d lb events left, want the 2 recent ones", lb)
	}
}
