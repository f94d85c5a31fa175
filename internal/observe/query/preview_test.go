package query

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

const (
	quoteResponse11 = `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>` +
		`<q:GetQuoteResponse xmlns:q="http://example.com/quote"><q:price>12.50</q:price><q:history>12.25</q:history>` +
		`<q:open>true</q:open></q:GetQuoteResponse></s:Body></s:Envelope>`
	quoteResponse12 = `<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body>` +
		`<GetQuoteResponse xmlns="http://example.com/quote"><price>7</price><open>false</open></GetQuoteResponse></e:Body></e:Envelope>`
	quoteRequest = `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>` +
		`<GetQuote xmlns="http://example.com/quote"><symbol>ACME</symbol><days>3</days></GetQuote></s:Body></s:Envelope>`
	quoteFault = `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault>` +
		`<faultcode>s:Client</faultcode><faultstring>unknown</faultstring><detail>` +
		`<q:UnknownSymbol xmlns:q="http://example.com/quote"><q:symbol>ZZZ</q:symbol><q:retryAfter>30</q:retryAfter></q:UnknownSymbol>` +
		`</detail></s:Fault></s:Body></s:Envelope>`
)

// onboardQuote imports testdata/quote.wsdl through the autopilot and
// returns the service and operation ids.
func onboardQuote(t *testing.T, api *testAPI) (serviceID, operationID, operationKey string) {
	t.Helper()
	wsdl, err := os.ReadFile("testdata/quote.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{"xml": string(wsdl), "environment": "dev", "serviceKey": "quote"})
	var out struct {
		Service    struct{ ServiceID string }
		Operations []struct{ OperationID, OperationKey string }
	}
	api.do("POST", "/admin/v1/wsdl/import-xml:autopilot", adminEmail, string(body), "application/json").WantStatus(t, 201).Decode(t, &out)
	if len(out.Operations) != 1 {
		t.Fatalf("operations %+v", out.Operations)
	}
	return out.Service.ServiceID, out.Operations[0].OperationID, out.Operations[0].OperationKey
}

func TestPreview(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st, time.Now())
		svc, op, key := onboardQuote(t, api)
		mapping := `{"responseMapping":{"mode":"identity","rename":{"price":"lastPrice"}},` +
			`"faultMapping":{"mode":"identity","rename":{"UnknownSymbol/retryAfter":"retryAfterSeconds"}}}`
		api.do("PUT", "/admin/v1/operations/"+op+"/mapping", operatorEmail, mapping, "application/json").WantStatus(t, 200)
		tests := []struct {
			name, query, body, ctype string
			mode                     string
			fault                    bool
			json                     string
		}{
			{"contract response 1.1", "operationId=" + op, quoteResponse11, "text/xml", "contract", false,
				`{"lastPrice":12.50,"history":[12.25],"open":true}`},
			{"contract by service and key, soap 1.2", "serviceId=" + svc + "&operationKey=" + key, quoteResponse12, "application/soap+xml", "contract", false,
				`{"lastPrice":7,"history":[],"open":false}`},
			{"contract request", "operationId=" + op + "&direction=request", quoteRequest, "application/xml", "contract", false,
				`{"symbol":"ACME","days":3}`},
			{"contract fault", "operationId=" + op, quoteFault, "text/plain", "contract", true, ""},
			{"naive response", "", quoteResponse11, "", "naive", false,
				`{"GetQuoteResponse":{"price":"12.50","history":"12.25","open":"true"}}`},
			{"naive bare document", "serviceId=" + svc, `<a x="1"><b>2</b><b>3</b></a>`, "text/xml", "naive", false,
				`{"a":{"@x":"1","b":["2","3"]}}`},
			{"naive fault", "", quoteFault, "text/xml", "naive", true, ""},
			{"contract bare body", "operationId=" + op, `<GetQuoteResponse xmlns="http://example.com/quote"><price>1</price><open>true</open></GetQuoteResponse>`,
				"text/xml", "contract", false, ""},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				var got previewResult
				api.do("POST", "/admin/v1/soap-to-json-preview?"+tt.query, readerEmail, tt.body, tt.ctype).WantStatus(t, 200).Decode(t, &got)
				if got.Mode != tt.mode || got.Fault != tt.fault {
					t.Errorf("mode %s fault %v: %s", got.Mode, got.Fault, got.JSON)
				}
				if tt.json != "" && !sameJSON(t, tt.json, string(got.JSON)) {
					t.Errorf("json %s, want %s", got.JSON, tt.json)
				}
			})
		}
		var fault previewResult
		api.do("POST", "/admin/v1/soap-to-json-preview?operationId="+op, readerEmail, quoteFault, "text/xml").WantStatus(t, 200).Decode(t, &fault)
		if !strings.Contains(string(fault.JSON), `"retryAfterSeconds":30`) || !strings.Contains(string(fault.JSON), "unknown") {
			t.Errorf("contract fault %s: want the typed, renamed detail", fault.JSON)
		}
		checkPreviewErrors(t, api, st, op)
	})
}

func checkPreviewErrors(t *testing.T, api *testAPI, st *store.Store, op string) {
	bomb := `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><x>&b;</x>`
	for _, tt := range []struct {
		name, query, body, ctype string
		status                   int
		code, field              string
	}{
		{"malformed", "", `<a><b></a>`, "text/xml", 400, "S2R-VAL-0400", "body"},
		{"entity bomb", "", bomb, "text/xml", 400, "S2R-VAL-0400", "body"},
		{"empty", "", "", "text/xml", 400, "S2R-VAL-0400", "body"},
		{"off contract", "operationId=" + op, strings.Replace(quoteResponse11, "12.50", "twelve", 1), "text/xml", 400, "S2R-VAL-0400", "body"},
		{"json body", "", `{"a":1}`, "application/json", 415, "S2R-VAL-0415", ""},
		{"bad direction", "direction=both", "<a/>", "text/xml", 400, "S2R-VAL-0400", "direction"},
		{"bad operation id", "operationId=12", "<a/>", "text/xml", 400, "S2R-VAL-0400", "operationId"},
		{"bad service id", "serviceId=x", "<a/>", "text/xml", 400, "S2R-VAL-0400", "serviceId"},
		{"key without service", "operationKey=getQuote", "<a/>", "text/xml", 400, "S2R-VAL-0400", "serviceId"},
		{"unknown operation", "operationId=00000000-0000-4000-8000-000000000000", "<a/>", "text/xml", 404, "S2R-ADM-0404", ""},
		{"unknown service", "serviceId=00000000-0000-4000-8000-000000000000&operationKey=x", "<a/>", "text/xml", 404, "S2R-ADM-0404", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var e admintest.ErrorBody
			api.do("POST", "/admin/v1/soap-to-json-preview?"+tt.query, readerEmail, tt.body, tt.ctype).WantStatus(t, tt.status).Decode(t, &e)
			if e.Error.Code != tt.code || (tt.field != "" && e.Error.Details["field"] != tt.field) {
				t.Errorf("error %+v, want %s naming %q", e.Error, tt.code, tt.field)
			}
		})
	}
	ctx := context.Background()
	if err := st.Transact(ctx, func(tx *store.Tx) error {
		return tx.PutSetting(ctx, store.SettingRow{Name: "max_payload_mb", Value: json.RawMessage("1"), UpdatedAt: time.Now()})
	}); err != nil {
		t.Fatal(err)
	}
	big := "<a>" + strings.Repeat("x", 1<<20) + "</a>"
	var e admintest.ErrorBody
	api.do("POST", "/admin/v1/soap-to-json-preview", readerEmail, big, "text/xml").WantStatus(t, 413).Decode(t, &e)
	if e.Error.Code != "S2R-ADM-0413" {
		t.Errorf("oversized body: %+v", e.Error)
	}
}

// sameJSON compares two JSON texts structurally, numbers as written.
func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	dx := json.NewDecoder(strings.NewReader(a))
	dx.UseNumber()
	dy := json.NewDecoder(strings.NewReader(b))
	dy.UseNumber()
	if dx.Decode(&x) != nil || dy.Decode(&y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return string(xb) == string(yb)
}
