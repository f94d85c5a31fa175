package query

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// traceFixture stores a plain record, a replayable debug record, a debug
// record with masked values and a cut payload, and one without a route.
func traceFixture(t *testing.T, st *store.Store, now time.Time) {
	t.Helper()
	base := model.TxLog{OccurredAt: now, Direction: "publish", Environment: "dev", ServiceKey: "calc", OperationKey: "add",
		Method: "POST", Path: "/publish/dev/calc/add", HTTPStatus: 200, ResultCode: "success"}
	plain := base
	plain.CorrelationID = "cid-plain"
	ok := base
	ok.CorrelationID, ok.Debug = "cid-ok", true
	ok.RequestPayload, ok.ResponsePayload, ok.BackendResponse = []byte(`{"a":1}`), []byte(`{"r":2}`), []byte("<r>\xff</r>")
	ok.DebugHeaders = `{"request":{"Content-Type":["application/json"],"X-Correlation-Id":["cid-ok"],"Host":["h"]},"response":{"Content-Type":["application/json"]}}`
	masked := base
	masked.CorrelationID, masked.Debug = "cid-masked", true
	masked.RequestPayload = []byte(`{"$headers":{"token":"***redacted***"}}` + "\n[truncated by s2r: 99999 bytes in all]")
	masked.DebugHeaders = `{"request":{"Authorization":["***redacted***"]}}`
	lost := base
	lost.CorrelationID, lost.Debug, lost.ServiceKey, lost.HTTPStatus, lost.ResultCode = "cid-lost", true, "", 404, "failed"
	lost.RequestPayload = []byte("{}")
	insertLogs(t, st, []model.TxLog{plain, ok, masked, lost})
}

func TestDebugTraces(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st, time.Now())
		traceFixture(t, st, time.Now())
		var tr debugTrace
		api.do("GET", "/admin/v1/debug-traces/cid-ok", operatorEmail, "", "").WantStatus(t, 200).Decode(t, &tr)
		if tr.PayloadsWithheld || len(tr.Records) != 1 || tr.Records[0].Payloads == nil || tr.Records[0].Headers == nil {
			t.Fatalf("operator trace %+v", tr)
		}
		want := tracePayloads{Request: `{"a":1}`, Response: `{"r":2}`, BackendResponse: "<r>\uFFFD</r>"}
		if diff := cmp.Diff(want, *tr.Records[0].Payloads); diff != "" {
			t.Errorf("payloads (-want +got):\n%s", diff)
		}
		if got := tr.Records[0].Headers.Request.Get("Content-Type"); got != "application/json" {
			t.Errorf("headers %+v", tr.Records[0].Headers)
		}
		tr = debugTrace{}
		api.get("/admin/v1/debug-traces/cid-ok", &tr)
		if !tr.PayloadsWithheld || tr.Records[0].Payloads != nil || tr.Records[0].Headers != nil {
			t.Errorf("reader trace shows payloads: %+v", tr)
		}
		tr = debugTrace{}
		api.do("GET", "/admin/v1/debug-traces/cid-plain", adminEmail, "", "").WantStatus(t, 200).Decode(t, &tr)
		if len(tr.Records) != 1 || tr.Records[0].Payloads != nil {
			t.Errorf("non-debug trace %+v", tr)
		}
		var e admintest.ErrorBody
		api.do("GET", "/admin/v1/debug-traces/nope", readerEmail, "", "").WantStatus(t, 404).Decode(t, &e)
		api.do("GET", "/admin/v1/debug-traces/nope/replay-metadata", readerEmail, "", "").WantStatus(t, 404)
		if e.Error.Code != "S2R-ADM-0404" {
			t.Errorf("unknown id: %+v", e)
		}
	})
}

func TestReplayMetadata(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st, time.Now())
		traceFixture(t, st, time.Now())
		get := func(cid, email string) replayMetadata {
			var m replayMetadata
			api.do("GET", "/admin/v1/debug-traces/"+cid+"/replay-metadata", email, "", "").WantStatus(t, 200).Decode(t, &m)
			if len(m.Requests) != 1 {
				t.Fatalf("%s: %+v", cid, m)
			}
			return m
		}
		ok := get("cid-ok", operatorEmail)
		r := ok.Requests[0]
		if !ok.Replayable || !r.Replayable || r.Payload == nil || *r.Payload != `{"a":1}` || r.ContentType != "application/json" ||
			r.Path != "/publish/dev/calc/add" || r.Method != "POST" {
			t.Errorf("replayable record %+v", ok)
		}
		if diff := cmp.Diff(http.Header{"Content-Type": {"application/json"}}, r.Headers); diff != "" {
			t.Errorf("replayed headers (-want +got):\n%s", diff)
		}
		if m := get("cid-ok", readerEmail); !m.PayloadsWithheld || m.Requests[0].Payload != nil || m.Requests[0].Headers != nil {
			t.Errorf("reader sees payloads: %+v", m)
		}
		for cid, reasons := range map[string]int{"cid-masked": 2, "cid-plain": 1, "cid-lost": 1} {
			m := get(cid, adminEmail)
			if m.Replayable || m.Requests[0].Replayable || len(m.Requests[0].Reasons) != reasons {
				t.Errorf("%s: %+v, want not replayable for %d reasons", cid, m.Requests[0], reasons)
			}
		}
		if m := get("cid-masked", adminEmail).Requests[0]; !m.Redacted || !m.PayloadTruncated {
			t.Errorf("masked record %+v", m)
		}
	})
}
