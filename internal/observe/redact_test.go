package observe

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/redact"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

const canary = "Canary-7f3a9"

// TestDebugCaptureMasked hands the recorder debug records full of a
// canary value in every place a credential travels, with a redact name
// and an API-key header name configured, and checks that the stored rows
// and the database files hold the canary nowhere, while the rest of the
// captured data is kept.
func TestDebugCaptureMasked(t *testing.T) {
	cfg := storetest.SQLiteConfig(t)
	ctx := context.Background()
	s := openMigrated(t, cfg)
	seedRedactConfig(t, s)
	r, _ := newRecorder(t, Config{Store: s, Settings: follow(t, s), FlushInterval: time.Millisecond})
	stop := started(t, r)
	if got := string(r.settings().Redactor.Payload([]byte("<pin>x</pin>"))); got != "<pin>"+redact.Mask+"</pin>" {
		t.Fatalf("the snapshot does not mask pin: %q", got)
	}
	soap := `<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Header><wsse:Security><wsse:UsernameToken>` +
		`<wsse:Username>keep-user</wsse:Username><wsse:Password>` + canary + `</wsse:Password><wsse:Nonce>` + canary +
		`</wsse:Nonce></wsse:UsernameToken><wsse:BinarySecurityToken>` + canary + `</wsse:BinarySecurityToken></wsse:Security>` +
		`</s:Header><s:Body><m:Login><m:PIN>` + canary + `</m:PIN><m:keep>keep-body</m:keep></m:Login></s:Body></s:Envelope>`
	jsonBody := `{"$headers":{"Security":{"UsernameToken":{"Username":"keep-user","Password":"` + canary + `"}},"apiKey":"` + canary +
		`"},"keep":"keep-body"}`
	headers := http.Header{"Authorization": {"Bearer " + canary}, "Cookie": {"s=" + canary}, "X-S2r-Callback-Secret": {canary},
		"X-Tenant-Key": {canary}, "X-Keep": {"keep-header"}}
	rec := record(1, time.Now())
	rec.CorrelationID, rec.Debug = "cid-mask", true
	rec.RequestPayload, rec.BackendRequest = []byte(jsonBody), []byte(soap)
	rec.ResponsePayload, rec.BackendResponse = []byte(jsonBody), []byte(soap)
	rec.Headers = &model.DebugHeaders{Request: headers, Response: headers, BackendRequest: headers, BackendResponse: headers}
	r.Record(rec)
	waitFor(t, "record written", func() bool { return r.Stats().Written == 1 })
	stop()
	logs, err := s.TxLogsByCorrelation(ctx, "cid-mask")
	if err != nil || len(logs) != 1 {
		t.Fatal(logs, err)
	}
	l := logs[0]
	stored := string(l.RequestPayload) + string(l.ResponsePayload) + string(l.BackendRequest) + string(l.BackendResponse) + l.DebugHeaders
	if strings.Contains(stored, canary) {
		t.Errorf("canary stored: %s", stored)
	}
	for _, keep := range []string{"keep-user", "keep-body", "keep-header", redact.Mask} {
		if !strings.Contains(stored, keep) {
			t.Errorf("%q lost: %s", keep, stored)
		}
	}
	var h StoredHeaders
	if err := json.Unmarshal([]byte(l.DebugHeaders), &h); err != nil || h.BackendRequest.Get("Authorization") != redact.Mask {
		t.Errorf("headers %s: %v", l.DebugHeaders, err)
	}
	files, _ := filepath.Glob(filepath.Join(cfg.DataDir, store.SQLiteFile+"*"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if bytes.Contains(b, []byte(canary)) {
			t.Errorf("%s holds the canary", filepath.Base(f))
		}
	}
}

// seedRedactConfig adds "pin" to debug_redact_names and a backend profile
// with API-key header X-Tenant-Key.
func seedRedactConfig(t *testing.T, s *store.Store) {
	t.Helper()
	ctx := context.Background()
	names, _ := json.Marshal(append(model.DefaultDebugRedactNames(), "pin"))
	err := s.Transact(ctx, func(tx *store.Tx) error {
		if err := tx.PutSetting(ctx, store.SettingRow{Name: "debug_redact_names", Value: names, UpdatedAt: time.Now()}); err != nil {
			return err
		}
		return storetest.AddAPIKeyService(ctx, tx, "r", "X-Tenant-Key")
	})
	if err != nil {
		t.Fatal(err)
	}
}

// openMigrated opens and migrates the store of cfg, closed at cleanup
// (tests that read the database files of cfg.DataDir).
func openMigrated(t *testing.T, cfg store.Config) *store.Store {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	return s
}
