package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/tests/poll"
)

// adminCall sends an admin request to url as the bootstrap admin and
// decodes the JSON answer into out (when not nil).
func adminCall(t *testing.T, method, url, body string, wantStatus int, out any) {
	t.Helper()
	r := admintest.NewClient(t, "").Do(method, url, "ops@example.com", body).WantStatus(t, wantStatus)
	if out != nil {
		r.Decode(t, out)
	}
}

// postJSON posts body as JSON to url with no identity (a runtime call)
// and returns the status and body.
func postJSON(t *testing.T, url, body string) (int, string) {
	t.Helper()
	r := admintest.NewClient(t, "").Do(http.MethodPost, url, "", body)
	return r.Status, string(r.Body)
}

// TestPublishEndToEnd runs s2r serve on SQLite, autopilot-imports a WSDL
// through the admin API, points its backend at a SOAP server on
// 127.0.0.1, activates it and calls it; an admin change is served within
// a second.
func TestPublishEndToEnd(t *testing.T) {
	wsdlText, err := os.ReadFile("../../internal/dataplane/testdata/calc.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		if !strings.Contains(string(b), ">12345678901234567890.1</") {
			io.WriteString(w, `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault>`+
				`<faultcode>soap:Client</faultcode><faultstring>unexpected request</faultstring></soap:Fault></soap:Body></soap:Envelope>`)
			return
		}
		io.WriteString(w, `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>`+
			`<AddResponse xmlns="http://example.com/calc"><result>12345678901234567892.100000000000000001</result></AddResponse>`+
			`</soap:Body></soap:Envelope>`)
	}))
	defer backend.Close()

	base, admin, stop := serveFresh(t)
	defer stop()

	var auto struct {
		Service struct {
			ServiceID string `json:"serviceId"`
		} `json:"service"`
		Version struct {
			VersionID string `json:"versionId"`
		} `json:"version"`
		BackendProfile struct {
			ProfileID string `json:"profileId"`
		} `json:"backendProfile"`
	}
	body, _ := json.Marshal(map[string]any{"xml": string(wsdlText), "environment": "dev", "serviceKey": "calc"})
	adminCall(t, "POST", admin+"/wsdl/import-xml:autopilot", string(body), http.StatusCreated, &auto)
	adminCall(t, "PATCH", admin+"/backend-profiles/"+auto.BackendProfile.ProfileID,
		`{"endpointUrl":"`+backend.URL+`/calc"}`, http.StatusOK, nil)

	// Not active yet: 404.
	add := base + "/publish/dev/calc/add"
	if status, b := postJSON(t, add, `{"a":12345678901234567890.1,"b":2.000000000000000001}`); status != 404 {
		t.Fatalf("before activation: %d %s", status, b)
	}
	adminCall(t, "POST", admin+"/services/"+auto.Service.ServiceID+"/versions/"+auto.Version.VersionID+":activate", "", http.StatusOK, nil)
	var got string
	took := poll.Until(t, time.Second, "activation served", func() bool {
		status, b := postJSON(t, add, `{"a":12345678901234567890.1,"b":2.000000000000000001}`)
		got = b
		return status == 200
	})
	t.Logf("activation served after %v", took)
	if want := `{"result":12345678901234567892.100000000000000001}`; got != want {
		t.Errorf("publish = %s, want %s", got, want)
	}

	// An admin change (the success envelope) is served within a second.
	adminCall(t, "PATCH", admin+"/services/"+auto.Service.ServiceID,
		`{"envelopeWrapOverride":{"dataField":"data","include":{"serviceKey":true}}}`, http.StatusOK, nil)
	took = poll.Until(t, time.Second, "envelope change served", func() bool {
		_, b := postJSON(t, add, `{"a":12345678901234567890.1,"b":2}`)
		got = b
		return strings.HasPrefix(b, `{"data":`)
	})
	t.Logf("envelope change served after %v", took)
	if want := `{"data":{"result":12345678901234567892.100000000000000001},"serviceKey":"calc"}`; got != want {
		t.Errorf("wrapped publish = %s, want %s", got, want)
	}

	// Bad requests answer their codes and each is in the runtime logs.
	for _, bad := range []struct {
		cid, ct, body, code string
		status              int
	}{
		{"e2e-invalid-json", "application/json", `{"a":`, "S2R-VAL-0400", 400},
		{"e2e-content-type", "text/plain", `{"a":1,"b":2}`, "S2R-VAL-0400", 400},
		{"e2e-schema", "application/json", `{"a":"x"}`, "S2R-VAL-0410", 400},
	} {
		req, _ := http.NewRequest("POST", add, strings.NewReader(bad.body))
		req.Header.Set("Content-Type", bad.ct)
		req.Header.Set("X-Correlation-Id", bad.cid)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != bad.status || !strings.Contains(string(b), bad.code) {
			t.Errorf("%s: %d %s", bad.cid, resp.StatusCode, b)
		}
		var logs struct {
			Items []struct {
				ServiceKey, OperationKey, ResultCode, ErrorCode string
				HTTPStatus                                      int
			} `json:"items"`
		}
		poll.Until(t, 5*time.Second, bad.cid+" recorded", func() bool {
			adminCall(t, "GET", admin+"/runtime-logs?correlationId="+bad.cid, "", http.StatusOK, &logs)
			return len(logs.Items) > 0
		})
		if l := logs.Items[0]; len(logs.Items) != 1 || l.ServiceKey != "calc" || l.OperationKey != "add" ||
			l.ResultCode != "failed" || l.ErrorCode != bad.code || l.HTTPStatus != bad.status {
			t.Errorf("%s: records %+v", bad.cid, logs.Items)
		}
	}

	// The route table is visible in the metrics.
	if status, body := get(t, base+"/metrics", nil); status != 200 || !strings.Contains(body, "s2r_route_table_services 1") {
		t.Errorf("/metrics = %d, lacks s2r_route_table_services 1", status)
	}

	// Disabling the service removes the route.
	adminCall(t, "PATCH", admin+"/services/"+auto.Service.ServiceID, `{"status":"disabled"}`, http.StatusOK, nil)
	poll.Until(t, time.Second, "disable served", func() bool {
		status, _ := postJSON(t, add, `{"a":1,"b":2}`)
		return status == 404
	})
	if err := stop(); err != nil {
		t.Errorf("serve: %v", err)
	}
}
