package query

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/s2r-project/s2r/internal/discovery"
	"github.com/s2r-project/s2r/internal/loadgen"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// This file generates lb and generic traffic, sends it through the real
// ingest API and describes it as reference records: the edge half of the
// brute-force comparison.

// billingService is onboarded after its edge traffic arrived: its
// aggregates must follow the new match.
var billingService = model.Service{ServiceID: "55555555-5555-4555-8555-555555555555", ServiceKey: "billing",
	Environment: "prod", Direction: "publish", Status: "active"}

// catalog is every catalog service of the fixtures once billing is
// onboarded.
var catalog = append(slices.Clone(fixtureServices), billingService)

// edgeURIs are the URIs the edge fixture calls: s2r's runtime paths of
// calculator, weather and legacy (disabled, still matched), of the
// deprecated old (matched by nothing), shadow services, and billing's
// path before and after it is onboarded.
var edgeURIs = []string{"/publish/prod/calculator/add", "/consume/dev/weather?wsdl", "/gateway/dev/legacy",
	"/publish/dev/old/x", "/CalcService/Calc.asmx", "/orders/12345/items", "/publish/prod/billing/get"}

// edgeMatch is the service match the endpoints must report for a
// normalised serviceUri.
func edgeMatch(serviceURI string, billing bool) (direction, env, key, id string) {
	for _, s := range catalog {
		if s.ServiceID == billingService.ServiceID && !billing || s.Status == "deprecated" {
			continue
		}
		p := "/" + s.Direction + "/" + s.Environment + "/" + s.ServiceKey
		if serviceURI == p || strings.HasPrefix(serviceURI, p+"/") {
			return s.Direction, s.Environment, s.ServiceKey, s.ServiceID
		}
	}
	return "", discovery.ShadowEnvironment, serviceURI, ""
}

// edgeOutcome is how an edge call ended.
type edgeOutcome struct {
	status int
	result string
	fault  bool
}

var edgeOutcomes = []edgeOutcome{{200, "ok", false}, {200, "ok", false}, {200, "ok", false}, {200, "", false},
	{200, "success", false}, {200, "ok", true}, {500, "ok", false}, {404, "ok", false}, {0, "reset", false},
	{503, "no_backend", false}, {504, "timeout", false}, {0, "tls_error", false}}

// edgeCall is one generated lb transaction or generic log.
type edgeCall struct {
	source, tenant string
	uri            string
	at             time.Time // lb: its client_response; generic: the log
	outcome        edgeOutcome
	latency        float64
	// completed is false for an lb transaction whose client_response was
	// never sent (in flight): not a call.
	completed bool
	lb        []loadgen.LBEvent
	generic   loadgen.GenericLog
}

// newEdgeCalls returns n calls of source spread over span before end,
// with latencies in whole microseconds.
func newEdgeCalls(rng *rand.Rand, source, tenant string, end time.Time, span time.Duration, n int) []edgeCall {
	out := make([]edgeCall, n)
	for i := range out {
		c := edgeCall{source: source, tenant: tenant, uri: edgeURIs[rng.IntN(len(edgeURIs))],
			at:      end.Add(-time.Duration(rng.Int64N(int64(span)))).Truncate(time.Millisecond),
			outcome: edgeOutcomes[rng.IntN(len(edgeOutcomes))], latency: float64(rng.IntN(3_000_000)) / 1000, completed: true}
		if rng.IntN(40) == 0 {
			c.latency = 9000 + float64(rng.IntN(1000))
		}
		if source == model.SourceGeneric {
			c.generic = loadgen.GenericLog{EventID: uuid4(rng), Timestamp: c.at.Format(time.RFC3339Nano), ServiceURI: c.uri,
				Method: "POST", StatusCode: c.outcome.status, LatencyMs: c.latency, ConsumerIP: fmt.Sprintf("10.0.0.%d", rng.IntN(5)+1),
				Backend: "backend-" + fmt.Sprint(rng.IntN(3)) + ":8080", ResultCode: c.outcome.result, SoapFault: c.outcome.fault,
				RequestPayload: "<req/>", ResponsePayload: "<resp/>"}
		} else {
			c.lb = lbEvents(rng, c)
			c.completed = c.lb[len(c.lb)-1].Stage == model.StageClientResponse
		}
		out[i] = c
	}
	return out
}

// lbEvents are the stage events of one lb transaction: usually all four,
// sometimes only the client stages, and one in 15 still in flight (its
// client_request only).
func lbEvents(rng *rand.Rand, c edgeCall) []loadgen.LBEvent {
	gtid := uuid4(rng)
	base := loadgen.LBEvent{GlobalTransactionID: gtid, FrontVirtualServer: []string{"vs-public", "vs-partner"}[rng.IntN(2)],
		BackVirtualServer: "pool-" + fmt.Sprint(rng.IntN(2)), ClientIP: fmt.Sprintf("172.16.0.%d", rng.IntN(9)+1), Method: "POST",
		Host: "api.example.com", URI: c.uri, Backend: "10.1.0.1:8080"}
	stages := model.LBStages
	switch rng.IntN(15) {
	case 0:
		stages = stages[:1]
	case 1, 2:
		stages = []string{model.StageClientRequest, model.StageClientResponse}
	}
	start := c.at.Add(-time.Duration(c.latency * float64(time.Millisecond)))
	var out []loadgen.LBEvent
	for i, st := range stages {
		e := base
		e.EventID, e.Stage = uuid4(rng), st
		at := start.Add(time.Duration(i) * time.Microsecond)
		if st == model.StageClientResponse {
			at = c.at
		}
		e.Timestamp = at.Format(time.RFC3339Nano)
		if st == model.StageServerResponse || st == model.StageClientResponse {
			e.StatusCode, e.ResultCode, e.SoapFault, e.DurationMs = c.outcome.status, c.outcome.result, c.outcome.fault, c.latency
		}
		out = append(out, e)
	}
	return out
}

// uuid4 is a random UUID from rng (reproducible fixtures).
func uuid4(rng *rand.Rand) string {
	var b [16]byte
	for i := range b {
		b[i] = byte(rng.IntN(256))
	}
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// edgeRecords describes the calls as reference records, matched as they
// must be reported (billing onboarded or not).
func edgeRecords(calls []edgeCall, billing bool) []refRecord {
	var out []refRecord
	for _, c := range calls {
		if !c.completed {
			continue
		}
		uri := discovery.NormalizeURI(c.uri)
		dir, env, key, id := edgeMatch(uri, billing)
		o := c.outcome
		out = append(out, refRecord{source: c.source, tenant: c.tenant, at: c.at.UTC(), direction: dir, env: env, key: key, op: uri,
			serviceID: id, latency: c.latency, isError: o.fault || o.status >= 400 || o.result != "" && o.result != "ok" && o.result != "success"})
	}
	return out
}

// registerInstance registers a connector instance as the default admin
// and returns its token.
func (a *testAPI) registerInstance(vendor, tenant string) string {
	a.t.Helper()
	body := fmt.Sprintf(`{"vendor":%q,"name":"%s-%s"}`, vendor, vendor, tenant)
	if tenant != "" {
		body = fmt.Sprintf(`{"vendor":%q,"name":"%s-%s","tenantId":%q}`, vendor, vendor, tenant, tenant)
	}
	var out discovery.RegisteredInstance
	a.do("POST", "/admin/v1/ingest-instances", adminEmail, body, "application/json").WantStatus(a.t, http.StatusCreated).Decode(a.t, &out)
	return out.Token
}

// ingestCalls sends the calls' events or logs through the ingest API with
// token, in batches of at most 2,000.
func (a *testAPI) ingestCalls(token string, calls []edgeCall) {
	a.t.Helper()
	var lb []loadgen.LBEvent
	var generic []loadgen.GenericLog
	for _, c := range calls {
		lb = append(lb, c.lb...)
		if c.source == model.SourceGeneric {
			generic = append(generic, c.generic)
		}
	}
	for chunk := range slices.Chunk(lb, 2000) {
		a.postIngest(discovery.PathLBEvents, token, chunk)
	}
	for chunk := range slices.Chunk(generic, 2000) {
		a.postIngest(discovery.PathGenericLogs, token, chunk)
	}
}

// postIngest posts one batch and checks it is stored.
func (a *testAPI) postIngest(path, token string, batch any) {
	a.t.Helper()
	body, err := json.Marshal(batch)
	if err != nil {
		a.t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", a.ingest.URL+path, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := a.ingest.Client().Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	var ans discovery.IngestResponse
	if err := json.NewDecoder(resp.Body).Decode(&ans); err != nil || resp.StatusCode != 200 {
		a.t.Fatalf("ingest %s: %d %+v %v", path, resp.StatusCode, ans, err)
	}
}

// onboardBilling creates the billing service and waits until discovery
// has re-matched its row (discovery's revision poll, started here).
func (a *testAPI) onboardBilling() {
	a.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { defer close(stopped); a.disc.Run(ctx) }()
	defer func() { cancel(); <-stopped }()
	err := a.store.Transact(ctx, func(tx *store.Tx) error {
		s := billingService
		s.ServiceName, s.CreatedAt, s.UpdatedAt = s.ServiceKey, time.Now(), time.Now()
		if err := tx.CreateService(ctx, s); err != nil {
			return err
		}
		_, err := tx.BumpRevision(ctx)
		return err
	})
	if err != nil {
		a.t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		matches, err := a.store.DiscoveryRowMatches(ctx)
		if err != nil {
			a.t.Fatal(err)
		}
		for _, m := range matches {
			if m.OnboardedServiceID == billingService.ServiceID {
				return
			}
		}
	}
	a.t.Fatal("the billing row was not re-matched")
}
