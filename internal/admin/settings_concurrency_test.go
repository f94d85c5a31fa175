package admin

import (
	"context"
	"sync"
	"testing"

	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestSettingsConcurrentPatchesStayValid races two patches that are each
// valid alone but not together (turn alerts on; clear the SMTP host). The
// PATCH transaction takes the revision row lock before reading, so one of
// them must see the other's result and be refused: the stored settings
// never break the cross-setting rule.
func TestSettingsConcurrentPatchesStayValid(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		ctx := context.Background()
		ready := `{"smtp_host":"mail.example.com","smtp_from":"s2r@example.com","alert_recipients":["ops@example.com"],"alerts_enabled":false}`
		for round := range 10 {
			api.Do("PATCH", "/admin/v1/settings", adminEmail, ready).WantStatus(t, 200)
			var wg sync.WaitGroup
			statuses := make([]int, 2)
			for i, body := range []string{`{"alerts_enabled":true}`, `{"smtp_host":""}`} {
				wg.Go(func() { statuses[i] = api.Do("PATCH", "/admin/v1/settings", adminEmail, body).Status })
			}
			wg.Wait()
			s, err := st.Settings(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(); err != nil {
				t.Fatalf("round %d: statuses %v left invalid settings: %v", round, statuses, err)
			}
			if statuses[0] == 200 && statuses[1] == 200 {
				t.Fatalf("round %d: both conflicting patches succeeded", round)
			}
		}
	})
}
