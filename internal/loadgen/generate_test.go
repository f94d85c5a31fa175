package loadgen

import (
	"testing"
	"time"
)

func TestGeneratorTransactionsAndSeeds(t *testing.T) {
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	a := New(Config{Services: 30, ErrorRate: 0.3, Seed: 9, Skew: 1.3, PayloadBytes: 300})
	b := New(Config{Services: 30, ErrorRate: 0.3, Seed: 9, Skew: 1.3, PayloadBytes: 300})
	evs := a.LBBatch(4000, now)
	if len(evs) != 4000 {
		t.Fatalf("%d events", len(evs))
	}
	if again := b.LBBatch(4000, now); again[3999].EventID != evs[3999].EventID {
		t.Error("the same seed gave other events")
	}
	perService := map[string]int{}
	failing := 0
	for i := 0; i < len(evs); i += 4 {
		tx := evs[i : i+4]
		for j, stage := range []string{"client_request", "server_request", "server_response", "client_response"} {
			if tx[j].Stage != stage || tx[j].GlobalTransactionID != tx[0].GlobalTransactionID || len(tx[j].EventID) != 36 {
				t.Fatalf("transaction %d: %+v", i/4, tx[j])
			}
		}
		if tx[3].StatusCode >= 500 || tx[3].ResultCode != "ok" || tx[3].SoapFault {
			failing++
		}
		perService[tx[0].BackVirtualServer]++
	}
	if failing < 200 || failing > 400 {
		t.Errorf("%d of 1000 transactions fail at a 0.3 error rate", failing)
	}
	// Zipf: the busiest service takes far more than an even share (1/30).
	most := 0
	for _, n := range perService {
		most = max(most, n)
	}
	if most < 150 {
		t.Errorf("busiest service has %d of 1000 transactions", most)
	}
	if logs := a.GenericBatch(10, now); len(logs) != 10 || logs[0].Vendor != "kong" || logs[0].RequestPayload == "" {
		t.Errorf("generic %+v", logs[0])
	}
}
