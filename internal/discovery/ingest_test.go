package discovery_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/loadgen"
	"github.com/s2r-project/s2r/internal/redact"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// countEvents returns how many lb events and generic logs are stored.
func countEvents(t testing.TB, st *store.Store) (lb, generic int) {
	t.Helper()
	ctx := context.Background()
	err := st.Transact(ctx, func(tx *store.Tx) error {
		if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM lb_events").Scan(&lb); err != nil {
			return err
		}
		return tx.QueryRow(ctx, "SELECT COUNT(*) FROM generic_logs").Scan(&generic)
	})
	if err != nil {
		t.Fatal(err)
	}
	return lb, generic
}

// validEvent is one valid lb event as JSON, with fields overridden by
// replacing `"name":value` pairs.
func validEvent(i int) string {
	return fmt.Sprintf(`{"eventId":"0b6c3e52-8d2f-4f0e-9a51-3c1d2e4f5a%02x","globalTransactionId":"1b6c3e52-8d2f-4f0e-9a51-3c1d2e4f5a6b",`+
		`"stage":"client_response","timestamp":"%s","frontVirtualServer":"/Common/vs_calc","backVirtualServer":"/Common/pool_calc",`+
		`"clientIp":"10.1.2.3","method":"POST","host":"api.example.com","uri":"/CalcService/calc.asmx?op=Add","backend":"10.0.0.5:8080",`+
		`"statusCode":200,"durationMs":12.5,"bytesIn":300,"bytesOut":420,"resultCode":"ok","soapFault":false,`+
		`"headers":{"Content-Type":"text/xml","Authorization":"Basic c2VjcmV0"},"payload":"<soap:Envelope/>"}`,
		i, time.Now().UTC().Add(-time.Minute).Format(time.RFC3339Nano))
}

func TestIngestAcceptsFormatsAndIsIdempotent(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		e := newEnv(t, st)
		inst := e.register("f5", "bigip-1", "")
		gen := loadgen.New(loadgen.Config{Services: 3, ErrorRate: 0.5, PayloadBytes: 200, Seed: 7})
		now := time.Now().UTC()
		lbEvents := gen.LBBatch(40, now)
		generic := gen.GenericBatch(25, now)
		cases := []struct {
			name, path string
			events     any
			ndjson, gz bool
		}{
			{"json array", discovery.PathLBEvents, lbEvents[:20], false, false},
			{"ndjson", discovery.PathLBEvents, lbEvents[20:], true, false},
			{"gzip ndjson generic", discovery.PathGenericLogs, generic, true, true},
		}
		for _, tc := range cases {
			body, err := loadgen.Encode(tc.events, tc.ndjson, tc.gz)
			if err != nil {
				t.Fatal(err)
			}
			h := []string{}
			if tc.gz {
				h = append(h, "Content-Encoding", "gzip")
			}
			var ans discovery.IngestResponse
			e.ingest(tc.path, inst.Token, body, h...).WantStatus(t, 200).Decode(t, &ans)
			if ans.Stored != ans.Received || ans.Duplicates != 0 {
				t.Errorf("%s: %+v", tc.name, ans)
			}
			// The same batch again: accepted, nothing stored twice.
			e.ingest(tc.path, inst.Token, body, h...).WantStatus(t, 200).Decode(t, &ans)
			if ans.Stored != 0 || ans.Duplicates != ans.Received {
				t.Errorf("%s repeated: %+v", tc.name, ans)
			}
		}
		if lb, gn := countEvents(t, st); lb != 40 || gn != 25 {
			t.Errorf("stored %d lb events and %d generic logs, want 40 and 25", lb, gn)
		}
		// Empty bodies are empty batches.
		for _, body := range []string{"", "[]", "  \n"} {
			var ans discovery.IngestResponse
			e.ingest(discovery.PathLBEvents, inst.Token, []byte(body)).WantStatus(t, 200).Decode(t, &ans)
			if ans.Received != 0 {
				t.Errorf("%q: %+v", body, ans)
			}
		}
	})
}

func TestIngestAuthentication(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		e := newEnv(t, st)
		inst := e.register("f5", "bigip-1", "")
		body := []byte("[" + validEvent(1) + "]")
		for name, h := range map[string][]string{
			"no header":    {},
			"basic":        {"Authorization", "Basic " + inst.Token},
			"wrong token":  {"Authorization", "Bearer " + discovery.TokenPrefix + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"},
			"not a token":  {"Authorization", "Bearer hello"},
			"empty bearer": {"Authorization", "Bearer "},
		} {
			r := e.do("POST", discovery.PathLBEvents, body, append([]string{"Content-Type", "application/json"}, h...)...)
			if got := r.WantError(t, 401, apierr.IngUnauthorized); strings.Contains(string(r.Body), inst.Token) {
				t.Errorf("%s: token echoed: %+v", name, got)
			}
		}
		e.ingest(discovery.PathLBEvents, inst.Token, body).WantStatus(t, 200)
		// A second s2r instance on the same database, its cache warm.
		other := newEnv(t, st)
		other.ingest(discovery.PathHeartbeat, inst.Token, nil).WantStatus(t, 200)
		// Revoked: refused at once here, and by the other instance within
		// its cache TTL (50 ms here, 2 s by default).
		e.admin("DELETE", "/ingest-instances/"+inst.InstanceID, adminEmail, "").WantStatus(t, 204)
		e.ingest(discovery.PathLBEvents, inst.Token, body).WantError(t, 401, apierr.IngUnauthorized)
		poll.Until(t, 2*time.Second, "the other instance refuses the revoked token", func() bool {
			return other.ingest(discovery.PathHeartbeat, inst.Token, nil).Status == 401
		})
		e.ingest(discovery.PathHeartbeat, inst.Token, nil).WantError(t, 401, apierr.IngUnauthorized)
		if lb, _ := countEvents(t, st); lb != 1 {
			t.Errorf("%d events stored, want 1", lb)
		}
	})
}

func TestIngestRefusesBadEvents(t *testing.T) {
	ev := validEvent(1)
	set := func(field, value string) string {
		i := strings.Index(ev, `"`+field+`":`)
		if i < 0 {
			panic(field)
		}
		j := i + len(field) + 3
		depth, inStr := 0, false
		k := j
		for ; k < len(ev); k++ {
			c := ev[k]
			switch {
			case inStr && c == '\\':
				k++
			case c == '"':
				inStr = !inStr
			case inStr:
			case c == '{' || c == '[':
				depth++
			case c == '}' || c == ']':
				if depth == 0 {
					return ev[:j] + value + ev[k:]
				}
				depth--
			case c == ',' && depth == 0:
				return ev[:j] + value + ev[k:]
			}
		}
		return ev[:j] + value + ev[k:]
	}
	drop := func(field string) string {
		s := set(field, `null`)
		return strings.Replace(s, `"`+field+`":null,`, "", 1)
	}
	future := time.Now().UTC().Add(48 * time.Hour).Format(time.RFC3339)
	tests := []struct {
		name, body, field string
		index             int
	}{
		{"missing eventId", drop("eventId"), "eventId", 1},
		{"eventId not a UUID", set("eventId", `"evt-1"`), "eventId", 1},
		{"globalTransactionId not a UUID", set("globalTransactionId", `"{1b6c3e52-8d2f-4f0e-9a51-3c1d2e4f5a6b}"`), "globalTransactionId", 1},
		{"bad stage", set("stage", `"client"`), "stage", 1},
		{"missing timestamp", drop("timestamp"), "timestamp", 1},
		{"timestamp without zone", set("timestamp", `"2026-01-02T15:04:05"`), "timestamp", 1},
		{"timestamp date only", set("timestamp", `"2026-01-02"`), "timestamp", 1},
		{"timestamp far future", set("timestamp", `"`+future+`"`), "timestamp", 1},
		{"timestamp before 2000", set("timestamp", `"1999-12-31T23:59:59Z"`), "timestamp", 1},
		{"timestamp as number", set("timestamp", `1700000000`), "timestamp", 1},
		{"bad client ip", set("clientIp", `"10.1.2"`), "clientIp", 1},
		{"status as string", set("statusCode", `"200"`), "statusCode", 1},
		{"status too big", set("statusCode", `1000`), "statusCode", 1},
		{"status fractional", set("statusCode", `200.5`), "statusCode", 1},
		{"negative duration", set("durationMs", `-1`), "durationMs", 1},
		{"negative bytes", set("bytesIn", `-5`), "bytesIn", 1},
		{"missing uri", drop("uri"), "uri", 1},
		{"relative uri", set("uri", `"calc.asmx"`), "uri", 1},
		{"uri with newline", set("uri", `"/a\nb"`), "uri", 1},
		{"bad method", set("method", `"PO ST"`), "method", 1},
		{"header not a string", set("headers", `{"X-A":1}`), "headers.X-A", 1},
		{"bad header name", set("headers", `{"X A":"1"}`), "headers", 1},
		{"NUL in payload", set("payload", `"a\u0000b"`), "payload", 1},
		{"lone surrogate", set("payload", `"\ud800"`), "payload", 1},
		{"soapFault not bool", set("soapFault", `"yes"`), "soapFault", 1},
		{"unknown field", strings.Replace(ev, `"stage"`, `"stagee":"x","stage"`, 1), "stagee", 1},
		{"duplicate field", strings.Replace(ev, `"stage"`, `"stage":"client_request","stage"`, 1), "stage", 1},
		{"resultCode with spaces", set("resultCode", `"not ok"`), "resultCode", 1},
	}
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		e := newEnv(t, st)
		inst := e.register("f5", "bigip-1", "")
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				// The bad event is second: the first, valid one is not stored either.
				body := "[" + validEvent(0) + "," + tc.body + "," + validEvent(2) + "]"
				got := e.ingest(discovery.PathLBEvents, inst.Token, []byte(body)).WantError(t, 400, apierr.IngBadRequest)
				d := got.Error.Details
				if d["index"] != float64(tc.index) || d["field"] != tc.field || d["reason"] == "" {
					t.Errorf("details %v, want index %d field %s", d, tc.index, tc.field)
				}
			})
		}
		raw := []struct{ name, body string }{
			{"not JSON", "hello"},
			{"a number", "42"},
			{"array of numbers", "[1,2]"},
			{"truncated", "[" + validEvent(0) + ",{\"eventId\":"},
			{"trailing garbage", "[" + validEvent(0) + "] x"},
			{"invalid UTF-8", "[" + strings.Replace(validEvent(0), "<soap:Envelope/>", "caf\xe9", 1) + "]"},
			{"ndjson garbage line", validEvent(0) + "\nnot json\n"},
		}
		for _, tc := range raw {
			t.Run(tc.name, func(t *testing.T) {
				e.ingest(discovery.PathLBEvents, inst.Token, []byte(tc.body)).WantError(t, 400, apierr.IngBadRequest)
			})
		}
		if lb, _ := countEvents(t, st); lb != 0 {
			t.Errorf("%d events stored from refused batches", lb)
		}
		if rows := e.rows(adminEmail, ""); rows.TotalItems != 0 {
			t.Errorf("rows created by refused batches: %+v", rows.Items)
		}
	})
}

func TestIngestLimits(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		e := newEnv(t, st, withMaxMB(1))
		inst := e.register("f5", "bigip-1", "")
		gen := loadgen.New(loadgen.Config{Services: 2, Seed: 3})

		// More than 5,000 events, small ones: the body is under 1 MB.
		var sb strings.Builder
		for i := range discovery.MaxBatchEvents + 1 {
			fmt.Fprintf(&sb, `{"eventId":"%08x-0000-4000-8000-000000000000","timestamp":"2026-11-20T10:00:00Z","serviceUri":"/a"}`+"\n", i)
		}
		got := e.ingest(discovery.PathGenericLogs, inst.Token, []byte(sb.String()), "Content-Type", "application/x-ndjson").
			WantError(t, 413, apierr.IngTooLarge)
		if got.Error.Details["maxEvents"] != float64(discovery.MaxBatchEvents) {
			t.Errorf("details %v", got.Error.Details)
		}

		// Over max_payload_mb as sent (chunked: no Content-Length).
		big, _ := loadgen.Encode(loadgen.New(loadgen.Config{Services: 2, PayloadBytes: 4000, Seed: 4}).LBBatch(600, time.Now()), false, false)
		if len(big) < 1<<20 {
			t.Fatalf("test body only %d bytes", len(big))
		}
		req, _ := http.NewRequest("POST", e.c.URL+discovery.PathLBEvents, struct{ *bytes.Reader }{bytes.NewReader(big)})
		req.Header.Set("Authorization", "Bearer "+inst.Token)
		// The server answers 413 and closes the connection before the
		// whole body is sent, so the client may see the close first.
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode != 413 {
				t.Errorf("chunked oversize body: %d", resp.StatusCode)
			}
		}
		// With a Content-Length: refused before reading.
		got = e.ingest(discovery.PathLBEvents, inst.Token, big).WantError(t, 413, apierr.IngTooLarge)
		if got.Error.Details["maxPayloadMb"] != float64(1) {
			t.Errorf("details %v", got.Error.Details)
		}

		// A gzip bomb: a few KB that inflate past 1 MB.
		var bomb bytes.Buffer
		zw := gzip.NewWriter(&bomb)
		zw.Write([]byte(`[{"eventId":"`))
		zw.Write(bytes.Repeat([]byte("a"), 8<<20))
		zw.Close()
		if bomb.Len() > 64<<10 {
			t.Fatalf("bomb is %d bytes", bomb.Len())
		}
		e.ingest(discovery.PathLBEvents, inst.Token, bomb.Bytes(), "Content-Encoding", "gzip").WantError(t, 413, apierr.IngTooLarge)
		// Corrupt gzip.
		e.ingest(discovery.PathLBEvents, inst.Token, []byte("not gzip"), "Content-Encoding", "gzip").WantError(t, 400, apierr.IngBadRequest)
		// Other encodings and media types.
		ok, _ := loadgen.Encode(gen.LBBatch(4, time.Now()), false, false)
		e.ingest(discovery.PathLBEvents, inst.Token, ok, "Content-Encoding", "br").WantError(t, 415, apierr.IngUnsupportedMedia)
		e.ingest(discovery.PathLBEvents, inst.Token, ok, "Content-Type", "text/xml").WantError(t, 415, apierr.IngUnsupportedMedia)
		// Methods and paths.
		e.do("GET", discovery.PathLBEvents, nil, "Authorization", "Bearer "+inst.Token).WantError(t, 405, apierr.IngMethodNotAllowed)
		e.ingest("/ingest/v1/other", inst.Token, ok).WantError(t, 404, apierr.IngNotFound)
		if lb, gn := countEvents(t, st); lb != 0 || gn != 0 {
			t.Errorf("stored %d/%d events from refused batches", lb, gn)
		}
	})
}

func TestIngestStoresWhatWasSent(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		e := newEnv(t, st)
		inst := e.register("F5", "bigip-1", "")
		if inst.Vendor != "f5" {
			t.Errorf("vendor %q", inst.Vendor)
		}
		long := strings.Repeat("é", 40000) // 80,000 bytes
		ev := strings.Replace(validEvent(1), `"<soap:Envelope/>"`, `"`+long+`"`, 1)
		e.ingest(discovery.PathLBEvents, inst.Token, []byte("["+ev+"]")).WantStatus(t, 200)
		ctx := context.Background()
		var (
			payload, headers, uri, serviceURI, env, key, vendor string
			size                                                int64
		)
		err := st.Transact(ctx, func(tx *store.Tx) error {
			return tx.QueryRow(ctx, "SELECT payload, payload_bytes, headers, uri, service_uri, environment, service_key, vendor FROM lb_events").
				Scan(&payload, &size, &headers, &uri, &serviceURI, &env, &key, &vendor)
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(payload) != discovery.MaxPayloadBytes || size != 80000 || !strings.HasPrefix(long, payload) {
			t.Errorf("payload %d bytes (sent %d)", len(payload), size)
		}
		if strings.Contains(headers, "c2VjcmV0") || !strings.Contains(headers, redact.Mask) {
			t.Errorf("headers %s", headers)
		}
		if uri != "/CalcService/calc.asmx?op=Add" || serviceURI != "/calcservice/calc.asmx" || env != "discovered" ||
			key != serviceURI || vendor != "f5" {
			t.Errorf("stored uri %q serviceUri %q env %q key %q vendor %q", uri, serviceURI, env, key, vendor)
		}
	})
}

func TestHeartbeat(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		e := newEnv(t, st)
		inst := e.register("f5", "bigip-1", "")
		var hb discovery.HeartbeatResponse
		e.ingest(discovery.PathHeartbeat, inst.Token, nil).WantStatus(t, 200).Decode(t, &hb)
		if hb.InstanceID != inst.InstanceID {
			t.Errorf("%+v", hb)
		}
		var list []discovery.InstanceView
		e.admin("GET", "/ingest-instances", readerEmail, "").WantStatus(t, 200).Decode(t, &list)
		if len(list) != 1 || list[0].LastHeartbeatAt == nil || list[0].Status != "active" {
			t.Errorf("%+v", list)
		}
	})
}
