package admin

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/upstream"
)

func TestBackendHealth(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		health := upstream.NewHealth()
		api.srv.backendHealth = upstream.NewSelector(health, nil)
		svc := api.createService(map[string]any{"serviceKey": "calc", "environment": "dev"})
		a := api.createProfile(svc.ServiceID, map[string]any{"endpointUrl": "http://10.0.0.5/calc", "name": "a"})
		b := api.createProfile(svc.ServiceID, map[string]any{"endpointUrl": "http://10.0.0.6/calc", "name": "b", "routingPriority": 5})
		ua := &upstream.Backend{Profile: a}
		for range upstream.UnhealthyAfter {
			health.Report(upstream.HealthTarget{ServiceID: svc.ServiceID, ServiceKey: "calc", Mode: upstream.HealthTCP, Backend: ua},
				time.Now(), errors.New("tcp connect 10.0.0.5:80: connection refused"))
		}
		var got backendHealthAnswer
		api.Do("GET", Prefix+"/services/"+svc.ServiceID+"/backend-health", readerEmail, "").WantStatus(t, http.StatusOK).Decode(t, &got)
		if len(got.Backends) != 2 {
			t.Fatalf("got %+v", got)
		}
		byID := map[string]upstream.BackendHealth{}
		for _, h := range got.Backends {
			byID[h.ProfileID] = h
		}
		if h := byID[a.ProfileID]; h.Healthy || !h.Checked || h.ConsecutiveFailures != 2 || h.Mode != "tcp" || h.LastError == "" || h.Breaker != "closed" || h.ProfileName != "a" {
			t.Errorf("unhealthy backend: %+v", h)
		}
		if h := byID[b.ProfileID]; !h.Healthy || h.Checked || h.Breaker != "closed" {
			t.Errorf("unchecked backend: %+v", h)
		}
		api.Do("GET", Prefix+"/services/nope/backend-health", readerEmail, "").WantStatus(t, http.StatusNotFound)
		api.Do("GET", Prefix+"/services/"+svc.ServiceID+"/backend-health", "", "").WantStatus(t, http.StatusUnauthorized)
	})
}
