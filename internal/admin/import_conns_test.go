package admin

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/wsdlcorpus"
)

// TestURLImportClosesItsConnections: the fetcher of a URL import lives as
// long as the request, so the connections it kept alive are closed when
// the import has answered (each import builds its own fetcher; before,
// every one left idle connections, and their goroutines, behind).
func TestURLImportClosesItsConnections(t *testing.T) {
	doc := wsdlcorpus.Read(t, countryInfoWSDL)
	var mu sync.Mutex
	open := map[net.Conn]bool{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/xml")
		w.Write(doc)
	}))
	srv.Config.ConnState = func(c net.Conn, s http.ConnState) {
		mu.Lock()
		defer mu.Unlock()
		open[c] = s != http.StateClosed && s != http.StateHijacked
	}
	srv.Start()
	defer srv.Close()
	api := newTestAPI(t, storetest.SQLite(t))
	api.Do("PATCH", "/admin/v1/settings", adminEmail, `{"outbound_allowed_cidrs":["127.0.0.0/8"]}`).WantStatus(t, http.StatusOK)
	api.Do("POST", "/admin/v1/wsdl/import-url", operatorEmail, `{"url":"`+srv.URL+`/country?wsdl"}`).WantStatus(t, http.StatusCreated)
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := 0
		for _, o := range open {
			if o {
				n++
			}
		}
		mu.Unlock()
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d connections of the import's fetcher still open after it answered", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
