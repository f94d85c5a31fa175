package admin

import (
	"net/http"
	"sync"
	"testing"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestConcurrentDraftsAndActivations: concurrent requests never make two
// drafts or two active versions; exactly one of each race wins.
func TestConcurrentDraftsAndActivations(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		svc, d := api.consumeDraft("calc", calcOps)
		base := Prefix + "/services/" + svc.ServiceID + "/versions"
		race := func(method, path string) map[int]int {
			const n = 6
			var (
				mu    sync.Mutex
				wg    sync.WaitGroup
				count = map[int]int{}
			)
			for range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := api.Do(method, path, operatorEmail, "")
					mu.Lock()
					count[r.Status]++
					mu.Unlock()
				}()
			}
			wg.Wait()
			return count
		}
		if got := race("POST", base+"/"+d.Version.VersionID+":activate"); got[http.StatusOK] != 1 || got[http.StatusConflict] != 5 {
			t.Errorf("concurrent activations: %v", got)
		}
		if got := race("POST", base); got[http.StatusCreated] != 1 || got[http.StatusConflict] != 5 {
			t.Errorf("concurrent drafts: %v", got)
		}
		statuses, _ := api.versionStatuses(svc.ServiceID)
		count := map[string]int{}
		for _, s := range statuses {
			count[s]++
		}
		if count[model.VersionDraft] != 1 || count[model.VersionActive] != 1 || len(statuses) != 2 {
			t.Errorf("versions after the races: %v", statuses)
		}
	})
}
