package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin"
	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// lockedBuffer is a log destination written by the server's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// runReloader runs r until the end of the test.
func runReloader(t *testing.T, r *routing.Reloader) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
}

// activate imports the calc WSDL as key and activates it through the
// admin API served by h, returning the activation's answer.
func activate(t *testing.T, c *admintest.Client, key string) admintest.Response {
	t.Helper()
	wsdlText, err := os.ReadFile("../../dataplane/testdata/calc.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	var imp imported
	body, _ := json.Marshal(map[string]any{"xml": string(wsdlText), "environment": "dev", "serviceKey": key})
	c.Do("POST", "/admin/v1/wsdl/import-xml:autopilot", adminEmail, string(body)).WantStatus(t, http.StatusCreated).Decode(t, &imp)
	return c.Do("POST", "/admin/v1/services/"+imp.Service.ServiceID+"/versions/"+imp.Version.VersionID+":activate",
		adminEmail, "").WantStatus(t, http.StatusOK)
}

// revisions reads the revision headers of a write's answer.
func revisions(t *testing.T, h http.Header) (committed, served int64) {
	t.Helper()
	var err1, err2 error
	committed, err1 = strconv.ParseInt(h.Get(admin.HeaderConfigRevision), 10, 64)
	served, err2 = strconv.ParseInt(h.Get(admin.HeaderRuntimeRevision), 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		t.Fatalf("revision headers: %v (%v)", err, h)
	}
	return committed, served
}

// TestAdminWriteWaitsForLocalTable: with the reloader wired as s2r serve
// wires it, an activation answers only once the reloader's table serves
// the service, and says so in its headers.
func TestAdminWriteWaitsForLocalTable(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		box := admintest.Box(t)
		r := NewReloader(Config{Store: st, Secrets: box, Logger: slog.New(slog.DiscardHandler)}, time.Hour)
		runReloader(t, r)
		c := admintest.Serve(t, admin.New(admin.Config{Store: st, Secrets: box, Logger: slog.New(slog.DiscardHandler),
			BootstrapAdmins: []string{adminEmail}, Version: "test", Runtime: r}))
		for _, key := range []string{"calc", "calc2", "calc3"} {
			resp := activate(t, c, key)
			if r.Table().Lookup("publish", "dev", key) == nil {
				t.Fatalf("%s: the activation answered before the route table served it (revision %d)", key, r.Revision())
			}
			if committed, served := revisions(t, resp.Header); served < committed || committed < 1 {
				t.Errorf("%s: config revision %d, runtime revision %d", key, committed, served)
			}
		}
		// A read commits nothing and waits for nothing.
		if got := c.Do("GET", "/admin/v1/services", adminEmail, "").WantStatus(t, http.StatusOK).Header.Get(admin.HeaderConfigRevision); got != "" {
			t.Errorf("a read has %s %q", admin.HeaderConfigRevision, got)
		}
	})
}

// TestAdminWriteAnswersWhenTableLags: a write whose change the local table
// does not take still answers as committed: after the bound when no
// reload comes, at once when the reload fails; the headers and the log
// say the runtime has not caught up.
func TestAdminWriteAnswersWhenTableLags(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		box := admintest.Box(t)
		t.Run("no reload", func(t *testing.T) {
			var logs lockedBuffer
			r := NewReloader(Config{Store: st, Secrets: box, Logger: slog.New(slog.DiscardHandler)}, time.Hour) // never run
			c := admintest.Serve(t, admin.New(admin.Config{Store: st, Secrets: box, Logger: slog.New(slog.NewJSONHandler(&logs, nil)),
				BootstrapAdmins: []string{adminEmail}, Version: "test", Runtime: r, RuntimeWait: 100 * time.Millisecond}))
			resp := activate(t, c, "lag")
			if committed, served := revisions(t, resp.Header); served >= committed {
				t.Errorf("config revision %d, runtime revision %d: want the runtime behind", committed, served)
			}
			var res struct {
				Version struct{ Status string } `json:"version"`
			}
			resp.Decode(t, &res)
			if res.Version.Status != "active" {
				t.Errorf("answer's version status %q, want active", res.Version.Status)
			}
			if !strings.Contains(logs.String(), "did not reload within 100ms") {
				t.Errorf("no warning in the log:\n%s", logs.String())
			}
		})
		t.Run("failed reload", func(t *testing.T) {
			var logs lockedBuffer
			r := routing.NewReloader(routing.ReloaderConfig{
				Load:   func(context.Context) (*routing.Table, error) { return nil, errors.New("store unreadable") },
				Watch:  st.WatchRevision,
				Logger: slog.New(slog.DiscardHandler),
			})
			runReloader(t, r)
			c := admintest.Serve(t, admin.New(admin.Config{Store: st, Secrets: box, Logger: slog.New(slog.NewJSONHandler(&logs, nil)),
				BootstrapAdmins: []string{adminEmail}, Version: "test", Runtime: r}))
			start := time.Now()
			resp := activate(t, c, "broken")
			// A failed load ends the wait; the one the change triggers, or
			// the retry of one begun just before the wait (every 2 s).
			if took := time.Since(start); took >= admin.DefaultRuntimeWait {
				t.Errorf("the failed reload did not end the wait: %v", took)
			}
			if committed, served := revisions(t, resp.Header); served != -1 || committed < 1 {
				t.Errorf("config revision %d, runtime revision %d: want the empty table's -1", committed, served)
			}
			if !strings.Contains(logs.String(), routing.ErrLoadFailed.Error()) {
				t.Errorf("no warning in the log:\n%s", logs.String())
			}
		})
	})
}

// BenchmarkAdminWrite measures the latency of an admin write (a service
// description PATCH) with 20 active services and the reloader running:
// answered at commit (the baseline, as before issue 24) and answered once
// the local table serves it (read your writes), which adds one reload.
func BenchmarkAdminWrite(b *testing.B) {
	wsdlText, err := os.ReadFile("../../dataplane/testdata/calc.wsdl")
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []string{"at-commit", "read-your-writes"} {
		b.Run(mode, func(b *testing.B) {
			st := storetest.SQLite(b)
			box := admintest.Box(b)
			r := NewReloader(Config{Store: st, Secrets: box, Logger: slog.New(slog.DiscardHandler)}, time.Hour)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- r.Run(ctx) }()
			defer func() { cancel(); <-done }()
			cfg := admin.Config{Store: st, Secrets: box, Logger: slog.New(slog.DiscardHandler),
				BootstrapAdmins: []string{adminEmail}, Version: "test"}
			if mode == "read-your-writes" {
				cfg.Runtime = r
			}
			a := adminClient{t: b, c: admintest.Serve(b, admin.New(cfg))}
			var id string
			for i := range 20 {
				id = a.importActive(wsdlText, "calc"+strconv.Itoa(i)).Service.ServiceID
			}
			b.ResetTimer()
			i := 0
			for b.Loop() {
				i++
				a.do("PATCH", "/services/"+id, `{"description":"d`+strconv.Itoa(i)+`"}`, http.StatusOK, nil)
			}
		})
	}
}
