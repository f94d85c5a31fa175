package e2e

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/loadgen"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// TestIngestAcknowledgedBatchesSurviveKill9 streams lb-event batches into
// a real `s2r serve` from three connections (JSON, NDJSON, gzip), kills
// the process with SIGKILL mid-stream, and checks that every event of
// every batch answered 200 is in the database: a 2xx means committed.
func TestIngestAcknowledgedBatchesSurviveKill9(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *server) {
		token := admintest.Dig(s.admin(t, "POST", "/ingest-instances", map[string]any{"vendor": "f5", "name": "kill-9"}).WantStatus(t, 201).JSON(t), "token")
		gen := loadgen.New(loadgen.Config{Services: 5, ErrorRate: 0.05, PayloadBytes: 300})
		var (
			mu      sync.Mutex // guards gen and acked
			acked   = map[string]bool{}
			batches int
			stop    = make(chan struct{})
			wg      sync.WaitGroup
		)
		client := &http.Client{Timeout: 20 * time.Second}
		for w := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					mu.Lock()
					events := gen.LBBatch(200, time.Now())
					mu.Unlock()
					body, err := loadgen.Encode(events, w == 1, w == 2)
					if err != nil {
						t.Error(err)
						return
					}
					req, _ := http.NewRequest("POST", s.base+"/ingest/v1/lb-events", bytes.NewReader(body))
					req.Header.Set("Authorization", "Bearer "+token)
					if w == 2 {
						req.Header.Set("Content-Encoding", "gzip")
					}
					res, err := client.Do(req)
					if err != nil {
						time.Sleep(10 * time.Millisecond) // the server is gone
						continue
					}
					res.Body.Close()
					if res.StatusCode != http.StatusOK {
						continue
					}
					mu.Lock()
					for _, e := range events {
						acked[e.EventID] = true
					}
					batches++
					mu.Unlock()
				}
			}()
		}
		poll.UntilOK(t, settle, "30 batches acknowledged", func() string {
			mu.Lock()
			defer mu.Unlock()
			if batches < 30 {
				return "not yet"
			}
			return ""
		})
		if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = s.cmd.Wait()
		close(stop)
		wg.Wait()

		cfg := store.Config{DataDir: s.dataDir}
		for _, kv := range s.env {
			if u, ok := strings.CutPrefix(kv, "S2R_DATABASE_URL="); ok {
				cfg.URL = u
			}
		}
		ctx := context.Background()
		st, err := store.Open(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		stored := map[string]bool{}
		err = st.Transact(ctx, func(tx *store.Tx) error {
			rows, err := tx.Query(ctx, "SELECT event_id FROM lb_events")
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var id string
				if err := rows.Scan(&id); err != nil {
					return err
				}
				stored[id] = true
			}
			return rows.Err()
		})
		if err != nil {
			t.Fatal(err)
		}
		missing := 0
		for id := range acked {
			if !stored[id] {
				missing++
			}
		}
		t.Logf("%d batches (%d events) acknowledged before SIGKILL, %d events stored", batches, len(acked), len(stored))
		if missing > 0 {
			t.Errorf("%d acknowledged events are not in the database", missing)
		}
	})
}
