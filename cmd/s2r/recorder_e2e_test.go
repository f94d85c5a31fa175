package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// TestServeRecordsTransactions runs s2r serve, sends runtime requests that
// fail before any route (404, bad direction), and reads them back through
// the admin API; records handed over just before shutdown are drained
// into the database.
func TestServeRecordsTransactions(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		testServeRecords(t, map[string]string{"S2R_DATA_DIR": dir}, store.Config{DataDir: dir})
	})
	t.Run("postgres", func(t *testing.T) {
		cfg := storetest.PostgresConfig(t)
		testServeRecords(t, map[string]string{
			"S2R_DATA_DIR":     t.TempDir(),
			"S2R_DATABASE_URL": cfg.URL,
			"S2R_SECRET_KEY":   "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
		}, cfg)
	})
}

func testServeRecords(t *testing.T, env map[string]string, db store.Config) {
	env["S2R_LISTEN_ADDR"] = "127.0.0.1:0"
	env["S2R_BOOTSTRAP_ADMINS"] = "ops@example.com"
	logs, stop := startServe(t, env)
	base := logs.addr(t, "main")
	send := func(method, path, cid string) int {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(`{"a":1}`))
		req.Header.Set("X-Correlation-Id", cid)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer sup3r-s3cret-t0ken")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := send("POST", "/publish/dev/nosuch/op", "cid-e2e-404"); got != 404 {
		t.Fatalf("unknown route = %d, want 404", got)
	}
	if got := send("GET", "/publish/", "cid-e2e-0405"); got != 400 {
		t.Fatalf("bad direction = %d, want 400", got)
	}

	var trace struct {
		Records []struct {
			Record model.TxLog `json:"record"`
		} `json:"records"`
	}
	poll.Until(t, 10*time.Second, "the 404 recorded", func() bool {
		req, _ := http.NewRequest("GET", base+"/admin/v1/debug-traces/cid-e2e-404", nil)
		req.Header.Set("X-Idp-Authenticated-User-Email", "ops@example.com")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	})
	adminCall(t, "GET", base+"/admin/v1/debug-traces/cid-e2e-404", "", 200, &trace)
	if len(trace.Records) != 1 {
		t.Fatalf("trace %+v", trace)
	}
	r := trace.Records[0].Record
	if r.HTTPStatus != 404 || r.ErrorCode != "S2R-RUN-0404" || r.ResultCode != "failed" || r.Direction != "publish" {
		t.Errorf("recorded %+v", r)
	}
	var summary map[string]struct{ Count int64 }
	poll.Until(t, 10*time.Second, "the bad URL summarized", func() bool {
		adminCall(t, "GET", base+"/admin/v1/bad-url-summary", "", 200, &summary)
		return summary["/publish/"].Count == 1
	})

	// Records handed over right before shutdown reach the database.
	const last = 50
	for range last {
		send("POST", "/publish/dev/nosuch/op", "cid-e2e-last")
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	page, err := st.TxLogs(ctx, model.TxLogFilter{CorrelationID: "cid-e2e-last"}, model.PageRequest{Page: 1, PageSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	if page.TotalItems != last {
		t.Errorf("after shutdown %d records of the last burst, want %d", page.TotalItems, last)
	}
	// Headers are never recorded: the bearer token is nowhere in the logs.
	all, err := st.TxLogsByCorrelation(ctx, "cid-e2e-404")
	if err != nil || len(all) != 1 {
		t.Fatal(err, all)
	}
	if strings.Contains(logs.String(), "sup3r-s3cret-t0ken") {
		t.Error("the bearer token reached the log")
	}
	files, _ := filepath.Glob(filepath.Join(db.DataDir, store.SQLiteFile+"*")) // SQLite only
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte("sup3r-s3cret-t0ken")) {
			t.Errorf("the bearer token is in %s", filepath.Base(f))
		}
	}
}
